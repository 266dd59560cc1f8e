package dev.sluice.actions;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.logs.LogRange;
import dev.sluice.record.RequestRefused;

/**
 * The log range reads a worker serves at once, through either door
 * ({@code sluice.api.max-log-reads}, ADR 0054). A read holds its slot from
 * before the runtime's log is first opened until its range is written or let
 * go, so what is in flight (a block and two margins per read, an engine
 * connection, a thread) stays bounded however many clients ask; past the
 * bound a read is refused at once, and nothing waits for a slot.
 */
@Singleton
public class LogReads {

    private final Semaphore slots;

    @Inject
    LogReads(ApiConfig config) {
        this(config.maxLogReads());
    }

    LogReads(int slots) {
        this.slots = new Semaphore(slots);
    }

    /** The range {@code read} opens, holding a slot until it is written or closed; refused when none is free. */
    LogRange open(Supplier<LogRange> read) {
        if (!slots.tryAcquire()) {
            throw new RequestRefused(
                    RequestRefused.Reason.TOO_MANY_LOG_READS,
                    "the worker is serving as many log reads as sluice.api.max-log-reads allows; try again later");
        }
        try {
            return read.get().whenClosed(slots::release);
        } catch (RuntimeException e) {
            slots.release();
            throw e;
        }
    }

    /** Slots free now. */
    int available() {
        return slots.availablePermits();
    }
}
