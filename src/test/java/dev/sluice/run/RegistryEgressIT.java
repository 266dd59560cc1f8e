package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.image.ImagePullIT;
import dev.sluice.image.PullFailure;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Which registries a tenant may have the engine pull from, and what it learns
 * when a pull fails (issue 38, ADR 0075), against the packaged worker as
 * shipped, the real engine and the test registry (scripts/registry.sh, on
 * 127.0.0.1:5443, reachable also as localhost:5443). With the default
 * allow-list, an image whose registry is an address or localhost is refused
 * with 403 and nothing is created; listed, it is pulled. A failed pull tells
 * the tenant one of our fixed sentences, never the engine's text (the
 * registry's words, its address), which the worker's log keeps for the
 * operator. A name that resolves to loopback when the image is pulled is not
 * asked at all. No pull here succeeds, so the engine is left as it was.
 */
class RegistryEgressIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REGISTRY = ImagePullIT.HOST;
    private static final String LOCALHOST = REGISTRY.replace("127.0.0.1:", "localhost:");
    private static final String REPOSITORY = ImagePullIT.ENV.getProperty("SLUICE_TEST_REGISTRY_IMAGE");
    private static final String WRONG_PASSWORD = "wrong-password-of-the-test";

    @Test
    void registriesNamedByAddressOrLocalhostAreRefusedByDefault() throws Exception {
        List<String> images = List.of(
                REGISTRY + "/" + REPOSITORY + ":test",
                LOCALHOST + "/" + REPOSITORY + ":test",
                "10.1.2.3/agents/x:1",
                "[::1]:5000/agents/x");
        try (WorkerProcess worker =
                WorkerProcess.startAsShipped(WorkerProcess.environment("registry-default", Map.of()))) {
            for (String image : images) {
                HttpResponse<String> refused = worker.dispatch(Map.of("image", image, "command", List.of("true")));
                assertThat(refused.statusCode()).as(refused.body()).isEqualTo(403);
                JsonNode problem = JSON.readTree(refused.body());
                assertThat(problem.path("type").asText()).endsWith("image-not-allowed");
                assertThat(problem.path("detail").asText())
                        .isEqualTo("image " + image + " names its registry by an address or as localhost, and only a "
                                + "pattern of sluice.images.allowed that names that registry (host and port, no *) "
                                + "allows it");
            }
            assertThat(JSON.readTree(worker.get("/v1/dispatches").body()).path("items"))
                    .isEmpty();
        }
    }

    @Test
    void aFailedPullTellsTheTenantOurWordsAndTheOperatorTheEngines() throws Exception {
        Path dir = Files.createDirectories(Path.of("target/registry-egress"));
        // Credentials as a mounted config.json would give them: the right ones by address, wrong ones by name.
        Path config = dir.resolve("config.json");
        Files.writeString(
                config,
                JSON.writeValueAsString(Map.of(
                        "auths",
                        Map.of(
                                REGISTRY,
                                Map.of("auth", basic(ImagePullIT.ENV.getProperty("SLUICE_TEST_REGISTRY_PASSWORD"))),
                                LOCALHOST,
                                Map.of("auth", basic(WRONG_PASSWORD))))));
        // The worker's resolver reads this file alone (the JDK's jdk.net.hosts.file): a public-looking name that
        // leads to loopback, as a record an attacker controls would.
        Path hosts = dir.resolve("hosts");
        Files.writeString(
                hosts,
                "127.0.0.1 localhost " + InetAddress.getLocalHost().getHostName()
                        + "\n127.0.0.1 registry.rebound.example\n");
        String port = REGISTRY.substring(REGISTRY.indexOf(':') + 1);
        Map<String, String> env = WorkerProcess.environment(
                "registry-listed",
                Map.of(
                        "SLUICE_IMAGES_ALLOWED",
                        "*," + REGISTRY + "/*," + LOCALHOST + "/*",
                        "SLUICE_IMAGES_DOCKER_CONFIG",
                        config.toString(),
                        "SLUICE_IMAGES_PULL_TIMEOUT",
                        "20s",
                        "JAVA_OPTS",
                        "-Djdk.net.hosts.file=" + hosts.toAbsolutePath()));

        String absent = REGISTRY + "/" + REPOSITORY + ":absent-tag";
        String unauthorized = LOCALHOST + "/" + REPOSITORY + ":test";
        String rebound = "registry.rebound.example:" + port + "/" + REPOSITORY + ":test";
        String log;
        JsonNode notFound;
        JsonNode refused;
        JsonNode internal;
        try (WorkerProcess worker = WorkerProcess.startAsShipped(env)) {
            String a = worker.submit(Map.of("image", absent, "command", List.of("true")));
            String u = worker.submit(Map.of("image", unauthorized, "command", List.of("true")));
            String r = worker.submit(Map.of("image", rebound, "command", List.of("true")));
            notFound = worker.awaitTerminal(a, Duration.ofSeconds(90));
            refused = worker.awaitTerminal(u, Duration.ofSeconds(90));
            internal = worker.awaitTerminal(r, Duration.ofSeconds(90));
            log = worker.logText();
        }

        assertPullFailed(notFound, PullFailure.NOT_FOUND);
        assertPullFailed(refused, PullFailure.UNAUTHORIZED);
        assertThat(refused.toString()).doesNotContain(WRONG_PASSWORD);
        assertPullFailed(internal, PullFailure.NOT_ALLOWED);
        // The operator reads what the engine said, and never the password.
        assertThat(log)
                .contains("pull of " + absent + " failed (not found): ")
                .contains("manifest unknown")
                .contains("pull of " + unauthorized + " failed (unauthorized): ")
                .contains("pull of " + rebound + " failed (registry not allowed)")
                .doesNotContain(WRONG_PASSWORD);
    }

    /** The error is ours: one of the fixed sentences, with no address, port, URL or registry words in it. */
    private static void assertPullFailed(JsonNode record, PullFailure expected) {
        assertThat(record.path("status").asText()).as(record.toString()).isEqualTo("error");
        assertThat(record.at("/result/error/code").asText()).isEqualTo("image_pull_failed");
        String message = record.at("/result/error/message").asText();
        assertThat(message).isEqualTo(expected.detail());
        assertThat(Arrays.stream(PullFailure.values()).map(PullFailure::detail)).contains(message);
        assertThat(message).doesNotContain("127.0.0.1", "localhost", "5443", "rebound", "http", "manifest");
        assertThat(record.at("/result/imageDigest").isNull()).isTrue();
    }

    private static String basic(String password) {
        return Base64.getEncoder()
                .encodeToString((ImagePullIT.ENV.getProperty("SLUICE_TEST_REGISTRY_USER") + ":" + password)
                        .getBytes(StandardCharsets.UTF_8));
    }
}
