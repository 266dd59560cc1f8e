package dev.sluice.api;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem detail. {@code errors} names each bad field of a request
 * that failed validation.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** One bad field: its dotted path, the same as a JSON pointer, and what is wrong. */
    public record FieldError(String field, String pointer, String detail) {

        public static FieldError of(String field, String detail) {
            StringBuilder pointer = new StringBuilder("#");
            for (String segment : field.split("\\.", -1)) {
                // RFC 6901: "~" and "/" inside a name are escaped, "~" first.
                pointer.append('/').append(segment.replace("~", "~0").replace("/", "~1"));
            }
            return new FieldError(field, pointer.toString(), detail);
        }
    }

    static String type(String name) {
        return "urn:problem-type:sluice:" + name;
    }
}
