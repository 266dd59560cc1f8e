package dev.sluice.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import dev.sluice.output.Utf8Text;

/**
 * The fallback for images that cannot write files: a report as the last line
 * of stdout, {@code {"sluice.report": <report>}}. Only the stdout the result
 * kept is looked at (its tail, when it was truncated), so the line costs
 * nothing beyond the stream's cap.
 */
public final class ReportLine {

    private static final byte[] START = "{\"sluice.report\"".getBytes(StandardCharsets.UTF_8);

    private ReportLine() {}

    /** The report on the last line of {@code stdout}; empty when that line is not one. */
    public static Optional<ReportReading> find(Utf8Text stdout, int maxBytes) {
        byte[] bytes = stdout.bytes();
        int end = stdout.length();
        if (end > 0 && bytes[end - 1] == '\n') {
            end--;
        }
        if (end > 0 && bytes[end - 1] == '\r') {
            end--;
        }
        int start = end;
        while (start > 0 && bytes[start - 1] != '\n') {
            start--;
        }
        if (end - start < START.length || !Arrays.equals(bytes, start, start + START.length, START, 0, START.length)) {
            return Optional.empty();
        }
        if (end - start > maxBytes) {
            return Optional.of(ReportReading.malformed(
                    ReportSource.STDOUT, "the report line is larger than " + maxBytes + " bytes"));
        }
        return Optional.of(read(bytes, start, end - start));
    }

    private static ReportReading read(byte[] bytes, int offset, int length) {
        try (JsonParser parser = ReportParser.JSON.createParser(bytes, offset, length)) {
            parser.nextToken(); // the envelope's start
            parser.nextToken(); // "sluice.report"
            ReportReading reading = ReportParser.readObject(parser, ReportSource.STDOUT);
            if (reading.status() != ReportStatus.MALFORMED
                    && (parser.nextToken() != JsonToken.END_OBJECT || parser.nextToken() != null)) {
                return ReportReading.malformed(
                        ReportSource.STDOUT, "the report line must be {\"sluice.report\": <report>} and nothing else");
            }
            return reading;
        } catch (IOException e) {
            return ReportReading.malformed(ReportSource.STDOUT, ReportParser.unreadable(e));
        }
    }
}
