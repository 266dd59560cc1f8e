package dev.sluice.image;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.TestRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * Pulls from a real registry (scripts/registry.sh: Debian's docker-registry on
 * loopback, TLS with a CA the engine trusts through certs.d, htpasswd): by
 * tag, by digest, with a wrong password, of an unknown image, from a
 * registry that stalls, and twenty dispatches of one absent image sharing one
 * pull, counted by the registry's access log. Each test first removes what
 * earlier pulls left, so pulls really happen (never sluice-agent:test).
 */
@EngineWide
@QuarkusTest
@TestProfile(ImagePullIT.Registry.class)
public class ImagePullIT {

    public static final Properties ENV = TestRegistry.env();
    public static final String HOST = ENV.getProperty("SLUICE_TEST_REGISTRY");
    static final String REPOSITORY = HOST + "/" + ENV.getProperty("SLUICE_TEST_REGISTRY_IMAGE");
    static final String TAGGED = REPOSITORY + ":test";
    /** The same registry by its other name, configured with a wrong password. */
    static final String WRONG_PASSWORD = TAGGED.replace("127.0.0.1:", "localhost:");
    /** A registry that accepts connections and never answers. */
    static final ServerSocket STALLING = TestRegistry.stalling();

    public static final class Registry implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            String localhost = HOST.replace("127.0.0.1:", "localhost:");
            return Map.of(
                    // Registries named by an address or as localhost run only where a pattern names them (ADR 0075).
                    "sluice.images.allowed",
                    "*," + HOST + "/*," + localhost + "/*,127.0.0.1:" + STALLING.getLocalPort() + "/*",
                    "sluice.images.registries.\"" + HOST + "\".username",
                    ENV.getProperty("SLUICE_TEST_REGISTRY_USER"),
                    "sluice.images.registries.\"" + HOST + "\".password",
                    ENV.getProperty("SLUICE_TEST_REGISTRY_PASSWORD"),
                    "sluice.images.registries.\"" + localhost + "\".username",
                    ENV.getProperty("SLUICE_TEST_REGISTRY_USER"),
                    "sluice.images.registries.\"" + localhost + "\".password",
                    "not-the-password",
                    "sluice.images.pull-timeout",
                    "6s",
                    "sluice.dispatch.max-running",
                    "4");
        }
    }

    @BeforeEach
    void removePulledImages() throws Exception {
        List<String> refs = new ArrayList<>(List.of(TAGGED, WRONG_PASSWORD, REPOSITORY + "@" + manifestDigest()));
        List<String> command = new ArrayList<>(List.of("docker", "rmi"));
        command.addAll(refs);
        run(command); // some are not there: the engine says so and removes the rest
    }

    @Test
    void aTagIsPulledAndTheResultRecordsTheRegistrysManifestDigest() throws Exception {
        JsonPath done = awaitTerminal(submit(dispatch(TAGGED, "echo pulled by tag")), Duration.ofSeconds(60));
        assertThat(done.getString("status")).isEqualTo("succeeded");
        assertThat(done.getString("result.stdout")).isEqualTo("pulled by tag\n");
        assertThat(done.getString("result.imageDigest")).isEqualTo(manifestDigest());
    }

    @Test
    void aDigestIsPulledAndRunByDigest() throws Exception {
        String digest = manifestDigest();
        JsonPath done =
                awaitTerminal(submit(dispatch(REPOSITORY + "@" + digest, "echo pinned")), Duration.ofSeconds(60));
        assertThat(done.getString("status")).isEqualTo("succeeded");
        assertThat(done.getString("result.stdout")).isEqualTo("pinned\n");
        assertThat(done.getString("result.imageDigest")).isEqualTo(digest);
    }

    @Test
    void aWrongPasswordEndsUnauthorizedWithoutTheSecret() {
        JsonPath done = awaitTerminal(submit(dispatch(WRONG_PASSWORD, "true")), Duration.ofSeconds(60));
        assertThat(done.getString("status")).isEqualTo("error");
        assertThat(done.getString("result.error.code")).isEqualTo("image_pull_failed");
        assertThat(done.getString("result.error.message")).startsWith("unauthorized: ");
        assertThat(done.prettify()).doesNotContain("not-the-password");
        assertThat(done.getString("result.imageDigest")).isNull();
    }

    @Test
    void anUnknownImageEndsNotFound() {
        JsonPath done = awaitTerminal(submit(dispatch(REPOSITORY + "-missing:test", "true")), Duration.ofSeconds(60));
        assertThat(done.getString("result.error.code")).isEqualTo("image_pull_failed");
        assertThat(done.getString("result.error.message")).startsWith("not found: ");
    }

    @Test
    void aRegistryThatStallsEndsAtThePullDeadline() {
        String image = "127.0.0.1:" + STALLING.getLocalPort() + "/sluice/agent:test";
        long started = System.nanoTime();
        JsonPath done = awaitTerminal(submit(dispatch(image, "true")), Duration.ofSeconds(60));
        long tookSeconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
        assertThat(done.getString("result.error.code")).isEqualTo("image_pull_failed");
        assertThat(done.getString("result.error.message")).startsWith("timeout: ");
        assertThat(tookSeconds)
                .as("ended by the 6 s deadline, not the engine's own")
                .isLessThan(30);
    }

    @Test
    void twentyDispatchesOfAnAbsentImageShareOnePull() throws Exception {
        // The registry's access log is the witness: the engine asks for the tag's manifest once per pull.
        Path log = Path.of(ENV.getProperty("SLUICE_TEST_REGISTRY_LOG"));
        long before = Files.size(log);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ids.add(submit(dispatch(TAGGED, "echo " + i)));
        }
        for (int i = 0; i < 20; i++) {
            JsonPath done = awaitTerminal(ids.get(i), Duration.ofSeconds(90));
            assertThat(done.getString("status")).isEqualTo("succeeded");
            assertThat(done.getString("result.stdout")).isEqualTo(i + "\n");
        }
        byte[] all = Files.readAllBytes(log);
        String since = new String(all, (int) before, all.length - (int) before, StandardCharsets.UTF_8);
        String manifest =
                "\"HEAD /v2/" + ENV.getProperty("SLUICE_TEST_REGISTRY_IMAGE") + "/manifests/test HTTP/1.1\" 200";
        assertThat(since.lines().filter(l -> l.contains(manifest) && l.contains("\"docker/")))
                .hasSize(1);
    }

    @Test
    void policyNeverKeepsImageNotFoundAndMoreThanTheWorkerAllowsIs422() {
        Map<String, Object> never = dispatch(TAGGED, "true");
        never.put("imagePullPolicy", "never");
        JsonPath done = awaitTerminal(submit(never), Duration.ofSeconds(30));
        assertThat(done.getString("result.error.code")).isEqualTo("image_not_found");

        Map<String, Object> always = dispatch(TAGGED, "true");
        always.put("imagePullPolicy", "always");
        post(always).then().statusCode(422).body("errors[0].field", org.hamcrest.Matchers.equalTo("imagePullPolicy"));
    }

    private static Map<String, Object> dispatch(String image, String script) {
        Map<String, Object> body = new HashMap<>();
        body.put("image", image);
        body.put("command", List.of("sh", "-c", script));
        return body;
    }

    /** The registry's own answer: HEAD of the manifest, schema 2, its Docker-Content-Digest. */
    static String manifestDigest() throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream ca = Files.newInputStream(Path.of(ENV.getProperty("SLUICE_TEST_REGISTRY_CA")))) {
            trust.setCertificateEntry(
                    "ca", CertificateFactory.getInstance("X.509").generateCertificate(ca));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(null, tmf.getTrustManagers(), null);
        String basic = Base64.getEncoder()
                .encodeToString((ENV.getProperty("SLUICE_TEST_REGISTRY_USER") + ":"
                                + ENV.getProperty("SLUICE_TEST_REGISTRY_PASSWORD"))
                        .getBytes(StandardCharsets.UTF_8));
        HttpResponse<Void> head = HttpClient.newBuilder()
                .sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5))
                .build()
                .send(
                        HttpRequest.newBuilder(URI.create("https://" + HOST + "/v2/"
                                        + ENV.getProperty("SLUICE_TEST_REGISTRY_IMAGE") + "/manifests/test"))
                                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                                .header("Authorization", "Basic " + basic)
                                .header("Accept", "application/vnd.docker.distribution.manifest.v2+json")
                                .timeout(Duration.ofSeconds(10))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
        assertThat(head.statusCode()).isEqualTo(200);
        return head.headers().firstValue("Docker-Content-Digest").orElseThrow();
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String(out, StandardCharsets.UTF_8);
    }
}
