package dev.sluice.summary;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.sluice.testsupport.WorkerProcess;

/**
 * The packaged worker refuses to start with a summarizer URL it may not use
 * (ADR 0056), and says which setting to fix; it never gets as far as serving.
 */
class SummarizerStartIT {

    @ParameterizedTest
    @CsvSource({
        "http://summaries.example/v1/chat/completions, summaries.example, must be https",
        "https://summaries.example/v1/chat/completions, other.example, not on sluice.summarizer.allowed-hosts"
    })
    void aSummarizerUrlItMayNotUseStopsTheStart(String url, String allowed, String why)
            throws IOException, InterruptedException {
        Map<String, String> env =
                WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("summarizer-start"), "summarizer-start");
        env.put("SLUICE_SUMMARIZER_URL", url);
        env.put("SLUICE_SUMMARIZER_ALLOWED_HOSTS", allowed);
        env.put("QUARKUS_HTTP_PORT", Integer.toString(WorkerProcess.freePort()));
        Path log = Files.createTempFile(Path.of("target"), "summarizer-start-", ".log");
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-jar",
                        "target/sluice-runner.jar")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process worker = builder.start();
        try {
            assertThat(worker.waitFor(60, TimeUnit.SECONDS))
                    .as("the worker exits")
                    .isTrue();
            assertThat(worker.exitValue()).isNotZero();
            assertThat(Files.readString(log))
                    .contains("sluice.summarizer.url " + url.strip() + " ")
                    .contains(why);
        } finally {
            worker.destroyForcibly();
        }
    }
}
