package dev.sluice.run;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.engine.OutFile;
import dev.sluice.output.SecretMasker;
import dev.sluice.output.Utf8Text;
import dev.sluice.report.ReportLine;
import dev.sluice.report.ReportParser;
import dev.sluice.report.ReportReading;
import dev.sluice.report.ReportSource;

/**
 * Finds a dispatch's report (docs/api.md, section 7.5): the file in its
 * container's out-directory, else the last line of its stdout. Nothing the
 * agent left there fails the dispatch; at most {@code maxBytes} of it is read.
 */
final class AgentReports {

    static final String FILE = "report.json";

    private final ContainerRuntime runtime;
    private final int maxBytes;

    AgentReports(ContainerRuntime runtime, int maxBytes) {
        this.runtime = runtime;
        this.maxBytes = maxBytes;
    }

    /** The report file, read once the container has exited. */
    OutFile file(String containerId) {
        return runtime.readOutFile(containerId, FILE, maxBytes);
    }

    /** What the file, or failing it the stdout the result keeps, says; secrets masked as in the streams. */
    ReportReading reading(OutFile file, Utf8Text stdout, SecretMasker masker) {
        return switch (file.state()) {
            case FOUND -> {
                byte[] bytes = file.bytes();
                masker.mask(bytes, 0, bytes.length, true, true);
                yield ReportParser.parse(bytes);
            }
            case REFUSED -> ReportReading.malformed(ReportSource.FILE, file.problem());
            case ABSENT -> ReportLine.find(stdout, maxBytes).orElse(ReportReading.MISSING);
            case UNREADABLE ->
                ReportLine.find(stdout, maxBytes)
                        .orElse(ReportReading.missing("the report file could not be read: " + file.problem()));
        };
    }
}
