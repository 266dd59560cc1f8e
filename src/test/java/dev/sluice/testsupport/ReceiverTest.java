package dev.sluice.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * The tests' callback receiver records a request only once it has all of it:
 * a sender killed mid-body (ChaosIT kills workers while they deliver) sent no
 * request, as no HTTP server would take it for one.
 */
class ReceiverTest {

    @Test
    void aBodyCutShortOfItsLengthIsNoRequest() throws Exception {
        try (Receiver receiver = Receiver.on("127.0.0.1")) {
            send(receiver, "POST /cut HTTP/1.1\r\nwebhook-id: msg_1\r\nContent-Length: 10\r\n\r\n{\"a\"");
            send(receiver, "POST /whole HTTP/1.1\r\nwebhook-id: msg_1\r\nContent-Length: 7\r\n\r\n{\"a\":1}");

            await().atMost(Duration.ofSeconds(5))
                    .until(() -> receiver.requests().size() == 1);
            Thread.sleep(200); // the cut one, had it been taken, would have come first
            assertThat(receiver.requests())
                    .singleElement()
                    .satisfies(r -> assertThat(r.path()).isEqualTo("/whole"))
                    .satisfies(r -> assertThat(r.bodyText()).isEqualTo("{\"a\":1}"));
        }
    }

    /** Writes the bytes and goes away, as a killed sender does. */
    private static void send(Receiver receiver, String bytes) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", receiver.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(bytes.getBytes(StandardCharsets.UTF_8));
            out.flush();
            socket.shutdownOutput();
            if (bytes.contains("/whole")) {
                socket.getInputStream().readAllBytes(); // the answer
            }
        }
    }
}
