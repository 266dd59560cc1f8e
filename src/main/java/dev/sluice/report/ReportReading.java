package dev.sluice.report;

/**
 * What the worker made of a dispatch's report: the result's
 * {@code reportStatus}, {@code reportSource}, {@code reportDetail} and
 * {@code report} (docs/api.md, section 7.5).
 *
 * @param source {@code null} when missing
 * @param detail why malformed or missing, what was cut when truncated; otherwise {@code null}
 * @param report present exactly when the status is present or truncated
 */
public record ReportReading(ReportStatus status, ReportSource source, String detail, AgentReport report) {

    /** No report, and nothing to say about it. */
    public static final ReportReading MISSING = new ReportReading(ReportStatus.MISSING, null, null, null);

    /** No report, because the worker could not look: {@code why} says so. */
    public static ReportReading missing(String why) {
        return new ReportReading(ReportStatus.MISSING, null, why, null);
    }

    public static ReportReading malformed(ReportSource source, String why) {
        return new ReportReading(ReportStatus.MALFORMED, source, why, null);
    }
}
