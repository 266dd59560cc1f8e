package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;

/**
 * A stream larger than the rotation budget (1 MiB x 2 files), against the real
 * engine: the result says where the runtime's copy begins, ranges before it are
 * refused with that offset, and ranges after it hold the bytes the process
 * wrote at those absolute offsets (ADR 0032).
 */
@QuarkusTest
@TestProfile(Profiles.SmallLogs.class)
class LogRotationIT {

    /** Lines of 100 bytes, line i holding i zero-padded: the byte at any offset is known. */
    private static final int LINES = 40_000;

    private static final int LINE = 100;

    /** What the process writes to stderr, before any stdout. */
    private static final String STDERR = "head-of-stderr\n";

    /** One dispatch for all the tests: the server is up only once a test runs. */
    private static String id;

    private static JsonPath record;

    @BeforeEach
    void dispatchOnce() {
        if (id != null) {
            return;
        }
        Map<String, Object> body = new HashMap<>(script(
                "echo head-of-stderr >&2; awk 'BEGIN { for (i = 0; i < " + LINES + "; i++) printf \"%099d\\n\", i }'"));
        body.put("output", Map.of("stdoutCapBytes", 64 * 1024));
        id = submit(body);
        record = awaitTerminal(id, Duration.ofMinutes(3));
        assertThat(record.getString("status")).isEqualTo("succeeded");
    }

    @Test
    void theResultSaysFromWhichByteTheRuntimeHoldsEachStream() {
        long total = (long) LINES * LINE;
        assertThat(record.getLong("result.stdoutDigest.bytes")).isEqualTo(total);
        long from = record.getLong("result.logs.availableFrom.stdout");
        // Two files of 1 MiB of json-file records hold well under the 4 MB written, and at least one file's worth.
        assertThat(from).isGreaterThan(0).isLessThan(total - 100_000);
        assertThat(from % LINE)
                .as("rotation drops whole records, so whole lines")
                .isZero();
        // Both streams share the runtime's files: stderr's one early line went with the first of them. (A line
        // written last is no better: the engine copies each stream on its own, so its record may land before the
        // last of stdout's, and go with a file that rotates after it.)
        assertThat(record.getLong("result.logs.availableFrom.stderr")).isEqualTo(STDERR.length());
        assertThat(record.getBoolean("result.logs.possiblyRotated")).isTrue();
        assertThat(record.getString("result.stdout"))
                .contains("[... sluice " + record.getString("result.stdoutOverflow.nonce") + ": ")
                .contains(" bytes of stdout omitted; log from byte " + from + ": /v1/dispatches/" + id
                        + "/logs/stdout ...]")
                .doesNotContain("full log");
    }

    @Test
    void aRangeThatRotatedAwayIsGoneAndNamesTheFirstByteHeld() {
        long from = record.getLong("result.logs.availableFrom.stdout");
        for (long offset : new long[] {0, from - 1}) {
            Response r = range("stdout", offset, 100);
            assertThat(r.statusCode()).isEqualTo(410);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.jsonPath().getString("type")).isEqualTo("urn:problem-type:sluice:log-rotated");
            assertThat(r.jsonPath().getLong("availableFrom")).isEqualTo(from);
        }
    }

    @Test
    void rangesInsideWhatIsHeldAreTheBytesAtThoseAbsoluteOffsets() {
        long from = record.getLong("result.logs.availableFrom.stdout");
        long total = (long) LINES * LINE;
        for (long offset : new long[] {from, from + 1234, total - 250}) {
            Response r = range("stdout", offset, 500);
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.header("Sluice-Log-Offset")).isEqualTo(Long.toString(offset));
            String expected = expected(offset, (int) Math.min(500, total - offset));
            assertThat(new String(r.asByteArray(), StandardCharsets.US_ASCII)).isEqualTo(expected);
            assertThat(r.header("Sluice-Log-Next-Offset")).isEqualTo(Long.toString(offset + expected.length()));
        }
        Response end = range("stdout", total - 100, 500);
        assertThat(end.header("Sluice-Log-End")).isEqualTo("true");

        Response stderr = range("stderr", 0, 500);
        assertThat(stderr.statusCode()).isEqualTo(410);
        assertThat(stderr.jsonPath().getLong("availableFrom")).isEqualTo(STDERR.length());
    }

    private Response range(String stream, long offset, int limit) {
        return given().queryParam("offset", offset)
                .queryParam("limit", limit)
                .get("/v1/dispatches/" + id + "/logs/" + stream);
    }

    /** The bytes the process wrote at {@code offset}, from the lines' pattern. */
    private static String expected(long offset, int length) {
        StringBuilder out = new StringBuilder();
        for (long line = offset / LINE; out.length() < (offset % LINE) + length && line < LINES; line++) {
            out.append(String.format("%099d\n", line));
        }
        int start = (int) (offset % LINE);
        return out.substring(start, start + length);
    }
}
