package dev.sluice.dispatch;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;

import dev.sluice.output.Overflow;
import dev.sluice.output.Utf8Text;
import dev.sluice.report.AgentReport;
import dev.sluice.report.ReportSource;
import dev.sluice.report.ReportStatus;

/**
 * The result of a finished dispatch: the body POSTed to the callback and the
 * {@code result} of the record (docs/api.md, section 7). {@code stdout} and
 * {@code stderr} are bounded by their caps; an overflow is present exactly
 * when its stream was truncated. {@code report} is what the agent claims,
 * kept apart from everything the worker observed; the three fields before it
 * are the worker's account of how it found the report.
 */
@JsonPropertyOrder({
    "dispatchId",
    "status",
    "exitCode",
    "error",
    "image",
    "startedAt",
    "finishedAt",
    "durationMs",
    "stdout",
    "stderr",
    "stdoutOverflow",
    "stderrOverflow",
    "logs",
    "reportStatus",
    "reportSource",
    "reportDetail",
    "report",
    "metadata"
})
public record DispatchResult(
        String dispatchId,
        Dispatch.Status status,
        Integer exitCode,
        Error error,
        String image,
        Instant startedAt,
        Instant finishedAt,
        Long durationMs,

        @JsonSerialize(using = Utf8TextJson.Serializer.class) @JsonDeserialize(using = Utf8TextJson.Deserializer.class)
        Utf8Text stdout,

        @JsonSerialize(using = Utf8TextJson.Serializer.class) @JsonDeserialize(using = Utf8TextJson.Deserializer.class)
        Utf8Text stderr,

        @JsonInclude(JsonInclude.Include.NON_NULL) Overflow stdoutOverflow,
        @JsonInclude(JsonInclude.Include.NON_NULL) Overflow stderrOverflow,
        Logs logs,
        ReportStatus reportStatus,
        ReportSource reportSource,
        String reportDetail,
        AgentReport report,
        Map<String, Object> metadata) {

    /**
     * Why the worker or the runtime could not run the dispatch, or what ended it
     * abnormally. {@code code} is stable and meant for programs; {@code message}
     * is for people.
     */
    public record Error(String code, String message) {}

    /**
     * Where the full streams can be read while the container is retained.
     *
     * @param possiblyRotated true when the runtime's log rotation may have
     *                        dropped the oldest part of the streams (ADR 0013)
     * @param recovered       true when the output was read back from the
     *                        runtime's log rather than captured live
     */
    public record Logs(String stdout, String stderr, boolean possiblyRotated, boolean recovered) {}
}
