package dev.sluice.record;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.sluice.store.Jdbc;

/**
 * The dispatches every worker on the store has queued and none has started,
 * counted per tenant with the oldest one's acceptance: what an autoscaler and
 * an operator read to see the work waiting across replicas. A tenant is one of
 * those the tokens name, so the rows are as few as the tenants configured.
 */
public class WaitingDispatches {

    /** One tenant's waiting dispatches: how many, and when the oldest was accepted. */
    public record Tenant(String tenant, long count, Instant oldest) {}

    private final Jdbc jdbc;

    public WaitingDispatches(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The tenants with at least one queued dispatch; the database cancels the
     * count once it has run for {@code timeout}. The queue is bounded by its
     * limits and the {@code (status, seq)} index holds its rows together, so
     * the count reads the waiting rows only, however many records are kept.
     */
    public List<Tenant> count(Duration timeout) {
        return jdbc.bounded(timeout)
                .query(
                        "SELECT tenant, COUNT(*), MIN(created_at) FROM dispatches WHERE status = ? GROUP BY tenant",
                        row -> new Tenant(row.string(1), row.number(2), row.instant(3)),
                        Dispatch.Status.QUEUED.wire());
    }
}
