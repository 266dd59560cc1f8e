package dev.sluice.testsupport;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Agent reports as the tests' agents write them (docs/api.md, section 7.5). */
public final class Reports {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Findings in {@link #twoKilobytes(int)}. */
    public static final int FINDINGS = 9;

    private Reports() {}

    /** A report of about 2 KB (1978 to 1994 bytes for n below 100): most of it findings, as a careful agent writes. */
    public static String twoKilobytes(int n) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put(
                "summary",
                "Reviewed module " + n + ": the parser handles empty and oversized input, the retry loop backs off "
                        + "as documented, and two error paths lose their cause; nothing blocks a release.");
        report.put(
                "keyFindings",
                IntStream.range(0, FINDINGS)
                        .mapToObj(i -> "Finding " + i + " of module " + n + ": the handler at line " + (100 + i * 17)
                                + " swallows an exception and returns an empty list, so callers cannot tell a "
                                + "failure from no data; log and rethrow.")
                        .toList());
        report.put("confidence", "high");
        report.put("verdict", "approve");
        report.put(
                "filesChanged",
                IntStream.range(0, 6)
                        .mapToObj(i -> "src/main/java/module" + n + "/Part" + i + ".java")
                        .toList());
        report.put("stats", Map.of("testsRun", 120 + n, "failures", 0, "coverage", "81%"));
        try {
            return JSON.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A dispatch request of the test agent that writes {@code report} to its report file. */
    public static Map<String, Object> writing(String report) {
        Map<String, Object> request =
                new HashMap<>(Dispatches.script("printf '%s' \"$REPORT\" > /sluice/out/report.json; echo done"));
        request.put("env", Map.of("REPORT", report));
        return request;
    }
}
