package dev.sluice.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** References taken apart, credentials read from a config.json, and pull failures told apart (ADR 0059). */
class ImagePullPartsTest {

    private static final String DIGEST = "sha256:" + "ab".repeat(32);

    @ParameterizedTest
    @CsvSource({
        "busybox, docker.io, library/busybox, docker.io/library/busybox:latest, busybox",
        "user/agent:2, docker.io, user/agent, docker.io/user/agent:2, user/agent",
        "127.0.0.1:5443/sluice/agent:test, 127.0.0.1:5443, sluice/agent, 127.0.0.1:5443/sluice/agent:test,"
                + " 127.0.0.1:5443/sluice/agent",
        "localhost/agent, localhost, agent, localhost/agent:latest, localhost/agent",
        "index.docker.io/library/busybox:1, docker.io, library/busybox, docker.io/library/busybox:1, busybox"
    })
    void aReferenceNamesItsRegistryRepositoryAndTag(
            String reference, String domain, String path, String normalized, String repository) {
        ImageName name = ImageName.parse(reference);
        assertThat(name.domain()).isEqualTo(domain);
        assertThat(name.path()).isEqualTo(path);
        assertThat(name.normalized()).isEqualTo(normalized);
        assertThat(name.repository()).isEqualTo(repository);
    }

    @Test
    void aDigestPinsThePullAndIsFoundOnlyUnderTheAskedRepository() {
        ImageName pinned = ImageName.parse("registry.example:5000/agents/x:1@" + DIGEST);
        assertThat(pinned.pullTag()).isEqualTo(DIGEST);
        assertThat(pinned.tag()).isNull();
        ImageName tagged = ImageName.parse("registry.example:5000/agents/x:1");
        assertThat(tagged.digestIn(List.of("other.example/agents/x@" + DIGEST))).isEmpty();
        assertThat(tagged.digestIn(
                        List.of("other.example/agents/x@sha256:00", "registry.example:5000/agents/x@" + DIGEST)))
                .contains(DIGEST);
        assertThat(ImageName.parse("busybox").digestIn(List.of("busybox@" + DIGEST)))
                .contains(DIGEST);
        assertThat(tagged.digestIn(List.of())).as("loaded by hand: none").isEmpty();
    }

    @Test
    void aConfigFileGivesCredentialsByHostAsAuthOrAsUserAndPassword(@TempDir Path dir) throws Exception {
        String auth = Base64.getEncoder().encodeToString("robot:s3cr:et".getBytes(StandardCharsets.UTF_8));
        Path file = dir.resolve("config.json");
        Files.writeString(
                file,
                "{\"auths\":{\"https://index.docker.io/v1/\":{\"auth\":\"" + auth + "\"},"
                        + "\"https://registry.example:5000/v2/\":{\"username\":\"u\",\"password\":\"p\"},"
                        + "\"broken.example\":{\"auth\":\"!!!\"}}}");
        RegistryCredentials credentials = new RegistryCredentials(
                Map.of("configured.example", new RegistryCredential("c", "cp")), Optional.of(file));
        assertThat(credentials.forRegistry("docker.io")).contains(new RegistryCredential("robot", "s3cr:et"));
        assertThat(credentials.forRegistry("registry.example:5000")).contains(new RegistryCredential("u", "p"));
        assertThat(credentials.forRegistry("configured.example")).contains(new RegistryCredential("c", "cp"));
        assertThat(credentials.forRegistry("broken.example")).isEmpty();
        assertThat(credentials.forRegistry("elsewhere.example")).isEmpty();
        assertThat(new RegistryCredential("robot", "s3cr:et").toString()).doesNotContain("s3cr");

        Files.writeString(file, "not json at all");
        assertThat(credentials.forRegistry("docker.io"))
                .as("an unreadable file gives none")
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "unauthorized: authentication required | UNAUTHORIZED",
                "denied: requested access to the resource is denied | UNAUTHORIZED",
                "Head \"https://r.example/v2/a/manifests/1\": no basic auth credentials | UNAUTHORIZED",
                "manifest for 127.0.0.1:5443/sluice/agent:nope not found: manifest unknown: manifest unknown | NOT_FOUND",
                "pull access denied for nothing, repository does not exist or may require 'docker login' | NOT_FOUND",
                "Get \"http://127.0.0.1:5999/v2/\": dial tcp 127.0.0.1:5999: connect: connection refused | UNREACHABLE",
                "Get \"https://nonexistent.invalid/v2/\": dial tcp: lookup nonexistent.invalid: no such host | UNREACHABLE",
                "Get \"https://r.example/v2/\": x509: certificate signed by unknown authority | UNREACHABLE",
                "manifest for r.example/a@sha256:4014034044010403 not found: manifest unknown | NOT_FOUND",
                "failed to register layer: no space left on device | FAILED",
                "toomanyrequests: You have reached your pull rate limit. You may increase the limit | RATE_LIMITED"
            })
    void theEnginesWordsSayWhichFailureItWas(String message, PullFailure expected) {
        assertThat(PullFailure.of(message)).isEqualTo(expected);
    }

    /** What a tenant reads is one of these sentences, whatever the engine or the registry said (issue 38). */
    @Test
    void eachFailureIsToldInAFixedSentenceOfOurs() {
        for (PullFailure kind : PullFailure.values()) {
            assertThat(kind.detail())
                    .startsWith(kind.words() + ": ")
                    .doesNotContainPattern("[0-9]{1,3}\\.[0-9]{1,3}\\.")
                    .doesNotContain("http");
        }
        assertThat(PullFailure.NOT_FOUND.detail())
                .isEqualTo("not found: the registry has no such repository, tag or digest");
    }
}
