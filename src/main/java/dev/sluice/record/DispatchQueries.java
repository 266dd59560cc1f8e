package dev.sluice.record;

import dev.sluice.store.StoreException;

/** Reads dispatch records for the API: one by id, or a page of them. */
public class DispatchQueries {

    private final DispatchStore store;

    public DispatchQueries(DispatchStore store) {
        this.store = store;
    }

    public Dispatch get(String id) {
        try {
            return store.find(id).orElseThrow(() -> RequestRefused.notFound(id));
        } catch (StoreException e) {
            throw RequestRefused.storeUnavailable();
        }
    }

    /** The digest's JSON (docs/api.md, section 7.6): at most 512 bytes. */
    public byte[] digest(String id) {
        try {
            return store.digest(id).orElseThrow(() -> RequestRefused.notFound(id));
        } catch (StoreException e) {
            throw RequestRefused.storeUnavailable();
        }
    }

    /** A page of one tenant's dispatches, or of every tenant's when {@code tenant} is null. */
    public DispatchStore.Page list(String tenant, Dispatch.Status status, int limit, String after) {
        try {
            return store.list(tenant, status, limit, after);
        } catch (IllegalArgumentException e) {
            throw new RequestRefused(
                    RequestRefused.Reason.INVALID_CURSOR, "after must be the id of a dispatch from a previous page");
        } catch (StoreException e) {
            throw RequestRefused.storeUnavailable();
        }
    }
}
