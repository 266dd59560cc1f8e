package dev.sluice.output;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What a truncated stream left out. Present in a result exactly when its stream
 * was truncated; these fields, not the marker text, are the authoritative record.
 * The fields after {@code nonce} are present only for a stream the dispatch asked
 * to capture as {@code jsonl} or {@code json} (ADR 0031).
 *
 * @param originalBytes  every byte the process wrote to the stream
 * @param keptBytes      the UTF-8 length of the returned string, marker included
 * @param droppedBytes   the bytes of the stream the string does not show
 * @param nonce          the dispatch's {@link MarkerNonce}: every marker the
 *                       worker wrote into the string carries it
 * @param format         what the returned string is: {@code jsonl}, {@code json},
 *                       or {@code text} when a document could not be kept as JSON
 * @param records        {@code jsonl}: the lines that were JSON values
 * @param textLines      {@code jsonl}: the lines that were not, kept as text
 * @param oversizedLines {@code jsonl}: lines longer than the cap, each replaced
 *                       by a marker record giving its size
 * @param reductions     {@code json}: the steps that made the document fit, in order
 */
@Schema(
        name = "Overflow",
        description = "What a truncated stream left out; authoritative, unlike the marker text (docs/api.md, 7.2).")
@JsonPropertyOrder({
    "originalBytes",
    "keptBytes",
    "droppedBytes",
    "nonce",
    "format",
    "records",
    "textLines",
    "oversizedLines",
    "reductions"
})
public record Overflow(
        @Schema(required = true, description = "every byte the process wrote to the stream")
        long originalBytes,

        @Schema(required = true, description = "the UTF-8 length of the returned string, marker included")
        long keptBytes,

        @Schema(
                required = true,
                description = "the stream's bytes the string does not show: for text and jsonl those between the "
                        + "kept head and tail; for a reduced json document originalBytes - keptBytes, at least 0")
        long droppedBytes,

        @Schema(
                required = true,
                description = "this dispatch's marker nonce: every marker the worker wrote into the string "
                        + "carries it (section 7.3)")
        String nonce,

        @Schema(
                description = "present only when the dispatch asked for jsonl or json: what the string is, "
                        + "jsonl, json, or text when a document could not be kept as JSON (section 7.11)",
                enumeration = {"text", "jsonl", "json"})
        @JsonInclude(JsonInclude.Include.NON_NULL)
        OutputFormat format,

        @Schema(description = "jsonl only: lines that were JSON values") @JsonInclude(JsonInclude.Include.NON_NULL)
        Counts records,

        @Schema(description = "jsonl only: lines that were not JSON, kept as text")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Counts textLines,

        @Schema(description = "jsonl only: lines longer than the cap, each kept as a marker record giving its size")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        Counts oversizedLines,

        @Schema(description = "json only: the reductions applied, in the order they were applied")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        List<Reduction> reductions) {

    /** A text stream's record, as every stream had before formats existed. */
    public Overflow(long originalBytes, long keptBytes, long droppedBytes, String nonce) {
        this(originalBytes, keptBytes, droppedBytes, nonce, null, null, null, null, null);
    }

    /** The same record for a string of {@code keptBytes}, after a line was added to it. */
    Overflow withKeptBytes(long keptBytes) {
        return new Overflow(
                originalBytes, keptBytes, droppedBytes, nonce, format, records, textLines, oversizedLines, reductions);
    }

    /** Lines of one kind: {@code written = kept + dropped}. */
    @Schema(name = "OverflowCounts", description = "Lines of one kind; written = kept + dropped.")
    public record Counts(
            @Schema(required = true) long written,
            @Schema(required = true) long kept,
            @Schema(required = true) long dropped) {}

    /**
     * One step that reduced a JSON document (section 7.11).
     *
     * @param step     {@code compact}, {@code project}, {@code drop-elements} or {@code text}
     * @param array    {@code drop-elements}: the JSON Pointer of the array cut
     * @param elements {@code project}: the array elements projected, every one kept;
     *                 {@code drop-elements}: the array's length before the cut
     * @param dropped  {@code drop-elements}: how many elements were dropped
     */
    @Schema(name = "OverflowReduction", description = "One step that reduced a JSON document (section 7.11).")
    @JsonPropertyOrder({"step", "array", "elements", "dropped"})
    public record Reduction(
            @Schema(
                    required = true,
                    enumeration = {"compact", "project", "drop-elements", "text"})
            String step,

            @Schema(description = "drop-elements: the JSON Pointer of the array cut")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            String array,

            @Schema(description = "project: the elements projected; drop-elements: the array's length before")
            @JsonInclude(JsonInclude.Include.NON_NULL)
            Long elements,

            @Schema(description = "drop-elements: the elements dropped") @JsonInclude(JsonInclude.Include.NON_NULL)
            Long dropped) {

        public static final String COMPACT = "compact";
        public static final String PROJECT = "project";
        public static final String DROP_ELEMENTS = "drop-elements";
        public static final String TEXT = "text";
    }
}
