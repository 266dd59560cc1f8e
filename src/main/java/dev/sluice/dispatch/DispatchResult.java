package dev.sluice.dispatch;

import java.time.Instant;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;

import dev.sluice.output.Overflow;
import dev.sluice.output.StreamDigest;
import dev.sluice.output.Utf8Text;

/**
 * The result of a finished dispatch: the body POSTed to the callback and the
 * {@code result} of the record (docs/api.md, section 7). {@code stdout} and
 * {@code stderr} are bounded by their caps; an overflow is present exactly
 * when its stream was truncated. The digests describe each whole stream, and
 * are {@code null} only when the dispatch's output was never read.
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
    "stdoutDigest",
    "stderrDigest",
    "logs",
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
        StreamDigest stdoutDigest,
        StreamDigest stderrDigest,
        Logs logs,
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
