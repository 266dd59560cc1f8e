package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.sluice.testsupport.Program;

/**
 * scripts/skipped-tests.sh, which scripts/test.sh runs after each lane: a
 * skipped test fails the lane unless src/test/skipped-tests.txt lists it with
 * its reason. Played on reports written here as surefire and failsafe write
 * them, one test skipped among others that ran.
 */
class SkippedTestsTest {

    private static final Path LIST = Path.of("src/test/skipped-tests.txt");

    /** A report of {@code dev.sluice.x.SomeIT}: one test passed and {@code skipped} skipped. */
    private static Path report(Path dir, String... skipped) throws IOException {
        StringBuilder xml = new StringBuilder("""
                <?xml version="1.0" encoding="UTF-8"?>
                <testsuite name="dev.sluice.x.SomeIT" tests="%d" skipped="%d">
                  <testcase name="ran" classname="dev.sluice.x.SomeIT" time="0.1"/>
                """.formatted(skipped.length + 1, skipped.length));
        for (String name : skipped) {
            xml.append("  <testcase name=\"%s\" classname=\"dev.sluice.x.SomeIT\" time=\"0\">\n".formatted(name))
                    .append("    <skipped message=\"Assumption failed: no engine of ours\"/>\n")
                    .append("  </testcase>\n");
        }
        Files.createDirectories(dir);
        return Files.writeString(dir.resolve("TEST-dev.sluice.x.SomeIT.xml"), xml.append("</testsuite>\n"));
    }

    private static Program.Result check(Path list, String... arguments) {
        List<String> command =
                new java.util.ArrayList<>(List.of("env", "SLUICE_SKIPPED_TESTS=" + list, "scripts/skipped-tests.sh"));
        command.addAll(Arrays.asList(arguments));
        return Program.run("", Duration.ofSeconds(30), command.toArray(String[]::new));
    }

    @Test
    void aSkippedTestNobodyListedFailsTheLaneAndIsNamed(@TempDir Path dir) throws IOException {
        report(dir.resolve("failsafe-reports"), "restartsTheEngine");

        Program.Result result = check(LIST, dir.resolve("failsafe-reports").toString());

        assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
        assertThat(result.stderr())
                .contains("skipped and not listed: dev.sluice.x.SomeIT#restartsTheEngine")
                .contains("1 of 1 skipped tests are not in " + LIST);
    }

    @Test
    void aSkipListedWithItsReasonPassesAndIsCounted(@TempDir Path dir) throws IOException {
        report(dir.resolve("reports"), "needsTheSoftToken", "needsIt[2]");
        Path list = Files.writeString(dir.resolve("list.txt"), """
                # a comment
                dev.sluice.x.SomeIT#needsTheSoftToken   the token is where this machine keeps it
                dev.sluice.x.SomeIT#needsIt[2] the second case cannot be had here
                """);

        Program.Result result = check(list, dir.resolve("reports").toString());

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(result.stderr())
                .contains("skipped, as listed: dev.sluice.x.SomeIT#needsTheSoftToken (the token is where this machine")
                .contains("1 reports, 2 skipped, each listed with its reason");
    }

    @Test
    void anEntryWithoutItsReasonIsRefused(@TempDir Path dir) throws IOException {
        report(dir.resolve("reports"), "needsTheSoftToken");
        Path list = Files.writeString(dir.resolve("list.txt"), "dev.sluice.x.SomeIT#needsTheSoftToken\n");

        Program.Result result = check(list, dir.resolve("reports").toString());

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.stderr()).contains("lists dev.sluice.x.SomeIT#needsTheSoftToken without its reason");
    }

    /** target/ keeps earlier runs' reports: only this run's count, and a run with none fails. */
    @Test
    void onlyReportsOfThisRunCountAndNoneAtAllFails(@TempDir Path dir) throws IOException {
        Path old = report(dir.resolve("reports"), "skippedLastWeek");
        Files.setLastModifiedTime(old, FileTime.from(Instant.now().minus(Duration.ofDays(7))));
        Path stamp = Files.createFile(dir.resolve("stamp"));
        Files.setLastModifiedTime(stamp, FileTime.from(Instant.now().minus(Duration.ofDays(1))));

        Program.Result none =
                check(LIST, "--newer", stamp.toString(), dir.resolve("reports").toString());
        assertThat(none.exitCode()).isEqualTo(1);
        assertThat(none.stderr()).contains("no test reports (TEST-*.xml)");

        Files.setLastModifiedTime(old, FileTime.from(Instant.now()));
        Program.Result fresh =
                check(LIST, "--newer", stamp.toString(), dir.resolve("reports").toString());
        assertThat(fresh.exitCode()).isEqualTo(1);
        assertThat(fresh.stderr()).contains("skipped and not listed: dev.sluice.x.SomeIT#skippedLastWeek");
    }

    @Test
    void everyTestOfTheListIsOneThatExists() throws Exception {
        for (String line : Files.readAllLines(LIST)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] test = line.split("\\s+", 2)[0].split("#", 2);
            assertThat(Class.forName(test[0]).getDeclaredMethods())
                    .as(line)
                    .anyMatch(m -> m.getName().equals(test[1].replaceFirst("[(\\[].*", "")));
        }
    }
}
