package dev.sluice.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The last bytes of a stream, kept in a ring whatever sizes its chunks come in. */
class StreamEdgeTest {

    @Test
    void keepsTheLastBytesOfTheStreamInOrderWhateverTheChunks() {
        Random random = new Random(7);
        byte[] stream = new byte[20_000];
        random.nextBytes(stream);
        for (int keep : new int[] {1, 7, 64, 1000}) {
            StreamEdge edge = new StreamEdge();
            int at = 0;
            while (at < stream.length) {
                int count = Math.min(stream.length - at, random.nextInt(3 * keep) + 1);
                edge.append(at, stream, at, count, keep);
                at += count;
                int n = edge.before(at);
                assertThat(n).isEqualTo(Math.min(keep, at));
                byte[] kept = new byte[n];
                edge.copyTo(at, kept);
                assertThat(kept).isEqualTo(Arrays.copyOfRange(stream, at - n, at));
            }
            StreamEdge copy = edge.copy();
            edge.append(at, stream, 0, 3, keep); // the original goes on; the copy is its own
            assertThat(copy.before(at)).isEqualTo(keep);
        }
    }

    @Test
    void bytesAfterAGapReplaceWhatWasKeptAndOnlyTheOffsetItEndsAtGetsIt() {
        StreamEdge edge = new StreamEdge();
        byte[] text = "abcdefghij".getBytes();
        edge.append(0, text, 0, 10, 4);
        edge.append(50, text, 0, 2, 4);
        assertThat(edge.before(52)).isEqualTo(2);
        assertThat(edge.before(10)).isZero();
        byte[] kept = new byte[2];
        edge.copyTo(52, kept);
        assertThat(new String(kept)).isEqualTo("ab");
        // Keeping more later keeps what was held.
        edge.append(52, text, 2, 3, 8);
        byte[] more = new byte[5];
        edge.copyTo(55, more);
        assertThat(new String(more)).isEqualTo("abcde");
    }
}
