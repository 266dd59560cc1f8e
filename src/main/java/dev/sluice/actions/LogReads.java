package dev.sluice.actions;

import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.SharedPool;
import dev.sluice.io.LogRange;
import dev.sluice.record.RequestRefused;

/**
 * The log range reads a worker serves at once, through either door
 * ({@code sluice.api.max-log-reads}, ADR 0054), and those of one tenant
 * ({@code max-log-reads-per-tenant}, ADR 0073), so one tenant's readers cannot
 * take every slot from another's. A read holds its slot from before the
 * runtime's log is first opened until its range is written or let go, so what
 * is in flight (a block and two margins per read, an engine connection, a
 * thread) stays bounded however many clients ask; past either bound a read is
 * refused at once, and nothing waits for a slot.
 */
@Singleton
public class LogReads {

    private final SharedPool slots;

    @Inject
    LogReads(ApiConfig config) {
        this(config.maxLogReads(), config.maxLogReadsPerTenant());
    }

    LogReads(int slots, int perTenant) {
        this.slots = new SharedPool(slots, perTenant);
    }

    /**
     * The range {@code read} opens for {@code tenant}, holding a slot until it is
     * written or closed; refused when the tenant's share or the worker's slots are taken.
     */
    LogRange open(String tenant, Supplier<LogRange> read) {
        slots.takeOrThrow(
                tenant,
                1,
                taken -> new RequestRefused(
                        RequestRefused.Reason.TOO_MANY_LOG_READS,
                        taken == SharedPool.Taken.SHARE_FULL
                                ? "this tenant has as many log reads in flight as"
                                        + " sluice.api.max-log-reads-per-tenant allows; try again later"
                                : "the worker is serving as many log reads as sluice.api.max-log-reads allows;"
                                        + " try again later"));
        try {
            return read.get().whenClosed(() -> slots.give(tenant, 1));
        } catch (RuntimeException e) {
            slots.give(tenant, 1);
            throw e;
        }
    }

    /** Slots {@code tenant} could take now. */
    long available(String tenant) {
        return slots.room(tenant);
    }
}
