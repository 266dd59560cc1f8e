package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.sluice.record.RequestRefused;
import dev.sluice.worker.PeerReads;

/**
 * Reads relayed to other replicas, within the worker's bound and each
 * tenant's share (ADR 0073): a served answer holds its slot until it is
 * closed, once however often; an answer that was not served holds none.
 */
class RelayedReadsTest {

    private final RelayedReads relayed = new RelayedReads(3, 2);
    private final AtomicInteger connectionsClosed = new AtomicInteger();

    @Test
    void aServedAnswerHoldsItsSlotUntilClosedAndOneTenantCannotTakeThemAll() throws Exception {
        PeerReads.Answer.Served first = (PeerReads.Answer.Served) relayed.read("noisy", this::served);
        relayed.read("noisy", this::served);

        assertThatThrownBy(() -> relayed.read("noisy", this::served))
                .isInstanceOfSatisfying(RequestRefused.class, e -> {
                    assertThat(e.reason()).isEqualTo(RequestRefused.Reason.TOO_MANY_RELAYED_READS);
                    assertThat(e.getMessage()).contains("sluice.api.max-relayed-reads-per-tenant");
                });
        relayed.read("quiet", this::served);
        assertThatThrownBy(() -> relayed.read("quiet", this::served))
                .isInstanceOfSatisfying(
                        RequestRefused.class,
                        e -> assertThat(e.getMessage()).contains("sluice.api.max-relayed-reads "));

        first.close();
        first.close();
        assertThat(connectionsClosed.get()).isEqualTo(2); // the owner's connection is closed each time asked
        assertThat(relayed.available("noisy")).isEqualTo(1);
    }

    @Test
    void anAnswerNotServedHoldsNoSlot() {
        PeerReads.Answer unreachable = relayed.read("noisy", () -> new PeerReads.Answer.Unreachable("timeout"));
        PeerReads.Answer refused = relayed.read("noisy", () -> new PeerReads.Answer.Refused("not live"));

        assertThat(unreachable).isInstanceOf(PeerReads.Answer.Unreachable.class);
        assertThat(refused).isInstanceOf(PeerReads.Answer.Refused.class);
        assertThat(relayed.available("noisy")).isEqualTo(2);
        assertThatThrownBy(() -> relayed.read("noisy", () -> {
                    throw new IllegalStateException("failed");
                }))
                .isInstanceOf(IllegalStateException.class);
        assertThat(relayed.available("noisy")).isEqualTo(2);
    }

    private PeerReads.Answer served() {
        return new PeerReads.Answer.Served(
                200, Map.of(), new ByteArrayInputStream(new byte[0]), connectionsClosed::incrementAndGet);
    }
}
