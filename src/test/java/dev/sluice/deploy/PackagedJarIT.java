package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The one jar carries no configuration file of its own (ADR 0048): its
 * settings come from the configuration the build recorded, so starting the
 * worker never opens the jar (35,000 entries) as a zip file system to look for
 * one. Such a file system loads its index node class, which nothing else
 * does; with {@code application.properties} in the jar it was built twice per
 * start, 6-7 MiB promoted each time. The settings the file held are in force,
 * expressions resolved from the environment as before.
 */
class PackagedJarIT {

    private static final Path JAR = Path.of("target/sluice-runner.jar");

    @Test
    void theJarCarriesNoConfigurationFile() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            assertThat(Collections.list(jar.entries()).stream().map(ZipEntry::getName))
                    .isNotEmpty()
                    .doesNotContain("application.properties", "META-INF/microprofile-config.properties");
        }
    }

    @Test
    void startingAndDispatchingOpenNoZipFileSystem() throws IOException {
        Path data = WorkerProcess.freshDataDir("packaged-jar");
        Path classes = data.resolveSibling(data.getFileName() + "-classes.log");
        try (WorkerProcess worker =
                WorkerProcess.startLoggingClasses(WorkerProcess.baseEnvironment(data, "packaged-jar"), classes)) {
            String id = worker.submit(WorkerClient.script("echo done"));
            assertThat(worker.awaitTerminal(id, Duration.ofSeconds(60))
                            .path("status")
                            .asText())
                    .isEqualTo("succeeded");
            // sluice.data-dir, from the environment, inside the recorded JDBC URL's expression
            assertThat(data.resolve("sluice.mv.db")).exists();
        }
        String loaded = Files.readString(classes);
        assertThat(loaded).contains("dev.sluice.").doesNotContain("jdk.nio.zipfs.ZipFileSystem$IndexNode");
    }
}
