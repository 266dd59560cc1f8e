package dev.sluice.actions;

import java.io.Closeable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.sluice.concurrent.SharedPool;
import dev.sluice.record.RequestRefused;
import dev.sluice.worker.PeerReads;

/**
 * The reads relayed at once to the replicas running their dispatches (ADR
 * 0065), every tenant's and each tenant's ({@code sluice.api.max-relayed-reads},
 * {@code max-relayed-reads-per-tenant}, ADR 0073): each holds a connection to
 * the other replica, and an event stream a thread here, from its request
 * until its answer is closed. Past either bound a read is refused at once.
 */
final class RelayedReads {

    private final SharedPool slots;

    RelayedReads(int slots, int perTenant) {
        this.slots = new SharedPool(slots, perTenant);
    }

    /**
     * The answer of {@code read}, made for {@code tenant} within its share: an
     * answer served holds its slot until it is closed; any other gives it back at once.
     */
    PeerReads.Answer read(String tenant, Supplier<PeerReads.Answer> read) {
        slots.takeOrThrow(
                tenant,
                1,
                taken -> new RequestRefused(
                        RequestRefused.Reason.TOO_MANY_RELAYED_READS,
                        taken == SharedPool.Taken.SHARE_FULL
                                ? "this tenant has as many reads relayed to other replicas as"
                                        + " sluice.api.max-relayed-reads-per-tenant allows; try again later"
                                : "the worker relays as many reads to other replicas as"
                                        + " sluice.api.max-relayed-reads allows; try again later"));
        AtomicBoolean given = new AtomicBoolean();
        Runnable giveBack = () -> {
            if (given.compareAndSet(false, true)) {
                slots.give(tenant, 1);
            }
        };
        PeerReads.Answer answer;
        try {
            answer = read.get();
        } catch (RuntimeException e) {
            giveBack.run();
            throw e;
        }
        if (!(answer instanceof PeerReads.Answer.Served served)) {
            giveBack.run();
            return answer;
        }
        Closeable connection = () -> {
            try {
                served.close();
            } finally {
                giveBack.run();
            }
        };
        return new PeerReads.Answer.Served(served.status(), served.headers(), served.body(), connection);
    }

    /** Slots {@code tenant} could take now. */
    long available(String tenant) {
        return slots.room(tenant);
    }
}
