package dev.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The packaged worker warms every part of a dispatch's way after start-up,
 * in the background, and leaves nothing anyone can see: one line at INFO, no
 * record, no result file, no container, nothing at ERROR (an engine without
 * project quotas adds its one notice at WARN). What the
 * out-directory's engine calls write and read, a tar archive, is among what
 * it loads before any dispatch.
 */
@EngineWide
class WarmUpIT {

    /** Every feature's step, in a dispatch's order, and none with a failure in brackets after it. */
    private static final Pattern SUMMARY = Pattern.compile(
            "INFO .*\\(warm-up-1\\) \\[\\] warm-up took \\d+ ms: api \\d+ ms, dispatch \\d+ ms, container \\d+ ms, "
                    + "output \\d+ ms, callback \\d+ ms$");

    /**
     * What the warm-up's first out-directory may tell the operator about the
     * engine once, as on an engine whose storage has no project quotas: the
     * engine's, not the warm-up's, and at WARN, never at ERROR.
     */
    private static final Pattern ENGINE_NOTICE = Pattern.compile(
            " WARN  \\[dev\\.sluice\\.container\\.sandbox\\.VolumeQuota\\] \\(warm-up-1\\) \\[\\] the out-directory's volume is not bounded: ");

    @Test
    void everyPartOfADispatchIsWarmedAndNothingIsLeftBehind() throws IOException {
        Path data = WorkerProcess.freshDataDir("warmed");
        Path classes = data.resolveSibling(data.getFileName() + "-classes.log");
        try (WorkerProcess worker =
                WorkerProcess.startLoggingClasses(WorkerProcess.baseEnvironment(data, "warmed-worker"), classes)) {
            String summary = await().atMost(Duration.ofMinutes(2))
                    .until(
                            () -> warmUpLines(worker).stream()
                                    .filter(l -> l.contains("warm-up took"))
                                    .findFirst(),
                            l -> l.isPresent())
                    .orElseThrow();

            assertThat(summary).containsPattern(SUMMARY);
            assertThat(Files.readString(classes))
                    .contains("org.apache.commons.compress.archivers.tar.TarArchiveOutputStream ")
                    .contains("org.apache.commons.compress.archivers.tar.TarArchiveInputStream ");
            assertThat(warmUpLines(worker).stream()
                            .filter(l -> !ENGINE_NOTICE.matcher(l).find()))
                    .containsExactly(summary);
            assertThat(worker.logText()).doesNotContain(" ERROR ");
            JsonNode page =
                    new ObjectMapper().readTree(worker.get("/v1/dispatches").body());
            assertThat(page.path("items")).isEmpty();
            try (Stream<Path> results = Files.list(data.resolve("results"))) {
                assertThat(results).isEmpty();
            }
        }
        try (DockerClients clients = TestDocker.clients()) {
            assertThat(clients.control().listContainersCmd().withShowAll(true).exec())
                    .noneMatch(c -> c.getImage().startsWith("sluice.invalid/"))
                    .noneMatch(c -> Stream.of(c.getNames()).anyMatch(n -> n.contains("warm-up-")));
        }
    }

    /** What the warm-up's thread logged, and anything else that speaks of the warm-up. */
    private static List<String> warmUpLines(WorkerProcess worker) {
        return worker.logText()
                .lines()
                .filter(l -> l.contains("(warm-up-") || l.toLowerCase().contains("warm-up"))
                .toList();
    }
}
