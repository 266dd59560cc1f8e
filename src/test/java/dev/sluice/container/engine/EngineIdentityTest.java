package dev.sluice.container.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.model.Version;

/** Which engine answers, read from {@code /version} as each engine gives it, and what Podman refuses (ADR 0078). */
class EngineIdentityTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Podman 4.3.1's answer on this machine, shortened. */
    private static final String PODMAN = """
            {"Platform":{"Name":"linux/amd64/debian-12"},
             "Components":[{"Name":"Podman Engine","Version":"4.3.1","Details":{"APIVersion":"4.3.1"}},
                           {"Name":"Conmon","Version":"conmon version 2.1.6"},
                           {"Name":"OCI Runtime (crun)","Version":"crun version 1.8.1"}],
             "Version":"4.3.1","ApiVersion":"1.41","MinAPIVersion":"1.24","Os":"linux"}""";

    /** Docker Engine 20.10.24's, shortened. */
    private static final String DOCKER = """
            {"Platform":{"Name":""},
             "Components":[{"Name":"Engine","Version":"20.10.24+dfsg1","Details":{"ApiVersion":"1.41"}},
                           {"Name":"containerd","Version":"1.6.20~ds1"},{"Name":"runc","Version":"1.1.5+ds1"}],
             "Version":"20.10.24+dfsg1","ApiVersion":"1.41","Os":"linux"}""";

    @Test
    void eachEngineIsKnownByTheNameItGivesItself() throws Exception {
        EngineIdentity podman = EngineIdentity.of(JSON.readValue(PODMAN, Version.class));
        assertThat(podman).isEqualTo(new EngineIdentity("Podman Engine", "4.3.1", "1.41"));
        assertThat(podman.podman()).isTrue();
        assertThat(podman.describe()).isEqualTo("Podman Engine 4.3.1, API 1.41");

        EngineIdentity docker = EngineIdentity.of(JSON.readValue(DOCKER, Version.class));
        assertThat(docker).isEqualTo(new EngineIdentity("Engine", "20.10.24+dfsg1", "1.41"));
        assertThat(docker.podman()).isFalse();
        assertThat(docker.describe()).isEqualTo("Docker engine 20.10.24+dfsg1, API 1.41");

        EngineIdentity silent = EngineIdentity.of(JSON.readValue("{\"Version\":\"dev\"}", Version.class));
        assertThat(silent).isEqualTo(new EngineIdentity("", "dev", ""));
        assertThat(silent.podman()).isFalse();
    }

    @Test
    void dockerRefusesNothingThePodmanLaneSettingsAsk() {
        EngineIdentity docker = new EngineIdentity("Engine", "20.10.24+dfsg1", "1.41");
        assertThat(docker.refusal(List.of("runsc"), "local", true)).isEmpty();
    }

    @Test
    void podmanTakesTheDefaults() {
        assertThat(podman().refusal(List.of(), "json-file", false)).isEmpty();
        assertThat(podman().refusal(List.of(), "json-file", false)).isEmpty();
    }

    @Test
    void podmanRefusesEachSettingItCannotKeepNamingIt() {
        assertThat(podman().refusal(List.of("runsc"), "json-file", false))
                .hasValue("refusing to start: the engine is Podman Engine 4.3.1, API 1.41 (ADR 0078):"
                        + " sluice.container.runtimes lists runsc, but Podman's Docker-compatible API ignores a"
                        + " container's runtime: a dispatch that names one would run under Podman's default runtime,"
                        + " on the host's kernel. Leave the setting unset, or run the worker against Docker's engine"
                        + " with the runtime registered. See docs/operations.md, \"Engines\"");
        assertThat(podman().refusal(List.of(), "local", false))
                .hasValueSatisfying(refusal -> assertThat(refusal)
                        .contains("sluice.container.log-driver is local, which Podman does not offer through its"
                                + " Docker-compatible API; use json-file")
                        .doesNotContain("runtimes")
                        .doesNotContain("none-network"));
        assertThat(podman().refusal(List.of(), "json-file", true))
                .hasValueSatisfying(refusal -> assertThat(refusal)
                        .contains("sluice.container.none-network is bare")
                        .contains("use auto or docker"));
    }

    @Test
    void podmanNamesEveryFaultAtOnce() {
        Optional<String> refusal = podman().refusal(List.of("runsc", "kata"), "local", true);
        assertThat(refusal)
                .hasValueSatisfying(r -> assertThat(r)
                        .contains("sluice.container.runtimes lists runsc,kata")
                        .contains("; sluice.container.log-driver is local")
                        .contains("; sluice.container.none-network is bare"));
    }

    private static EngineIdentity podman() {
        return new EngineIdentity("Podman Engine", "4.3.1", "1.41");
    }

    /** The test defaults with another log driver, none network and runtimes. */
}
