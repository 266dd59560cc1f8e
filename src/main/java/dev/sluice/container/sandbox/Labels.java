package dev.sluice.container.sandbox;

/** Labels on everything the worker creates; reconciliation and the reaper find containers by them. */
public final class Labels {

    public static final String PREFIX = "dev.sluice.";
    public static final String DISPATCH_ID = PREFIX + "dispatch-id";
    public static final String WORKER_ID = PREFIX + "worker-id";
    /** The tenant the dispatch belongs to (ADR 0052), for an operator's {@code docker ps --filter}. */
    public static final String TENANT = PREFIX + "tenant";
    /**
     * The store that holds the dispatch's record. Workers on one engine with
     * different stores (two deployments, a developer's worker beside a test
     * run) must never take each other's containers for orphans.
     */
    public static final String STORE_ID = PREFIX + "store-id";

    private Labels() {}
}
