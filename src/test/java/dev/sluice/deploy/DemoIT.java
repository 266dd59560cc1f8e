package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import dev.sluice.callback.WebhookSigner;
import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.Signatures;

/**
 * scripts/demo.sh, the newcomer's tour, run as the README gives it: worker,
 * verifying receiver, a cut dispatch, its signed callback, a byte range read
 * back, and an agent that changes a file of the workspace it was handed. And the demo's receiver believes only a valid signature.
 */
class DemoIT {

    private static final String SECRET = Signatures.freshSecret();

    @Test
    void theDemoShowsTheWholeLoop() throws IOException {
        Program.Result demo = Program.run(
                "",
                Duration.ofMinutes(3),
                "env",
                "DEMO_WORKER_PORT=" + freePort(),
                "DEMO_RECEIVER_PORT=" + freePort(),
                "DEMO_MANAGEMENT_PORT=" + freePort(),
                "scripts/demo.sh");

        assertThat(demo.exitCode()).as(demo.output()).isZero();
        assertThat(demo.stdout())
                .contains("HTTP 202")
                .contains("receiver: signature verified for msg_demo-")
                .contains("\"status\":\"succeeded\"")
                .contains("bytes of stdout omitted; full log: /v1/dispatches/demo-")
                .contains("reviewing: pull request 42\n1\n2\n")
                .contains("Sluice-Log-Next-Offset: 40")
                // The agent read its brief, changed its file, and listed the workspace with checksums.
                .contains("\"stdout\":\"Replace the TODO in src/main.sh.\\n"
                        + "874381198d6628f79ebaae31d78a623406a243d5eca3069848f743b5cee4ce96  ./BRIEF.md\\n"
                        + "f68d272bfda2a8a3972c6e3645caf025285454a20e044ba03404ac864c07c103  ./src/main.sh\\n\"")
                .doesNotContain("REFUSED");
    }

    @Test
    void theDemoReceiverRefusesWhatItCannotVerify() throws Exception {
        int port = freePort();
        Path out = Files.createTempDirectory(Path.of("target"), "demo-receiver-");
        Process receiver = new ProcessBuilder(
                        "java", "scripts/demo/Receiver.java", String.valueOf(port), SECRET, out.toString())
                .redirectErrorStream(true)
                .redirectOutput(out.resolve("receiver.log").toFile())
                .start();
        try {
            HttpClient client = HttpClient.newBuilder()
                    .connectTimeout(Duration.ofSeconds(5))
                    .build();
            URI uri = URI.create("http://127.0.0.1:" + port + "/callback");
            Awaitility.await()
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> Files.readString(out.resolve("receiver.log")).contains("listening"));

            assertThat(post(client, uri, "msg_good", SECRET, "{}")).isEqualTo(204);
            assertThat(post(client, uri, "msg_forged", Signatures.freshSecret(), "{}"))
                    .isEqualTo(401);
            assertThat(out.resolve("msg_good.json")).hasContent("{}");
            assertThat(out.resolve("msg_forged.json")).doesNotExist();
        } finally {
            receiver.destroy();
            receiver.waitFor();
        }
    }

    private static int post(HttpClient client, URI uri, String id, String secret, String body) throws Exception {
        long timestamp = Instant.now().getEpochSecond();
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(10))
                .header("webhook-id", id)
                .header("webhook-timestamp", String.valueOf(timestamp))
                .header("webhook-signature", new WebhookSigner(List.of(secret)).sign(id, timestamp, bytes))
                .POST(HttpRequest.BodyPublishers.ofByteArray(bytes))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
