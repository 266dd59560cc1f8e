package dev.sluice.workspace;

import java.util.HashMap;
import java.util.Map;

import dev.sluice.concurrent.SharedPool;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.RequestRefused;

/**
 * The bytes of the workspaces kept on the worker's disk until their
 * dispatches end, in all and per tenant ({@code sluice.workspace.max-kept-bytes},
 * {@code max-kept-bytes-per-tenant}, ADR 0073): a tenant whose queued
 * dispatches keep its share is refused another workspace with
 * {@code 429 workspaces-full}, while other tenants' are still taken. A
 * workspace is counted from its check at intake, by the size of its tar,
 * until its dispatch ends; those found at start are counted again.
 */
final class KeptBytes {

    /** Bytes counted for one tenant's workspace, not yet given back. */
    record Reservation(String tenant, long bytes) {}

    private final SharedPool bytes;
    private final Map<String, Reservation> byKey = new HashMap<>();

    KeptBytes(long total, long perTenant) {
        this.bytes = new SharedPool(total, perTenant);
    }

    /** Counts a checked workspace of {@code size} bytes for {@code tenant}, or refuses it. */
    Reservation reserve(String tenant, long size) {
        bytes.takeOrThrow(
                tenant,
                size,
                taken -> new RequestRefused(
                        RequestRefused.Reason.WORKSPACES_FULL,
                        taken == SharedPool.Taken.SHARE_FULL
                                ? "this tenant's queued dispatches keep as many workspace bytes as"
                                        + " sluice.workspace.max-kept-bytes-per-tenant allows; try again once some"
                                        + " have run"
                                : "the worker keeps as many workspace bytes as sluice.workspace.max-kept-bytes"
                                        + " allows; try again once some dispatches have run"));
        return new Reservation(tenant, size);
    }

    /** Gives back a reservation whose workspace was not kept (a refused or replayed request). */
    void release(Reservation reservation) {
        bytes.give(reservation.tenant(), reservation.bytes());
    }

    /** The reservation is now the workspace kept for the dispatch {@code key}, until it ends. */
    synchronized void kept(String key, Reservation reservation) {
        Reservation before = byKey.put(key, reservation);
        if (before != null) {
            release(before);
        }
    }

    /** The dispatch {@code key} ended: its workspace's bytes are free. */
    synchronized void ended(String key) {
        Reservation kept = byKey.remove(key);
        if (kept != null) {
            release(kept);
        }
    }

    /** A workspace found kept at start, for a dispatch that has not ended: counted, whatever the bounds. */
    synchronized void found(String key, long size) {
        String tenant = DispatchKey.tenantOf(key);
        bytes.add(tenant, size);
        Reservation before = byKey.put(key, new Reservation(tenant, size));
        if (before != null) {
            release(before);
        }
    }

    /** Bytes {@code tenant} holds now. */
    long held(String tenant) {
        return bytes.held(tenant);
    }
}
