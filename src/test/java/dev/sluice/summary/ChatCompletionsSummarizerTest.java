package dev.sluice.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The summarizer's input bound: a quarter head and the end, within max-input-bytes, whole characters only. */
class ChatCompletionsSummarizerTest {

    @Test
    void inputWithinTheBoundIsSentWhole() {
        assertThat(ChatCompletionsSummarizer.bounded("stdout:\nok\n", 64)).isEqualTo("stdout:\nok\n");
    }

    @Test
    void longerInputKeepsItsFirstQuarterAndItsEndWithinTheBound() {
        String text = "begin\n" + "é€😀".repeat(2000) + "\nthe end";
        for (int max = 200; max < 260; max++) {
            String bounded = ChatCompletionsSummarizer.bounded(text, max);
            byte[] bytes = bounded.getBytes(StandardCharsets.UTF_8);
            assertThat(bytes.length).as("max %d", max).isLessThanOrEqualTo(max);
            assertThat(bounded).startsWith("begin\n").endsWith("\nthe end").contains("[... cut to fit");
            assertThat(bounded).doesNotContain("\uFFFD");
        }
    }
}
