package dev.sluice.container.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sluice.container.engine.EngineIdentity;
import dev.sluice.container.sandbox.ContainerConfig.NoneNetwork;

class NoneNetworkChoiceTest {

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({
        // auto: bare only where the engine has the deadlock
        "AUTO, 20.10.24+dfsg1, true, false",
        "AUTO, 20.10.26, true, false",
        "AUTO, v20.10.24, true, false",
        "AUTO, 19.03.15, true, false",
        "AUTO, 20.10.27, false, false",
        "AUTO, 20.10.27+dfsg1, false, false",
        "AUTO, 23.0.0, false, false",
        "AUTO, 24.0.7, false, false",
        "AUTO, 27.3.1, false, false",
        "AUTO, v27.3.1, false, false",
        "AUTO, dev, false, false",
        "AUTO, '', false, false",
        // the setting overrides; docker on an engine with the deadlock is warned of
        "BARE, 27.3.1, true, false",
        "BARE, 20.10.24+dfsg1, true, false",
        "DOCKER, 27.3.1, false, false",
        "DOCKER, 20.10.24+dfsg1, false, true",
        "DOCKER, dev, false, false"
    })
    void theSettingOrElseTheEngineVersionChooses(NoneNetwork setting, String version, boolean bare, boolean warn) {
        NoneNetworkChoice.Choice choice = NoneNetworkChoice.choose(setting, version);

        assertThat(choice.bare()).isEqualTo(bare);
        assertThat(choice.warn()).isEqualTo(warn);
    }

    @Test
    void theLineSaysTheChoiceAndWhy() {
        assertThat(NoneNetworkChoice.choose(NoneNetwork.AUTO, "20.10.24+dfsg1").describe())
                .isEqualTo("containers of network none get a bare network namespace, with the worker's /etc/hosts:"
                        + " the engine is older than 20.10.27, whose network controller deadlocks when containers"
                        + " of its none network exit together (moby/moby#46661); sluice.container.none-network=auto"
                        + " (ADR 0047)");
        assertThat(NoneNetworkChoice.choose(NoneNetwork.AUTO, "27.3.1").describe())
                .isEqualTo("containers of network none get the engine's none network: the engine is 20.10.27 or"
                        + " later, without that network controller's deadlock; sluice.container.none-network=auto"
                        + " (ADR 0047)");
        assertThat(NoneNetworkChoice.choose(NoneNetwork.AUTO, "dev").describe())
                .isEqualTo("containers of network none get the engine's none network: the engine's version \"dev\""
                        + " is of no form the worker judges; sluice.container.none-network=auto (ADR 0047)");
        assertThat(NoneNetworkChoice.choose(NoneNetwork.BARE, "27.3.1").describe())
                .isEqualTo("containers of network none get a bare network namespace, with the worker's /etc/hosts,"
                        + " as sluice.container.none-network=bare says (ADR 0047)");
        assertThat(NoneNetworkChoice.choose(NoneNetwork.DOCKER, "20.10.24+dfsg1")
                        .describe())
                .isEqualTo("containers of network none get the engine's none network, as"
                        + " sluice.container.none-network=docker says, though this engine can deadlock its network"
                        + " controller when containers exit together (moby/moby#46661, fixed in 20.10.27); auto or"
                        + " bare keeps them out of it (ADR 0047)");
    }

    /** The engine is asked only under auto, and the first answer holds: containers of one worker never differ. */
    @Test
    void autoSettlesOnceAndTheSettingNeedsNoEngine() {
        NoneNetworkChoice auto = new NoneNetworkChoice(NoneNetwork.AUTO, null);
        assertThat(auto.settle(docker("20.10.24+dfsg1")).bare()).isTrue();
        assertThat(auto.settle(docker("27.3.1")).bare()).isTrue();
        assertThat(auto.bare()).isTrue();

        NoneNetworkChoice later = new NoneNetworkChoice(NoneNetwork.AUTO, null);
        assertThat(later.settle(docker("27.3.1")).bare()).isFalse();
        assertThat(later.bare()).isFalse();

        assertThat(new NoneNetworkChoice(NoneNetwork.BARE, null).bare()).isTrue();
        assertThat(new NoneNetworkChoice(NoneNetwork.DOCKER, null).bare()).isFalse();
    }

    /** Podman's compatible API gets its own none network under auto, whatever its version says of Docker's lines. */
    @Test
    void podmanUnderAutoGetsItsOwnNoneNetwork() {
        NoneNetworkChoice.Choice choice =
                NoneNetworkChoice.choose(NoneNetwork.AUTO, new EngineIdentity("Podman Engine", "4.3.1", "1.41"));
        assertThat(choice.bare()).isFalse();
        assertThat(choice.describe())
                .isEqualTo("containers of network none get the engine's none network: the engine is Podman, which"
                        + " has none of Docker's network controller; sluice.container.none-network=auto (ADR 0078)");
        assertThat(NoneNetworkChoice.choose(NoneNetwork.AUTO, docker("4.3.1")).bare())
                .as("a Docker engine of that version")
                .isTrue();
    }

    private static EngineIdentity docker(String version) {
        return new EngineIdentity("Engine", version, "1.41");
    }
}
