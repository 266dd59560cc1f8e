package dev.sluice.output;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * How a stream the dispatch asked to capture as {@code jsonl} or {@code json}
 * was returned (ADR 0031). {@code returned} differs from {@code requested} only
 * when the worker had to fall back to text, and then {@code fallback} says why;
 * this is said whether or not the stream was truncated.
 *
 * @param requested what the dispatch asked for
 * @param returned  what the returned string is
 * @param fallback  {@code null} unless {@code returned} is text: one of the
 *                  {@code *_FALLBACK} reasons
 * @param detail    for people: what was wrong, when something was
 */
@Schema(
        name = "FormatOutcome",
        description = "How a stream asked for as jsonl or json was returned (docs/api.md, section 7.11).")
@JsonPropertyOrder({"requested", "returned", "fallback", "detail"})
public record FormatOutcome(
        @Schema(
                required = true,
                enumeration = {"jsonl", "json"})
        OutputFormat requested,

        @Schema(
                required = true,
                enumeration = {"text", "jsonl", "json"})
        OutputFormat returned,

        @Schema(
                description = "why the stream was returned as text: invalid-json, document-too-large, "
                        + "over-cap or log-unavailable",
                enumeration = {"invalid-json", "document-too-large", "over-cap", "log-unavailable"})
        @JsonInclude(JsonInclude.Include.NON_NULL)
        String fallback,

        @Schema(description = "for people") @JsonInclude(JsonInclude.Include.NON_NULL)
        String detail) {

    /** The stream was not one JSON document. */
    public static final String INVALID_JSON = "invalid-json";

    /** The stream was longer than {@code sluice.output.max-json-document}. */
    public static final String DOCUMENT_TOO_LARGE = "document-too-large";

    /** No reduction made the document fit: its head and tail are returned as text. */
    public static final String OVER_CAP = "over-cap";

    /** The runtime's log no longer held the whole document, so it could not be reduced. */
    public static final String LOG_UNAVAILABLE = "log-unavailable";

    public static FormatOutcome as(OutputFormat format) {
        return new FormatOutcome(format, format, null, null);
    }

    public static FormatOutcome text(OutputFormat requested, String fallback, String detail) {
        return new FormatOutcome(requested, OutputFormat.TEXT, fallback, detail);
    }
}
