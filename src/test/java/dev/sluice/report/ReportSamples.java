package dev.sluice.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** The report samples the parser and the published schema must judge alike (src/test/resources/report). */
final class ReportSamples {

    static final Path FILE = Path.of("src/test/resources/report/samples.json");
    static final Path SCHEMA = Path.of("docs/report.schema.json");

    record Sample(String name, byte[] json, boolean valid) {
        @Override
        public String toString() {
            return name;
        }
    }

    private ReportSamples() {}

    static List<Sample> all() {
        ObjectMapper json = new ObjectMapper();
        try {
            List<Sample> samples = new ArrayList<>();
            for (JsonNode s : json.readTree(FILE.toFile())) {
                samples.add(new Sample(
                        s.get("name").asText(),
                        json.writeValueAsString(s.get("report")).getBytes(StandardCharsets.UTF_8),
                        s.get("valid").asBoolean()));
            }
            return samples;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
