package dev.sluice.container.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The hand-off between an attach's reader and its processor (ADR 0045). */
class BlockHandoffTest {

    @Test
    void blocksArriveInOrderAndTheEndFollowsTheLastOne() throws Exception {
        BlockHandoff handoff = new BlockHandoff(4);
        for (int i = 0; i < 3; i++) {
            ByteBuffer b = handoff.empty(16);
            b.put((byte) i);
            handoff.hand(b, 1);
        }
        handoff.end("reset by peer");

        for (int i = 0; i < 3; i++) {
            BlockHandoff.Block block = handoff.next();
            assertThat(block.buffer().get(0)).isEqualTo((byte) i);
            handoff.done(block);
        }
        assertThat(handoff.next()).isNull();
        assertThat(handoff.failure()).isEqualTo("reset by peer");
    }

    @Test
    void anEndSaidWhileEveryPlaceIsFullIsSeenOnceTheBlocksAreTaken() throws Exception {
        BlockHandoff handoff = new BlockHandoff(1);
        handoff.hand(handoff.empty(16), 1);
        handoff.hand(ByteBuffer.allocate(16), 1); // the queue holds one more than the blocks in flight
        handoff.end(null); // cannot be queued: the reader must not wait to say it

        assertThat(handoff.next()).isNotNull();
        assertThat(handoff.next()).isNotNull();
        assertThat(handoff.next()).isNull();
        assertThat(handoff.failure()).isNull();
    }

    @Test
    void theReaderWaitsOnlyWhenEveryBlockIsInFlightAndGoesOnWhenOneIsProcessed() throws Exception {
        BlockHandoff handoff = new BlockHandoff(2);
        handoff.hand(handoff.empty(16), 16);
        handoff.hand(handoff.empty(16), 16);
        CompletableFuture<ByteBuffer> third = CompletableFuture.supplyAsync(() -> {
            try {
                return handoff.empty(16);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        BlockHandoff.Block first = handoff.next();
        assertThat(third).isNotDone();

        handoff.done(first);

        assertThat(third.get(10, TimeUnit.SECONDS)).isSameAs(first.buffer());
    }

    @Test
    void aProcessorThatHasGoneReleasesAWaitingReader() throws Exception {
        BlockHandoff handoff = new BlockHandoff(1);
        handoff.hand(handoff.empty(16), 16);
        CompletableFuture<ByteBuffer> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return handoff.empty(16);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        handoff.abandon();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isNull();
        assertThat(handoff.hand(ByteBuffer.allocate(16), 1)).isTrue(); // room for one more than in flight
        assertThat(handoff.hand(ByteBuffer.allocate(16), 1)).isFalse();
    }
}
