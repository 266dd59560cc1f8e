package dev.sluice.summary;

import static dev.sluice.testsupport.Dispatches.awaitDelivered;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import dev.sluice.testsupport.ChatCompletionsServer;
import dev.sluice.testsupport.Profiles;
import dev.sluice.testsupport.Receiver;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * Summaries against a real HTTP peer that speaks chat completions (ADR 0034):
 * a truncated dispatch gets one, labelled and masked; a peer that never
 * answers or answers 500 leaves the result, and its delivery, without one.
 */
@QuarkusTest
@TestProfile(Profiles.Summaries.class)
class SummarizerIT {

    private static final String SECRET = "sw0rdf1sh-sw0rdf1sh";

    private final ChatCompletionsServer peer = ChatCompletionsServer.shared();
    private final Receiver receiver = Receiver.on("127.0.0.1");

    @BeforeEach
    void reset() {
        peer.clear();
    }

    @AfterEach
    void close() {
        peer.release();
        receiver.close();
    }

    @Test
    void aTruncatedDispatchGetsALabelledMaskedSummaryOfItsKeptHeadAndTail() {
        // The model repeats a secret it could only have guessed: the summary is masked like the rest.
        peer.answers("The program counted from 1 to 5000 and exited 0. It mentioned " + SECRET + ".");

        JsonPath record = run("echo \"key=$TOKEN\"; seq 1 5000");

        String nonce = record.getString("result.stdoutOverflow.nonce");
        assertThat(nonce).isNotNull();
        Map<String, Object> summary = record.getMap("result.workerSummary");
        assertThat(summary).containsEntry("model", "test-model").containsEntry("generatedBy", "summarizer");
        assertThat((String) summary.get("text"))
                .startsWith("The program counted from 1 to 5000")
                .doesNotContain(SECRET)
                .contains("*".repeat(SECRET.length()));
        List<ChatCompletionsServer.Request> requests = peer.requests();
        assertThat(requests).hasSize(1);
        ChatCompletionsServer.Request request = requests.get(0);
        assertThat(request.header("authorization")).isEqualTo("Bearer " + Profiles.Summaries.API_KEY);
        assertThat(request.body().get("model").asText()).isEqualTo("test-model");
        JsonNode messages = request.body().get("messages");
        assertThat(messages.get(0).get("role").asText()).isEqualTo("system");
        String input = messages.get(1).get("content").asText();
        assertThat(input)
                .startsWith("stdout:\nkey=" + "*".repeat(SECRET.length()) + "\n1\n2\n")
                .contains("[... sluice " + nonce + ": ")
                .contains("\n5000\n")
                .doesNotContain(SECRET);
        assertThat(((Number) summary.get("inputBytes")).longValue())
                .isEqualTo(input.getBytes(StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(4096);
    }

    @Test
    void aPeerThatNeverAnswersTimesOutAndTheResultIsDeliveredWithoutASummary() {
        peer.hangs();

        JsonPath record = run("seq 1 5000");

        assertThat(peer.requests()).hasSize(1);
        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getMap("result")).doesNotContainKey("workerSummary");
        assertDeliveredWithoutSummary(record.getString("id"));
    }

    @Test
    void aPeerAnswering500LeavesTheResultWithoutASummary() {
        peer.fails(500);

        JsonPath record = run("seq 1 5000");

        assertThat(peer.requests()).hasSize(1);
        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getMap("result")).doesNotContainKey("workerSummary");
        assertDeliveredWithoutSummary(record.getString("id"));
    }

    private JsonPath run(String shell) {
        Map<String, Object> body = new HashMap<>(script(shell));
        body.put("secrets", Map.of("TOKEN", SECRET));
        body.put("output", Map.of("stdoutCapBytes", 1024));
        body.put("callbackUrl", receiver.url("/hooks/sluice"));
        return awaitTerminal(submit(body));
    }

    private void assertDeliveredWithoutSummary(String id) {
        awaitDelivered(id);
        assertThat(receiver.requests()).hasSize(1);
        assertThat(receiver.requests().get(0).bodyText()).doesNotContain("workerSummary");
    }
}
