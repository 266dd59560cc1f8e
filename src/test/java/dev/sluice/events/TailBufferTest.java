package dev.sluice.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.output.SecretMasker;

/** One subscriber's bounded share of a stream: what it is shown, what it is told it missed, and masking. */
class TailBufferTest {

    private static final SecretMasker NONE = SecretMasker.NONE;

    @Test
    void whatFitsIsShownInOrderWithItsStreamOffset() {
        TailBuffer buffer = new TailBuffer(64);
        offer(buffer, 100, "hello ");
        offer(buffer, 106, "world\n");

        TailBuffer.Taken taken = buffer.take(1000, false, NONE);
        assertThat(taken.offset()).isEqualTo(100);
        assertThat(taken.text()).isEqualTo("hello world\n");
        assertThat(taken.bytes()).isEqualTo(12);
        assertThat(taken.gapBytes()).isZero();
        assertThat(buffer.pending()).isFalse();
        assertThat(buffer.take(1000, false, NONE)).isEqualTo(TailBuffer.Taken.NOTHING);
    }

    @Test
    void theBudgetBoundsAWindowAndTheRestWaits() {
        TailBuffer buffer = new TailBuffer(64);
        offer(buffer, 0, "0123456789");
        assertThat(buffer.take(4, false, NONE).text()).isEqualTo("0123");
        TailBuffer.Taken rest = buffer.take(100, false, NONE);
        assertThat(rest.offset()).isEqualTo(4);
        assertThat(rest.text()).isEqualTo("456789");
    }

    @Test
    void whatDoesNotFitIsCountedAsAGapAfterWhatWasHeldAndNothingIsKeptUntilThen() {
        TailBuffer buffer = new TailBuffer(8);
        offer(buffer, 0, "abcdef"); // held
        offer(buffer, 6, "ghijkl"); // "gh" fits, "ijkl" does not
        offer(buffer, 12, "mn"); // room again after a take, but the gap comes first: counted
        TailBuffer.Taken first = buffer.take(3, false, NONE);
        assertThat(first.text()).isEqualTo("abc");
        assertThat(first.gapBytes()).isZero();
        offer(buffer, 14, "op"); // still counted: the gap has not been shown

        TailBuffer.Taken second = buffer.take(100, false, NONE);
        assertThat(second.offset()).isEqualTo(3);
        assertThat(second.text()).isEqualTo("defgh");
        assertThat(second.gapOffset()).isEqualTo(8);
        assertThat(second.gapBytes()).isEqualTo(8); // ijkl, mn, op: every byte accounted for

        offer(buffer, 16, "qr"); // after the gap was shown, output is kept again
        TailBuffer.Taken third = buffer.take(100, false, NONE);
        assertThat(third.offset()).isEqualTo(16);
        assertThat(third.text()).isEqualTo("qr");
    }

    @Test
    void atTheEndWhatTheBudgetLeavesIsMissedNotHeld() {
        TailBuffer buffer = new TailBuffer(64);
        offer(buffer, 0, "0123456789");
        TailBuffer.Taken last = buffer.take(4, true, NONE);
        assertThat(last.text()).isEqualTo("0123");
        assertThat(last.gapOffset()).isEqualTo(4);
        assertThat(last.gapBytes()).isEqualTo(6);
        assertThat(buffer.pending()).isFalse();
    }

