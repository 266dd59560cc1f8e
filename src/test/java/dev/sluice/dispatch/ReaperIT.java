package dev.sluice.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ContainerSpec;
import dev.sluice.container.DockerClients;
import dev.sluice.container.Labels;
import dev.sluice.output.Overflow;
import dev.sluice.testsupport.StoreFixtures;
import dev.sluice.testsupport.TestDocker;

/** The reaper decides by record: retention for finished dispatches, grace for orphans, never the unfinished. */
class ReaperIT {

    private static DockerClients clients;
    private static ContainerRuntime runtime;
    private static DispatchStore store;

    @BeforeAll
    static void setUp() {
        clients = TestDocker.clients();
        runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:reaper-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        Flyway.configure().dataSource(ds).locations("classpath:db/migration").load().migrate();
        store = new DispatchStore(ds, StoreFixtures.json(), (c, id, at) -> { });
    }

    @AfterAll
    static void tearDown() throws Exception {
        clients.close();
    }

    private static String container(String dispatchId, String script, boolean start) {
        String id = runtime.create(new ContainerSpec(TestDocker.AGENT_IMAGE, List.of("sh", "-c", script), Map.of(), null,
                false, Map.of(Labels.DISPATCH_ID, dispatchId, Labels.WORKER_ID, "reaper-it"), 64L << 20, 0, 64, "none"));
        if (start) {
            runtime.start(id);
        }
        return id;
    }

    private static void record(String dispatchId, boolean finished, Instant at) {
        store.insert(new DispatchStore.NewDispatch(dispatchId, StoreFixtures.spec("img:1", null), "fp", "reaper-it", at));
        if (finished) {
            DispatchResult r = new DispatchResult(dispatchId, Dispatch.Status.SUCCEEDED, 0, null, "img:1", at, at, 0L, "",
                    "", null, (Overflow) null, new DispatchResult.Logs("/a", "/b", false, false), Map.of());
            store.finish(r, StoreFixtures.summary(r));
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
            Reaper reaper = new Reaper(runtime, store, Duration.ofHours(1), Duration.ofMinutes(5));
            assertThat(reaper.reap(now)).doesNotContain(finished, unfinished, orphan, leftRunning);

            // Past the grace: the orphan and the container running for a closed dispatch go.
            List<String> afterGrace = reaper.reap(now.plus(Duration.ofMinutes(10)));
            assertThat(afterGrace).contains(orphan, leftRunning).doesNotContain(finished, unfinished);
            assertThat(runtime.inspect(leftRunningContainer)).isEmpty();

            // Past the retention: the finished dispatch's container goes; the unfinished one's never does.
            assertThat(reaper.reap(now.plus(Duration.ofHours(2)))).contains(finished).doesNotContain(unfinished);
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
