package dev.sluice.report;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;

/**
 * A number in a report's {@code stats}, kept as the agent wrote it: {@code 1e3}
 * stays {@code 1e3}, and no value is widened or rounded on its way through.
 * The parser has already checked that it is a JSON number.
 */
@JsonSerialize(using = ReportNumber.Json.class)
public record ReportNumber(String text) {

    static final class Json extends StdSerializer<ReportNumber> {

        Json() {
            super(ReportNumber.class);
        }

        @Override
        public void serialize(ReportNumber number, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeNumber(number.text());
        }
    }
}
