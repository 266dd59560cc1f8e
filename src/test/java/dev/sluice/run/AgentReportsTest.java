package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.OutFile;
import dev.sluice.output.SecretMasker;
import dev.sluice.output.Utf8Text;
import dev.sluice.report.ReportReading;
import dev.sluice.report.ReportSource;
import dev.sluice.report.ReportStatus;

/** Which report counts, the file or the stdout line, and what each outcome of the file read makes of it. */
class AgentReportsTest {

    private static final String REPORT =
            "{\"summary\":\"token s3cr3t-value used\",\"keyFindings\":[],\"confidence\":\"low\"}";
    private static final Utf8Text LINE = Utf8Text.of("{\"sluice.report\": " + REPORT.replace("low", "high") + "}\n");
    private static final SecretMasker MASKER = new SecretMasker(List.of("s3cr3t-value"), 8);

    private final AgentReports reports = new AgentReports(null, 65536);

    private static OutFile file(OutFile.State state, String content, String problem) {
        return new OutFile(state, content == null ? null : content.getBytes(StandardCharsets.UTF_8), problem);
    }

    @Test
    void theFileWinsOverTheLineAndHasItsSecretsMasked() {
        ReportReading reading = reports.reading(file(OutFile.State.FOUND, REPORT, null), LINE, MASKER);
        assertThat(reading.source()).isEqualTo(ReportSource.FILE);
        assertThat(reading.report().confidence()).isEqualTo("low");
        assertThat(reading.report().summary()).isEqualTo("token ************ used");
    }

    @Test
    void aRefusedFileIsMalformedEvenWithALine() {
        ReportReading reading = reports.reading(
                file(OutFile.State.REFUSED, null, "report.json is a FIFO; only a regular file is read"), LINE, MASKER);
        assertThat(reading.status()).isEqualTo(ReportStatus.MALFORMED);
        assertThat(reading.detail()).isEqualTo("report.json is a FIFO; only a regular file is read");
    }

    @Test
    void withoutAFileTheLineIsRead() {
        ReportReading reading = reports.reading(file(OutFile.State.ABSENT, null, null), LINE, MASKER);
        assertThat(reading.source()).isEqualTo(ReportSource.STDOUT);
        assertThat(reading.report().confidence()).isEqualTo("high");
        assertThat(reports.reading(file(OutFile.State.ABSENT, null, null), Utf8Text.of("done\n"), MASKER))
                .isEqualTo(ReportReading.MISSING);
    }

    @Test
    void anEngineThatCouldNotBeAskedLeavesTheReportMissingWithTheReason() {
        OutFile unreadable =
                file(OutFile.State.UNREADABLE, null, "archive: the Docker engine did not answer within 30 s");
        assertThat(reports.reading(unreadable, Utf8Text.EMPTY, MASKER))
                .isEqualTo(ReportReading.missing(
                        "the report file could not be read: archive: the Docker engine did not answer within 30 s"));
        assertThat(reports.reading(unreadable, LINE, MASKER).source()).isEqualTo(ReportSource.STDOUT);
    }
}