    @Test
    void aCharacterCutByAChunkWaitsForItsLastBytes() {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8); // three bytes
        TailBuffer buffer = new TailBuffer(64);
        buffer.offer(0, new byte[] {'a', euro[0], euro[1]}, 0, 3);
        TailBuffer.Taken first = buffer.take(100, false, NONE);
        assertThat(first.text()).isEqualTo("a");
        buffer.offer(3, new byte[] {euro[2], 'b'}, 0, 2);
        TailBuffer.Taken second = buffer.take(100, false, NONE);
        assertThat(second.offset()).isEqualTo(1);
        assertThat(second.text()).isEqualTo("€b");
        // And a budget never cuts one either.
        buffer.offer(5, euro, 0, 3);
        assertThat(buffer.take(2, false, NONE)).isEqualTo(TailBuffer.Taken.NOTHING);
        assertThat(buffer.take(3, false, NONE).text()).isEqualTo("€");
    }

    @Test
    void secretsAreMaskedAlsoWhenAWindowCutsThem() {
        SecretMasker masker = new SecretMasker(List.of("hunter2"), 8);
        TailBuffer buffer = new TailBuffer(64);
        offer(buffer, 0, "pw=hunter2 and pw=hun");
        TailBuffer.Taken first = buffer.take(100, false, masker);
        assertThat(first.text()).isEqualTo("pw=******* and pw=***");
        offer(buffer, 21, "ter2!");
        TailBuffer.Taken second = buffer.take(100, true, masker);
        assertThat(second.text()).isEqualTo("****!");
    }

    @Test
    void aWindowIsMaskedKnowingWhatCameBeforeItSoTextThatOnlyEndsLikeASecretIsShownAsWritten() {
        SecretMasker masker = new SecretMasker(List.of("hunter2"), 8);
        TailBuffer buffer = new TailBuffer(64);
        offer(buffer, 0, "pw=hunter2\n");
        assertThat(buffer.take(100, false, masker).text()).isEqualTo("pw=*******\n");
        // "2" ends the secret, but the line before shows no secret runs into it.
        offer(buffer, 11, "2 more\nr2 too\n");
        assertThat(buffer.take(100, false, masker).text()).isEqualTo("2 more\nr2 too\n");
        // A secret across two windows is found whole in the second, and its first part was masked when sent.
        offer(buffer, 25, "again hunt");
        assertThat(buffer.take(100, false, masker).text()).isEqualTo("again ****");
        offer(buffer, 35, "er2, then 2");
        assertThat(buffer.take(100, false, masker).text()).isEqualTo("***, then 2");
    }

    @Test
    void afterAGapTheStartOfAWindowIsMaskedByItsEdgeAlone() {
        SecretMasker masker = new SecretMasker(List.of("hunter2"), 8);
        TailBuffer buffer = new TailBuffer(8);
        offer(buffer, 0, "a b c d ");
        offer(buffer, 8, "hunter2"); // missed: the buffer is full
        assertThat(buffer.take(100, false, masker).gapBytes()).isEqualTo(7);
        offer(buffer, 15, "2 ok");
        assertThat(buffer.take(100, false, masker).text()).isEqualTo("* ok");
    }

    @Test
    void aSubscriberStartingMidStreamIsGivenTheBytesBefore() {
        SecretMasker masker = new SecretMasker(List.of("hunter2"), 8);
        StreamEdge edge = new StreamEdge();
        byte[] earlier = "pw=hunter2\n".getBytes(StandardCharsets.UTF_8);
        edge.append(0, earlier, 0, earlier.length, masker.margin());
        TailBuffer joined = new TailBuffer(64);
        joined.startAfter(edge.copy());
        offer(joined, 11, "2 more");
        assertThat(joined.take(100, false, masker).text()).isEqualTo("2 more");

        TailBuffer unaware = new TailBuffer(64);
        offer(unaware, 11, "2 more");
        assertThat(unaware.take(100, false, masker).text()).isEqualTo("* more");
    }

    @Test
    void anIdleSubscriberHoldsNoBuffer() {
        TailBuffer buffer = new TailBuffer(1 << 20);
        offer(buffer, 0, "x");
        buffer.take(100, false, NONE);
        assertThat(buffer.pending()).isFalse();
        assertThat(TailBuffer.wholeCharacters(new byte[] {'a', (byte) 0xc3}, 2)).isEqualTo(1);
        assertThat(TailBuffer.wholeCharacters(new byte[] {'a', (byte) 0xc3, (byte) 0xa9}, 3))
                .isEqualTo(3);
    }

    private static void offer(TailBuffer buffer, long at, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        buffer.offer(at, bytes, 0, bytes.length);
    }
}
