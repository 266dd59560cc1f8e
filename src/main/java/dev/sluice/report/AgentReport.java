package dev.sluice.report;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * What an agent reported about its own work, validated against the published
 * schema (docs/report.schema.json) and bounded (docs/api.md, section 7.5).
 * Every field is the agent's claim; none of it was checked by the worker.
 *
 * @param verdict      {@code null} when the agent gave none
 * @param filesChanged empty when the agent gave none
 * @param stats        in the agent's order; values are strings or {@link ReportNumber}s
 */
@JsonPropertyOrder({"summary", "keyFindings", "confidence", "verdict", "filesChanged", "stats"})
public record AgentReport(
        String summary,
        List<String> keyFindings,
        String confidence,
        String verdict,
        List<String> filesChanged,
        Map<String, Object> stats) {

    /** The values {@code confidence} may take. */
    public static final List<String> CONFIDENCES = List.of("high", "medium", "low");
}
