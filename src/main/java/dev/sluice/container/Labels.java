package dev.sluice.container;

/** Labels on everything the worker creates; reconciliation and the reaper find containers by them. */
public final class Labels {

    public static final String PREFIX = "dev.sluice.";
    public static final String DISPATCH_ID = PREFIX + "dispatch-id";
    public static final String WORKER_ID = PREFIX + "worker-id";

    private Labels() {}
}
