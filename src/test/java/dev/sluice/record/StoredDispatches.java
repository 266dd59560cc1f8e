package dev.sluice.record;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.sluice.output.Overflow;
import dev.sluice.output.StreamDigest;
import dev.sluice.output.Utf8Text;
import dev.sluice.report.ReportStatus;
import dev.sluice.store.Jdbc;
import dev.sluice.store.ResultBodies;
import dev.sluice.testsupport.StoreFixtures;
import dev.sluice.testsupport.TestStores;

/**
 * Dispatch records written straight into a migrated store, for tests of what
 * reads them (callback delivery, reaping) without a worker around them.
 */
public final class StoredDispatches {

    /** An outbox that queues nothing. */
    public static final Outbox NO_OUTBOX = (tx, id, tenant, url, finishedAt) -> {};

    private final DispatchStore store;
    private final DispatchTransitions transitions;
    private final Outbox outbox;

    /** Over an embedded store: result bodies in files, as the worker keeps them there. */
    public StoredDispatches(Jdbc jdbc, Outbox outbox) {
        this(jdbc, outbox, TestStores.resultFiles(jdbc));
    }

    public StoredDispatches(Jdbc jdbc, Outbox outbox, ResultBodies bodies) {
        this.store = new DispatchStore(jdbc, TestStores.json(), bodies);
        this.transitions = new DispatchTransitions(jdbc, TestStores.json(), bodies);
        this.outbox = outbox;
    }

    public DispatchStore store() {
        return store;
    }

    /** Records a queued dispatch of the fixture spec with this callback URL (or none). */
    public void queued(String id, String callbackUrl, String workerId, Instant createdAt) {
        store.insert(
                new DispatchStore.NewDispatch(id, StoreFixtures.spec("img:1", callbackUrl), "fp", workerId, createdAt));
    }

    /** Ends a dispatch with this result, through the outbox; false when it had ended already. */
    public boolean finish(DispatchResult result) {
        return transitions.finish(closing(result), DispatchTransitions.From.ANY_UNFINISHED, outbox);
    }

    /** What the store keeps of a result: it, its summary and its digest. */
    static DispatchTransitions.Closing closing(DispatchResult result) {
        return new DispatchTransitions.Closing(result, StoreFixtures.summary(result), DispatchDigest.of(result, 9, 0));
    }

    /** A result with this status and stdout, as a finished dispatch of the fixture spec has. */
    public static DispatchResult result(String id, Dispatch.Status status, String stdout, Instant finishedAt) {
        return new DispatchResult(
                id,
                DispatchKey.tenantOf(id),
                status,
                0,
                null,
                "img:1",
                null,
                "runc",
                finishedAt.minusSeconds(4),
                finishedAt,
                4000L,
                1,
                List.of(),
                Utf8Text.of(stdout),
                Utf8Text.EMPTY,
                new Overflow(9, 8, 1, "n0nce-n0nce"),
                null,
                List.of(),
                new StreamDigest("0".repeat(64), 9, 1),
                new StreamDigest("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", 0, 0),
                null,
                null,
                3,
                0,
                null,
                null,
                new DispatchResult.Logs("/a", "/b", false, false),
                ReportStatus.MISSING,
                null,
                null,
                null,
                List.of(),
                null,
                null,
                Map.of("task", "t"));
    }
}
