package dev.sluice.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import dev.sluice.record.DispatchResult;
import dev.sluice.record.StoredResult;
import dev.sluice.store.StoredBody;

/** The offset arithmetic of logs that lost their beginning (ADR 0032). */
class AvailableFromTest {

    @Test
    void theMissingBytesAreTheOldestOnes() {
        DispatchResult.AvailableFrom from = DispatchResult.AvailableFrom.of(4_000_000, 15, 1_048_500, 15);
        assertThat(from).isEqualTo(new DispatchResult.AvailableFrom(2_951_500, 0));
        assertThat(from.forStream(true)).isEqualTo(2_951_500);
        assertThat(from.forStream(false)).isZero();
        assertThat(from.whole()).isFalse();
    }

    @Test
    void aLogHoldingEverythingBeginsAtZero() {
        assertThat(DispatchResult.AvailableFrom.of(100, 7, 100, 7).whole()).isTrue();
        assertThat(DispatchResult.AvailableFrom.of(0, 0, 0, 0)).isEqualTo(DispatchResult.AvailableFrom.WHOLE);
    }

    @Test
    void aLogLongerThanWhatWasWrittenLostNothing() {
        // json-file stores each byte that is not UTF-8 as U+FFFD, three bytes.
        assertThat(DispatchResult.AvailableFrom.of(10, 10, 30, 12)).isEqualTo(DispatchResult.AvailableFrom.WHOLE);
    }

    @Test
    void theStoredResultGivesItWithoutBeingBuilt() {
        String json = "{\"dispatchId\":\"d\",\"stdout\":\"{\\\"logs\\\":{\\\"availableFrom\\\":{\\\"stdout\\\":9}}}\","
                + "\"stdoutOverflow\":{\"originalBytes\":5},\"logs\":{\"stdout\":\"/a\",\"stderr\":\"/b\","
                + "\"possiblyRotated\":true,\"recovered\":false,\"availableFrom\":{\"stdout\":2951500,\"stderr\":0}},"
                + "\"metadata\":{\"logs\":{\"availableFrom\":{\"stdout\":1,\"stderr\":1}}}}";
        assertThat(DispatchLogs.stored(stored(json))).isEqualTo(new DispatchResult.AvailableFrom(2_951_500, 0));
    }

    @Test
    void resultsThatCannotTellGiveNothing() {
        assertThat(DispatchLogs.stored(stored("{\"logs\":{\"possiblyRotated\":true,\"availableFrom\":null}}")))
                .isNull();
        assertThat(DispatchLogs.stored(stored("{\"logs\":{\"stdout\":\"/a\",\"possiblyRotated\":false}}")))
                .isNull();
        assertThat(DispatchLogs.stored(stored("{\"status\":\"succeeded\"}"))).isNull();
    }

    private static StoredResult stored(String json) {
        return new StoredResult(StoredBody.of(json.getBytes(StandardCharsets.UTF_8)));
    }
}
