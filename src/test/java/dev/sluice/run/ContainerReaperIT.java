package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.sluice.container.ContainerReaper;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.record.Dispatch;
import dev.sluice.record.StoredDispatches;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.TestStores;

/** Against the real engine and the dispatch store's records: the reaper decides by record: retention for finished dispatches, grace for orphans, never the unfinished. */
class ContainerReaperIT {

    private static DockerClients clients;
    private static ContainerRuntime runtime;
    private static StoredDispatches dispatches;

    @BeforeAll
    static void setUp() {
        clients = TestDocker.clients();
        runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
        dispatches = new StoredDispatches(TestStores.migrated(TestStores.h2()), StoredDispatches.NO_OUTBOX);
    }

    @AfterAll
    static void tearDown() throws Exception {
        clients.close();
    }

    private static String container(String dispatchId, String script, boolean start) {
        String id = runtime.create(TestDocker.shellSpec(script, dispatchId, "reaper-it"));
        if (start) {
            runtime.start(id);
        }
        return id;
    }

    private static void record(String dispatchId, boolean finished, Instant at) {
        dispatches.queued(dispatchId, null, "reaper-it", at);
        if (finished) {
            dispatches.finish(StoredDispatches.result(dispatchId, Dispatch.Status.SUCCEEDED, "", at));
        }
    }

    @Test
    void finishedOnesGoAfterRetentionOrphansAfterGraceUnfinishedOnesStay() {
        String run = Long.toString(System.nanoTime());
        Instant now = Instant.now();
        String finished = "fin-" + run;
        String unfinished = "unf-" + run;
        String orphan = "orph-" + run;
        String leftRunning = "left-" + run;
        record(finished, true, now);
        record(unfinished, false, now);
        record(leftRunning, true, now);
        String finishedContainer = container(finished, "exit 0", true);
        runtime.awaitExit(finishedContainer);
        String unfinishedContainer = container(unfinished, "sleep 60", true);
        String orphanContainer = container(orphan, "exit 0", false);
        String leftRunningContainer = container(leftRunning, "sleep 60", true);
        try {
            ContainerReaper reaper = new ContainerReaper(
                    runtime,
                    dispatches.store()::endings,
                    new ContainerReaper.Retention(
                            Duration.ofHours(1), Duration.ofMinutes(5), 500, 10L << 30, 128L << 20),
                    "this-store");
            assertThat(reaper.reap(now)).doesNotContain(finished, unfinished, orphan, leftRunning);

            // Past the grace: the orphan and the container running for a closed dispatch go.
            List<String> afterGrace = reaper.reap(now.plus(Duration.ofMinutes(10)));
            assertThat(afterGrace).contains(orphan, leftRunning).doesNotContain(finished, unfinished);
            assertThat(runtime.inspect(leftRunningContainer)).isEmpty();

            // Past the retention: the finished dispatch's container goes; the unfinished one's never does.
            assertThat(reaper.reap(now.plus(Duration.ofHours(2))))
                    .contains(finished)
                    .doesNotContain(unfinished);
            assertThat(runtime.inspect(finishedContainer)).isEmpty();
            assertThat(runtime.inspect(unfinishedContainer)).isPresent();
            assertThat(reaper.reap(now.plus(Duration.ofHours(2)))).doesNotContain(finished, orphan, leftRunning);
        } finally {
            for (String c : List.of(finishedContainer, unfinishedContainer, orphanContainer, leftRunningContainer)) {
                runtime.remove(c);
            }
        }
    }

    @Test
    void removalAndSignalsAreIdempotent() {
        String id = container("idem-" + System.nanoTime(), "exit 0", false);
        runtime.remove(id);
        runtime.remove(id);
        runtime.signal(id, "SIGTERM");
        assertThat(runtime.inspect(id)).isEmpty();
    }
}
