package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The jar started as it ships maps the AppCDS archive of its own build (ADR
 * 0048): scripts/worker.sh writes it with deploy/appcds-training.sh the first
 * time a build starts, or when the archive is older than the jar, and maps it
 * after. {@code -Xshare:on} makes a start fail instead of going on without an
 * archive it cannot map.
 */
@EngineWide
class ClassDataArchiveIT {

    private static final Path JAR = Path.of("target/sluice-runner.jar");
    private static final Path ARCHIVE = Path.of("target/app-cds.jsa");
    private static final String WRITING = "writing the class-data archive of this build";

    @Test
    void theFirstStartOfABuildWritesItsArchiveAndEveryStartMapsIt() throws IOException {
        if (Files.exists(ARCHIVE)) {
            // an archive of an earlier build
            Files.setLastModifiedTime(
                    ARCHIVE, FileTime.fromMillis(Files.getLastModifiedTime(JAR).toMillis() - 60_000));
        }

        String first = dispatchOnce("class-data-first");
        assertThat(first).contains(WRITING);
        assertThat(Files.getLastModifiedTime(ARCHIVE)).isGreaterThan(Files.getLastModifiedTime(JAR));

        String second = dispatchOnce("class-data-second");
        assertThat(second).doesNotContain(WRITING);
    }

    /** Starts the worker as shipped, with the archive required, runs one dispatch; returns its log. */
    private static String dispatchOnce(String name) throws IOException {
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir(name), name);
        env.put("JAVA_OPTS", "-Xshare:on");
        try (WorkerProcess worker = WorkerProcess.startAsShipped(env)) {
            String id = worker.submit(WorkerClient.script("echo mapped"));
            assertThat(worker.awaitTerminal(id, Duration.ofSeconds(60))
                            .path("status")
                            .asText())
                    .isEqualTo("succeeded");
            return worker.logText();
        }
    }
}
