package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.sluice.testsupport.WorkerProcess;

/**
 * The packaged worker refuses to start when a network a request may name
 * would share a namespace with the engine's host or another container
 * (ADR 0071), says which and why, and touches neither store nor engine.
 */
class NetworkCheckIT {

    @ParameterizedTest
    @ValueSource(strings = {"none,host", "container:sluice-db"})
    void aSharedNetworkAmongTheAllowedStopsTheWorkerAtStart(String allowed) throws IOException {
        Map<String, String> env =
                WorkerProcess.environment("networks", Map.of("SLUICE_DISPATCH_ALLOWED_NETWORKS", allowed));
        try (WorkerProcess worker = WorkerProcess.spawn(env)) {
            assertThat(worker.awaitExit(Duration.ofSeconds(60)))
                    .as("exited; see %s", worker.logPath())
                    .isTrue();
            assertThat(worker.exitValue()).isNotZero();
            String shared = allowed.substring(allowed.lastIndexOf(',') + 1);
            assertThat(worker.logText())
                    .containsPattern("ERROR \\[dev.sluice.run.NetworkCheck\\].* refusing to start:"
                            + " sluice.dispatch.allowed-networks lists a network a dispatch would share")
                    .contains("\"" + shared + "\" is ")
                    .doesNotContain("Error occurred while executing task")
                    .doesNotContain("Listening on");
            assertThat(Path.of(env.get("SLUICE_DATA_DIR"), "sluice.mv.db"))
                    .as("the store a refused worker never migrated")
                    .doesNotExist();
        }
    }
}
