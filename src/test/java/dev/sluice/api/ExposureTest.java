package dev.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.ApiSettings;

class ExposureTest {

    private static final Optional<List<String>> NONE = Optional.empty();

    @Test
    void everyAddressWithNoTokenIsRefusedUnlessAnonymousIsAllowed() {
        for (String host : List.of("0.0.0.0", "::", "[::]", "10.0.0.5", "192.168.1.2", "worker.internal", "")) {
            assertThat(Exposure.of(host, new ApiSettings(NONE, NONE, false)))
                    .as(host)
                    .isEqualTo(Exposure.REFUSED);
            assertThat(Exposure.of(host, new ApiSettings(NONE, NONE, true)))
                    .as(host)
                    .isEqualTo(Exposure.ANONYMOUS);
        }
    }

    @Test
    void loopbackNeedsNoToken() {
        for (String host : List.of("127.0.0.1", "127.0.0.2", "localhost", "LOCALHOST", "::1", "[::1]", " 127.0.0.1 ")) {
            assertThat(Exposure.of(host, new ApiSettings(NONE, NONE, false)))
                    .as(host)
                    .isEqualTo(Exposure.LOOPBACK);
        }
    }

    /** Names other than localhost are never looked up: what they resolve to can change after the check. */
    @Test
    void namesAndOddSpellingsAreBeyondLoopback() {
        for (String host :
                List.of("127.1", "0x7f.0.0.1", "localhost.", "my-localhost", "127.0.0.1.nip.io", "0:0:0:0:0:0:0:2")) {
            assertThat(Exposure.loopback(host)).as(host).isFalse();
        }
        assertThat(Exposure.loopback("0:0:0:0:0:0:0:1")).isTrue();
    }

    @Test
    void tokensOrOperatorTokensCloseTheApiOnAnyAddress() {
        Optional<List<String>> one = Optional.of(List.of("team-a:s3cret-token-value"));
        assertThat(Exposure.of("0.0.0.0", new ApiSettings(one, NONE, false))).isEqualTo(Exposure.TOKENS);
        assertThat(Exposure.of("0.0.0.0", new ApiSettings(NONE, one, false))).isEqualTo(Exposure.TOKENS);
        assertThat(Exposure.of("0.0.0.0", new ApiSettings(one, NONE, true))).isEqualTo(Exposure.TOKENS);
        assertThat(Exposure.of("127.0.0.1", new ApiSettings(one, NONE, false))).isEqualTo(Exposure.TOKENS);
    }

    @Test
    void blankEntriesNameNoToken() {
        Optional<List<String>> blank = Optional.of(List.of(" ", ""));
        assertThat(Exposure.of("0.0.0.0", new ApiSettings(blank, blank, false))).isEqualTo(Exposure.REFUSED);
    }

    @Test
    void theRefusalNamesTheThreeWaysOut() {
        assertThat(Exposure.REFUSAL.formatted("0.0.0.0"))
                .contains("0.0.0.0")
                .contains("SLUICE_API_TOKENS")
                .contains("QUARKUS_HTTP_HOST=127.0.0.1")
                .contains("SLUICE_API_ANONYMOUS=true");
    }
}
