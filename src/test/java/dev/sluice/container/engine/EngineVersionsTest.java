package dev.sluice.container.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;

import dev.sluice.container.engine.EngineVersions.NetworkController;

class EngineVersionsTest {

    @ParameterizedTest
    @CsvSource({
        // Debian's packages, this machine's among them
        "20.10.24+dfsg1, DEADLOCKS",
        "20.10.26+dfsg1, DEADLOCKS",
        "20.10.27+dfsg1, FIXED",
        // the 20.10 line on either side of the backport (moby/libnetwork#2679)
        "20.10.0, DEADLOCKS",
        "20.10.9, DEADLOCKS",
        "20.10.26, DEADLOCKS",
        "20.10.27, FIXED",
        "20.10.100, FIXED",
        // every later line has the fix (moby/moby#42545, in 23.0)
        "23.0.0, FIXED",
        "23.0, FIXED",
        "24.0.7, FIXED",
        "27.3.1, FIXED",
        "28.0.0-rc.1, FIXED",
        "100.0.0, FIXED",
        // older lines have the same locks, without the fix
        "19.03.15, DEADLOCKS",
        "18.09.9, DEADLOCKS",
        "17.03.2-ce, DEADLOCKS",
        "1.13.1, DEADLOCKS",
        "20.9.99, DEADLOCKS",
        // with a v, or spaces around
        "v24.0.7, FIXED",
        "v20.10.24, DEADLOCKS",
        "' 27.3.1 ', FIXED",
        // nothing the worker can read
        "'', UNKNOWN",
        "dev, UNKNOWN",
        "master-dockerproject-2024-01-01, UNKNOWN",
        "24, UNKNOWN",
        "24.x.1, UNKNOWN",
        "20.10.24.1, UNKNOWN",
        "99999999999.0.0, UNKNOWN"
    })
    void aVersionBefore20_10_27IsJudgedToDeadlock(String version, NetworkController judged) {
        assertThat(EngineVersions.networkController(version)).isEqualTo(judged);
        assertThat(EngineVersions.hasNetworkControllerDeadlock(version))
                .isEqualTo(judged == NetworkController.DEADLOCKS);
    }

    @ParameterizedTest
    @NullSource
    void noVersionIsUnknown(String version) {
        assertThat(EngineVersions.networkController(version)).isEqualTo(NetworkController.UNKNOWN);
    }
}
