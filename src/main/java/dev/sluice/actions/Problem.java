package dev.sluice.actions;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem detail. {@code errors} names each bad field of a request
 * that failed validation.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(
        name = "Problem",
        description = "An RFC 9457 problem detail, sent as application/problem+json (docs/api.md, section 9).")
public record Problem(
        @Schema(
                required = true,
                description = "urn:problem-type:sluice:<name>, stable per kind of refusal",
                examples = "urn:problem-type:sluice:validation-failed")
        String type,

        @Schema(required = true, description = "what kind of refusal, for people")
        String title,

        @Schema(required = true, description = "the HTTP status")
        int status,

        @Schema(required = true, description = "what was wrong with this request, for people")
        String detail,

        @Schema(hidden = true) String instance,

        @Schema(description = "absent unless the request failed validation (422): one entry per bad field")
        List<FieldError> errors,

        @Schema(
                description = "absent unless a log range was rotated away (410 log-rotated): the first byte of "
                        + "the stream the runtime still holds, an absolute offset")
        Long availableFrom) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public Problem(String type, String title, int status, String detail, String instance, List<FieldError> errors) {
        this(type, title, status, detail, instance, errors, null);
    }

    /** One bad field: its dotted path, the same as a JSON pointer, and what is wrong. */
    @Schema(name = "FieldError", description = "One bad field of a request that failed validation.")
    public record FieldError(
            @Schema(
                    required = true,
                    description = "the field's dotted path, or the query parameter's name",
                    examples = "resources.memoryBytes")
            String field,

            @Schema(
                    required = true,
                    description = "the same as a JSON pointer in fragment form (RFC 6901)",
                    examples = "#/resources/memoryBytes")
            String pointer,

            @Schema(required = true, description = "what is wrong with it, never repeating its value")
            String detail) {

        public static FieldError of(String field, String detail) {
            StringBuilder pointer = new StringBuilder("#");
            for (String segment : field.split("\\.", -1)) {
                // RFC 6901: "~" and "/" inside a name are escaped, "~" first.
                pointer.append('/').append(segment.replace("~", "~0").replace("/", "~1"));
            }
            return new FieldError(field, pointer.toString(), detail);
        }
    }

    public static String type(String name) {
        return "urn:problem-type:sluice:" + name;
    }
}
