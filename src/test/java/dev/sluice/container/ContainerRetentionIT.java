package dev.sluice.container;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * Retention by count: a worker that may keep five finished containers keeps
 * the five newest, and the logs of the others answer 410 as problem details.
 */
class ContainerRetentionIT {

    /** Twice the retained count: as many removed as kept, each dispatch run to its end before the next. */
    private static final int DISPATCHES = 10;

    private static final int RETAINED = 5;

    @Test
    void onlyTheNewestFinishedContainersAreKeptAndTheOthersLogsAreGone() throws Exception {
        String workerId = "retention-" + System.nanoTime();
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("retention"), workerId);
        env.put("SLUICE_CONTAINER_MAX_RETAINED", Integer.toString(RETAINED));
        env.put("SLUICE_DISPATCH_REAPER_INTERVAL", "1s");
        try (WorkerProcess worker = WorkerProcess.start(env);
                DockerClients clients = TestDocker.clients()) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < DISPATCHES; i++) {
                String id = worker.submit(WorkerClient.script("echo dispatch " + ids.size()));
                worker.awaitTerminal(id, Duration.ofSeconds(60));
                ids.add(id);
            }
            List<String> newest = ids.subList(DISPATCHES - RETAINED, DISPATCHES);
            ContainerRuntime engine = new ContainerRuntime(clients, TestDocker.containerConfig());
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(engine.managed().stream()
                                    .filter(c -> workerId.equals(c.workerId()))
                                    .map(ManagedContainer::dispatchId))
                            .containsExactlyInAnyOrderElementsOf(newest));
            // Asked by label, the engine answers with this worker's containers alone.
            assertThat(engine.managedBy(workerId))
                    .extracting(ManagedContainer::dispatchId)
                    .containsExactlyInAnyOrderElementsOf(newest);
            assertThat(engine.managedBy(workerId + "-other")).isEmpty();

            for (int i = 0; i < DISPATCHES; i++) {
                HttpResponse<String> log = worker.get("/v1/dispatches/" + ids.get(i) + "/logs/stdout");
                if (i < DISPATCHES - RETAINED) {
                    assertThat(log.statusCode()).as("log of dispatch %d", i).isEqualTo(410);
                    assertThat(log.headers().firstValue("Content-Type")).hasValue("application/problem+json");
                    assertThat(log.body()).contains("urn:problem-type:sluice:log-gone");
                } else {
                    assertThat(log.statusCode()).as("log of dispatch %d", i).isEqualTo(200);
                    assertThat(log.body()).isEqualTo("dispatch " + i + "\n");
                }
            }
        }
    }
}
