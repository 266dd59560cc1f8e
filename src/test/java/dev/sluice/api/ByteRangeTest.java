package dev.sluice.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.sluice.actions.ProblemException;

/** The Range header's one range, within a representation of known size (RFC 9110, section 14). */
class ByteRangeTest {

    @Test
    void theThreeFormsOfOneRange() {
        assertThat(ByteRange.of("bytes=0-9", 100)).contains(new ByteRange(0, 9));
        assertThat(ByteRange.of("bytes=90-", 100)).contains(new ByteRange(90, 99));
        assertThat(ByteRange.of("bytes=-10", 100)).contains(new ByteRange(90, 99));
        assertThat(ByteRange.of("bytes=50-500", 100)).contains(new ByteRange(50, 99)); // the end is clipped
        assertThat(ByteRange.of("bytes=-500", 100)).contains(new ByteRange(0, 99));
        assertThat(new ByteRange(5, 9).contentRange(100)).isEqualTo("bytes 5-9/100");
        assertThat(new ByteRange(5, 9).length()).isEqualTo(5);
    }

    @Test
    void whatItDoesNotServeIsIgnoredAndTheWholeIsSent() {
        for (String header : new String[] {
            null,
            "",
            "items=0-1",
            "bytes=0-1,5-6",
            "bytes=5-1",
            "bytes=-",
            "bytes=a-5",
            "bytes=1-b",
            "bytes=+1-5",
            "bytes=99999999999999999999-"
        }) {
            assertThat(ByteRange.of(header, 100)).as(String.valueOf(header)).isEqualTo(Optional.empty());
        }
    }

    @Test
    void aRangeStartingPastTheEndIs416WithTheSize() {
        for (String header : new String[] {"bytes=100-", "bytes=100-200", "bytes=-0"}) {
            assertThatThrownBy(() -> ByteRange.of(header, 100)).isInstanceOfSatisfying(ProblemException.class, e -> {
                assertThat(e.problem().status()).isEqualTo(416);
                assertThat(e.headers()).containsEntry("Content-Range", "bytes */100");
            });
        }
        assertThatThrownBy(() -> ByteRange.of("bytes=-5", 0)).isInstanceOf(ProblemException.class);
    }
}
