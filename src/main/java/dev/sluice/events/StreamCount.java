package dev.sluice.events;

import dev.sluice.concurrent.SharedPool;

/**
 * The event streams open, in total and per tenant, within their bounds
 * ({@code sluice.events.max-subscribers} and
 * {@code max-subscribers-per-tenant}, ADR 0054): one tenant's streams cannot
 * take every slot from the others.
 */
final class StreamCount {

    private final SharedPool streams;

    StreamCount(int total, int perTenant) {
        this.streams = new SharedPool(total, perTenant);
    }

    /** Counts one more stream of {@code tenant}, or says which bound refuses it. */
    EventHub.Admission admit(String tenant) {
        return switch (streams.take(tenant, 1)) {
            case TAKEN -> EventHub.Admission.OPEN;
            case POOL_FULL -> EventHub.Admission.WORKER_FULL;
            case SHARE_FULL -> EventHub.Admission.TENANT_FULL;
        };
    }

    /** One stream of {@code tenant} ended. */
    void release(String tenant) {
        streams.give(tenant, 1);
    }
}
