package dev.sluice.logs;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;

/**
 * Log ranges streamed from the engine (ADR 0054), against the real engine:
 * a 16 MiB range is the bytes the process wrote with every promised header
 * and its length; past {@code sluice.api.max-log-reads} reads in flight a read
 * is refused with 429, Retry-After and problem+json; and a client that stops
 * reading holds its slot only until {@code sluice.api.log-write-timeout}.
 */
@QuarkusTest
@TestProfile(StreamedLogRangeIT.TwoReads.class)
class StreamedLogRangeIT {

    /** Two reads at once, and a client that stops reading is cut after 2 s. */
    public static final class TwoReads implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("sluice.api.max-log-reads", "2", "sluice.api.log-write-timeout", "2s");
        }
    }

    /** Lines of 100 bytes, line i holding i zero-padded: 17.6 MB, so a 16 MiB range is full. */
    private static final int LINES = 176_000;

    private static final int LINE = 100;

    private static final int MIB_16 = 16 << 20;

    private static String id;

    @BeforeEach
    void dispatchOnce() {
        if (id != null) {
            return;
        }
        id = submit(script("awk 'BEGIN { for (i = 0; i < " + LINES + "; i++) printf \"%099d\\n\", i }'"));
        assertThat(awaitTerminal(id, Duration.ofMinutes(3)).getString("status")).isEqualTo("succeeded");
    }

    @Test
    void aSixteenMebibyteRangeIsTheBytesWrittenWithItsLengthAndHeaders() throws Exception {
        long offset = 12_345;
        Response r = range(offset, MIB_16);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.header("Content-Length")).isEqualTo(Integer.toString(MIB_16));
        assertThat(r.header("Sluice-Log-Offset")).isEqualTo(Long.toString(offset));
        assertThat(r.header("Sluice-Log-Next-Offset")).isEqualTo(Long.toString(offset + MIB_16));
        assertThat(r.header("Sluice-Log-End")).isEqualTo("false");
        assertThat(sha256(r.asByteArray())).isEqualTo(sha256(expected(offset, MIB_16)));

        long total = (long) LINES * LINE;
        Response end = range(total - 150, 1000);
        assertThat(end.header("Content-Length")).isEqualTo("150");
        assertThat(end.header("Sluice-Log-End")).isEqualTo("true");
        assertThat(end.asByteArray()).isEqualTo(expected(total - 150, 150));

        Response past = range(total + 10, 1000);
        assertThat(past.statusCode()).isEqualTo(200);
        assertThat(past.asByteArray()).isEmpty();
        assertThat(past.header("Sluice-Log-End")).isEqualTo("true");
    }

    @Test
    void pastTheBoundAReadIsRefusedAndAStalledClientLetsItsSlotGo() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                stalled.add(stall());
            }
            // Each stalled read holds its slot while the engine's bytes wait on the client.
            Awaitility.await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                Response refused = range(0, 100);
                assertThat(refused.statusCode()).isEqualTo(429);
                assertThat(refused.contentType()).startsWith("application/problem+json");
                assertThat(refused.jsonPath().getString("type"))
                        .isEqualTo("urn:problem-type:sluice:too-many-log-reads");
                assertThat(refused.header("Retry-After")).matches("[1-9][0-9]*");
            });
            // The write timeout cuts both stalled connections, and their slots are free again.
            Awaitility.await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                Response served = range(0, 100);
                assertThat(served.statusCode()).isEqualTo(200);
                assertThat(served.asByteArray()).isEqualTo(expected(0, 100));
            });
        } finally {
            for (Socket s : stalled) {
                s.close();
            }
        }
    }

    /** A client that asks for 16 MiB and reads none of it, with a small window so the server's writes stall. */
    private static Socket stall() throws Exception {
        int port = ConfigProvider.getConfig().getValue("quarkus.http.test-port", Integer.class);
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new java.net.InetSocketAddress("localhost", port), 5000);
        OutputStream out = socket.getOutputStream();
        out.write(("GET /v1/dispatches/" + id + "/logs/stdout?limit=" + MIB_16 + " HTTP/1.1\r\nHost: localhost\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    private static Response range(long offset, int limit) {
        return given().queryParam("offset", offset)
                .queryParam("limit", limit)
                .get("/v1/dispatches/" + id + "/logs/stdout");
    }

    /** The bytes the process wrote at {@code offset}, from the lines' pattern. */
    private static byte[] expected(long offset, int length) {
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            long at = offset + i;
            long line = at / LINE;
            int column = (int) (at % LINE);
            if (column == LINE - 1) {
                out[i] = '\n';
            } else {
                String digits = Long.toString(line);
                int pad = LINE - 1 - digits.length();
                out[i] = (byte) (column < pad ? '0' : digits.charAt(column - pad));
            }
        }
        return out;
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }
}
