package dev.sluice.summary;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A summary of a dispatch's kept output that a language model generated at
 * the worker's request (ADR 0034): neither what the agent reported nor what
 * the worker observed, and labelled so.
 *
 * @param inputBytes UTF-8 bytes of output the model was given
 */
@Schema(
        name = "WorkerSummary",
        description = "A generated summary of the kept output; not observed by the worker and not reported by "
                + "the agent (docs/api.md, 7.10).")
public record WorkerSummary(
        @Schema(required = true, description = "the model's answer, bounded and masked like the rest of the result")
        String text,

        @Schema(required = true, description = "the model that generated it, as configured", examples = "gpt-4o-mini")
        String model,

        @Schema(required = true, enumeration = "summarizer", description = "always summarizer: generated text")
        String generatedBy,

        @Schema(required = true, description = "UTF-8 bytes of the kept output the model was given")
        long inputBytes) {

    public static final String GENERATED_BY = "summarizer";
}
