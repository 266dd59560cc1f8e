package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.TestDocker;

/** The reaper removes this worker's stopped containers past retention, by label, and nothing else. */
class ContainerReaperIT {

    private static DockerClients clients;
    private static ContainerRuntime runtime;

    @BeforeAll
    static void connect() {
        clients = TestDocker.clients();
        runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
    }

    @AfterAll
    static void close() throws Exception {
        clients.close();
    }

    private static String container(String worker, String dispatch, String script) {
        return runtime.create(new ContainerSpec(TestDocker.AGENT_IMAGE, List.of("sh", "-c", script), Map.of(), null, false,
                Map.of(Labels.DISPATCH_ID, dispatch, Labels.WORKER_ID, worker), 64L << 20, 0, 64, "none"));
    }

    @Test
    void stoppedContainersPastRetentionAreRemovedOthersStay() throws Exception {
        String worker = "reaper-" + System.nanoTime();
        String stopped = container(worker, "d-stopped", "exit 0");
        runtime.start(stopped);
        runtime.awaitExit(stopped);
        String neverStarted = container(worker, "d-created", "exit 0");
        String running = container(worker, "d-running", "sleep 30");
        runtime.start(running);
        String otherWorkers = container(worker + "-other", "d-other", "exit 0");
        runtime.start(otherWorkers);
        runtime.awaitExit(otherWorkers);
        try {
            ContainerReaper reaper = new ContainerReaper(clients, runtime, Duration.ofHours(1), worker);
            assertThat(reaper.reap(Instant.now())).isEmpty(); // nothing is an hour old yet

            List<ContainerReaper.Reaped> reaped = reaper.reap(Instant.now().plus(Duration.ofHours(2)));
            assertThat(reaped).extracting(ContainerReaper.Reaped::dispatchId)
                    .containsExactlyInAnyOrder("d-stopped", "d-created");
            assertThat(runtime.inspect(stopped)).isEmpty();
            assertThat(runtime.inspect(neverStarted)).isEmpty();
            assertThat(runtime.inspect(running)).isPresent();
            assertThat(runtime.inspect(otherWorkers)).isPresent();

            // Idempotent: a second pass finds nothing more to do.
            assertThat(reaper.reap(Instant.now().plus(Duration.ofHours(2)))).isEmpty();
        } finally {
            runtime.remove(running);
            runtime.remove(otherWorkers);
            runtime.remove(stopped);
            runtime.remove(neverStarted);
        }
    }

    @Test
    void removalIsIdempotent() {
        String id = container("reaper-idem", "d-x", "exit 0");
        runtime.remove(id);
        runtime.remove(id);
        runtime.signal(id, "SIGTERM");
        assertThat(runtime.inspect(id)).isEmpty();
    }
}
