package dev.sluice.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.WorkerProcess;

/**
 * The embedded store is one worker's (ADR 0063): a second worker started on
 * the same data directory refuses to start, saying why and what to do,
 * and the first goes on serving.
 */
class OneWorkerPerEmbeddedStoreIT {

    @Test
    void aSecondWorkerOnTheSameDataDirectoryRefusesToStart() throws Exception {
        Map<String, String> env = WorkerProcess.environment("embedded-first", Map.of());
        try (WorkerProcess first = WorkerProcess.start(env)) {
            Map<String, String> second = new HashMap<>(env);
            second.put("SLUICE_WORKER_ID", "embedded-second");
            assertThat(WorkerProcess.refusal(second))
                    .containsPattern("ERROR \\[dev.sluice.store.StoreProducer\\].* refusing to start: the embedded"
                            + " store in .* is in use by another worker")
                    .contains("QUARKUS_DATASOURCE_JDBC_URL");
            assertThat(first.probeStatus("/q/health/ready")).isEqualTo(200);
        }
    }
}
