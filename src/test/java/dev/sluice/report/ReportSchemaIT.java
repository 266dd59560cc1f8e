package dev.sluice.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Program;

/**
 * The worker's parser and the published schema, docs/report.schema.json, run
 * through Ajv (a JSON Schema validator of its own), accept and refuse the same
 * reports: the schema a client validates against is the one the worker holds
 * it to.
 */
class ReportSchemaIT {

    @Test
    void theParserAndThePublishedSchemaJudgeEverySampleAlike() throws IOException {
        Program.Result ajv = Program.node(
                "",
                "validate-report.mjs",
                ReportSamples.SCHEMA.toAbsolutePath().toString(),
                ReportSamples.FILE.toAbsolutePath().toString());
        assertThat(ajv.exitCode()).as(ajv.stderr()).isZero();
        JsonNode verdicts = new ObjectMapper().readTree(ajv.stdout());

        Map<String, Boolean> bySchema = new HashMap<>();
        Map<String, Boolean> byParser = new HashMap<>();
        Map<String, Boolean> expected = new HashMap<>();
        for (ReportSamples.Sample sample : ReportSamples.all()) {
            expected.put(sample.name(), sample.valid());
            bySchema.put(sample.name(), verdicts.path(sample.name()).asBoolean());
            byParser.put(sample.name(), ReportParser.parse(sample.json()).status() != ReportStatus.MALFORMED);
        }
        assertThat(expected).hasSizeGreaterThan(30).containsValue(true).containsValue(false);
        assertThat(bySchema).as("Ajv with the published schema").isEqualTo(expected);
        assertThat(byParser).as("the worker's parser").isEqualTo(expected);
    }
}
