package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EngineVersionsTest {

    @ParameterizedTest
    @CsvSource({
        "20.10.24+dfsg1, true",
        "20.10.0, true",
        "20.10.26, true",
        "20.10.27, false",
        "20.10.27+dfsg1, false",
        "23.0.0, false",
        "28.3.2, false",
        "19.03.15, false",
        "'', false",
        "dev, false"
    })
    void onlyA2010BeforeTheFixIsAccused(String version, boolean affected) {
        assertThat(EngineVersions.hasNetworkControllerDeadlock(version)).isEqualTo(affected);
    }
}
