package dev.sluice.events;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The event streams open, in total and per tenant, within their bounds
 * ({@code sluice.events.max-subscribers} and
 * {@code max-subscribers-per-tenant}, ADR 0054): one tenant's streams cannot
 * take every slot from the others.
 */
final class StreamCount {

    private final int total;
    private final int perTenant;
    private final AtomicInteger open = new AtomicInteger();
    private final Map<String, Integer> byTenant = new ConcurrentHashMap<>();

    StreamCount(int total, int perTenant) {
        this.total = total;
        this.perTenant = perTenant;
    }

    /** Counts one more stream of {@code tenant}, or says which bound refuses it. */
    EventHub.Admission admit(String tenant) {
        if (open.incrementAndGet() > total) {
            open.decrementAndGet();
            return EventHub.Admission.WORKER_FULL;
        }
        boolean[] admitted = {false};
        byTenant.compute(tenant, (t, n) -> {
            int now = n == null ? 0 : n;
            admitted[0] = now < perTenant;
            return admitted[0] ? now + 1 : n;
        });
        if (!admitted[0]) {
            open.decrementAndGet();
            return EventHub.Admission.TENANT_FULL;
        }
        return EventHub.Admission.OPEN;
    }

    /** One stream of {@code tenant} ended. */
    void release(String tenant) {
        byTenant.computeIfPresent(tenant, (t, n) -> n <= 1 ? null : n - 1);
        open.decrementAndGet();
    }
}
