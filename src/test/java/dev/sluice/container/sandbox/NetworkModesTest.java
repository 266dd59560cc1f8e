package dev.sluice.container.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** No allowed network may share a namespace with the engine's host or another container (ADR 0071). */
class NetworkModesTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "host",
                " HOST ",
                "Host",
                "container:sluice-worker",
                "container:4f2a9c1e7b3d",
                "CONTAINER:x",
                "ns:/proc/1/ns/net",
                "ns:/run/netns/other",
                "slirp4netns",
                "slirp4netns:allow_host_loopback=true",
                "pasta",
                "pasta:--map-gw"
            })
    void modesThatShareANamespaceAreRefused(String network) {
        assertThat(NetworkModes.shared(network)).as(network).isPresent();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "none",
                "bridge",
                "agents",
                "sluice-egress",
                "hostile",
                "my-host",
                "host-net",
                "containers",
                "nsx",
                "pastanet",
                "f47a314f2018be275fcf2cbbbde226a73b9f2b72a8db30b7819bf8eb6565422c"
            })
    void networksOfTheEngineGetANamespaceOfTheirOwn(String network) {
        assertThat(NetworkModes.shared(network)).as(network).isEmpty();
    }

    @Test
    void theRefusalNamesTheSettingAndEachSharedEntry() {
        String refusal = NetworkModes.refusal(
                        "sluice.dispatch.allowed-networks", List.of("none", "host", "agents", "container:db"))
                .orElseThrow();

        assertThat(refusal)
                .startsWith("refusing to start: sluice.dispatch.allowed-networks lists a network")
                .contains("\"host\" is the engine host's own network namespace")
                .contains("\"container:db\" is another container's network namespace")
                .doesNotContain("\"none\"")
                .doesNotContain("\"agents\"")
                .contains("ADR 0071");
        assertThat(NetworkModes.refusal("sluice.dispatch.allowed-networks", List.of("none", "agents")))
                .isEmpty();
    }
}
