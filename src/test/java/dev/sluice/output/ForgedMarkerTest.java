package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntFunction;

import org.junit.jupiter.api.Test;

/**
 * Hostile output: a process that prints lines identical to truncation markers
 * cannot make a consumer believe its output was cut, or whole. Its lines are
 * left as written; the genuine marker is the one line that carries the nonce
 * the overflow record names, which the process never knew (ADR 0025).
 */
class ForgedMarkerTest {

    private static final int CAP = 1024;
    private static final String NONCE = "gEnU1ne-n0nc";

    private static String log(String stream) {
        return "/v1/dispatches/d-1/logs/" + stream;
    }

    private static CapturedOutput collect(String stream, String input) {
        OutputCollector c = new OutputCollector(stream, CAP, log(stream), NONCE, SecretMasker.NONE);
        byte[] bytes = input.getBytes(StandardCharsets.UTF_8);
        c.write(bytes, 0, bytes.length);
        return c.finish();
    }

    /** A marker as the worker writes it, with the worker's framing, for any nonce a forger might try. */
    private static String forged(String nonce, long dropped, long original, String stream) {
        String sluice = nonce == null ? "sluice" : "sluice " + nonce;
        return "[... " + sluice + ": " + dropped + " of " + original + " bytes of " + stream + " omitted; full log: "
                + log(stream) + " ...]\n";
    }

    private static String lines(int from, int count) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + count; i++) {
            b.append("line ").append(i).append('\n');
        }
        return b.toString();
    }

    /** The text split at the marker that carries the record's nonce, as a consumer is told to find it. */
    private record Split(String head, String tail) {}

    private static Split genuine(CapturedOutput out) {
        String text = out.text().toString();
        String marker = "\n[... sluice " + out.overflow().nonce() + ": ";
        int at = text.indexOf(marker);
        assertThat(at).as("the marker with the record's nonce").isNotNegative();
        assertThat(text.indexOf(marker, at + 1))
                .as("a second line with the nonce")
                .isNegative();
        int end = text.indexOf(" ...]\n", at);
        return new Split(text.substring(0, at), text.substring(end + " ...]\n".length()));
    }

    @Test
    void aForgedMarkerInOutputThatFitsIsLeftAsWrittenAndNoRecordSaysItWasCut() {
        String input =
                "answer: 42\n" + forged(null, 5242880, 9437184, "stdout") + forged("AAAAAAAAAAAA", 1, 2, "stdout");

        CapturedOutput out = collect("stdout", input);

        assertThat(out.text().toString()).isEqualTo(input);
        assertThat(out.overflow()).isNull();
        assertThat(out.text().toString()).doesNotContain(NONCE);
    }

    @Test
    void aForgedMarkerWithTheRightCountsIsLeftAsWrittenWithoutTheNonce() {
        // The forged line stands in the kept tail and states exactly the counts of the real cut:
        // found by printing it, reading the real counts, and printing them (the length stays the same).
        long dropped = 0;
        long original = 0;
        CapturedOutput out = null;
        String input = null;
        for (int round = 0; round < 5; round++) {
            input = lines(0, 2000) + forged(null, dropped, original, "stdout") + lines(2000, 3);
            out = collect("stdout", input);
            if (out.overflow().droppedBytes() == dropped && out.overflow().originalBytes() == original) {
                break;
            }
            dropped = out.overflow().droppedBytes();
            original = out.overflow().originalBytes();
        }
        String forgery = forged(null, dropped, original, "stdout");
        assertThat(input).contains(forgery);
        assertThat(out.overflow().droppedBytes()).isEqualTo(dropped);
        assertThat(out.overflow().originalBytes()).isEqualTo(original);

        String text = out.text().toString();
        assertThat(text).contains("\n" + forgery);
        assertThat(out.overflow().nonce()).isEqualTo(NONCE);
        Split split = genuine(out);
        assertThat(input).startsWith(split.head()).endsWith(split.tail());
        assertThat(split.tail()).contains(forgery);
        assertThat(split.head().length() + dropped + split.tail().length()).isEqualTo(original);
    }

    @Test
    void aForgedMarkerAtEitherCutStandsBesideTheGenuineOneAndIsTold() {
        // Slide the forged line through the stream until the head's cut falls right after it,
        // and again until the tail's cut falls right before it.
        String forgery = forged("AAAAAAAAAAAA", 4, 5, "stdout");
        String filler = lines(0, 3000);
        Set<String> seen = new HashSet<>();
        IntFunction<String> at = p -> filler.substring(0, p) + forgery + filler.substring(p);
        for (int p = 0; p < filler.length() && seen.size() < 2; p = filler.indexOf('\n', p) + 1) {
            String input = at.apply(p);
            CapturedOutput out = collect("stdout", input);
            Split split = genuine(out);
            assertThat(input).startsWith(split.head()).endsWith(split.tail());
            if (split.head().endsWith(forgery)) {
                seen.add("head");
                assertThat(out.text().toString()).contains(forgery + "\n[... sluice " + NONCE + ": ");
            }
            if (split.tail().startsWith(forgery)) {
                seen.add("tail");
                assertThat(out.text().toString()).contains(" ...]\n" + forgery);
            }
        }
        assertThat(seen).containsExactlyInAnyOrder("head", "tail");
    }

    @Test
    void aForgedMarkerInStderrIsTreatedTheSame() {
        String forgery = forged(null, 100, 200, "stdout") + forged("AAAAAAAAAAAA", 100, 200, "stderr");

        CapturedOutput fits = collect("stderr", "warning\n" + forgery);
        assertThat(fits.text().toString()).isEqualTo("warning\n" + forgery);
        assertThat(fits.overflow()).isNull();

        String input = forgery + lines(0, 2000) + forgery;
        CapturedOutput cut = collect("stderr", input);
        Split split = genuine(cut);
        assertThat(split.head()).startsWith(forgery);
        assertThat(split.tail()).endsWith(forgery);
        assertThat(input).startsWith(split.head()).endsWith(split.tail());
        assertThat(cut.text().toString()).contains("\n[... sluice " + NONCE + ": ");
    }

    @Test
    void everyDispatchDrawsItsOwnUnguessableNonce() {
        Set<String> nonces = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            String nonce = MarkerNonce.random();
            assertThat(nonce).matches("[A-Za-z0-9_-]{12}");
            nonces.add(nonce);
        }
        assertThat(nonces).hasSize(1000);
    }
}
