package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sluice.testsupport.Program;

/**
 * scripts/java-check.sh, which scripts/run.sh and scripts/demo.sh run first:
 * the Java on PATH must take deploy/jvm.options, or the user is told which
 * Java the worker needs before anything is built.
 */
class JavaCheckTest {

    @Test
    void theJavaRunningTheseTestsTakesTheShippedSettings() {
        Program.Result check = Program.run("", Duration.ofSeconds(30), "scripts/java-check.sh");

        assertThat(check.exitCode()).as(check.output()).isZero();
    }

    /** An older 17, as it answers an option it does not know. */
    @Test
    void anOlderJavaIsRefusedWithWhatTheWorkerNeeds(@TempDir Path bin) throws IOException {
        Path java = bin.resolve("java");
        Files.writeString(java, """
                #!/bin/sh
                echo "Unrecognized VM option 'TrimNativeHeapInterval=5000'" >&2
                echo "Error: Could not create the Java Virtual Machine." >&2
                exit 1
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));

        Program.Result check = Program.run(
                "",
                Duration.ofSeconds(30),
                "env",
                "PATH=" + bin + ":" + System.getenv("PATH"),
                "scripts/java-check.sh");

        assertThat(check.exitCode()).isEqualTo(1);
        assertThat(check.stderr())
                .contains("does not take the worker's JVM settings (deploy/jvm.options)")
                .contains("Unrecognized VM option 'TrimNativeHeapInterval=5000'")
                .contains("Java 17.0.9 or later");
    }
}
