import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The demo's callback receiver: verifies each callback the Standard Webhooks
 * way before it believes a byte of it, answers 204 (or 401), and writes every
 * verified body to the output directory as {@code <webhook-id>.json}.
 *
 * <p>Run with {@code java scripts/demo/Receiver.java PORT SECRET OUT_DIR}.
 */
public class Receiver {

    private static final long TOLERANCE_SECONDS = 300;

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        byte[] key = Base64.getDecoder().decode(args[1].substring("whsec_".length()));
        Path out = Path.of(args[2]);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 16);
        server.createContext("/", exchange -> receive(exchange, key, out));
        server.start();
        System.out.println("receiver: listening on http://127.0.0.1:" + port + "/callback");
    }

    private static void receive(HttpExchange exchange, byte[] key, Path out) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            String id = exchange.getRequestHeaders().getFirst("webhook-id");
            String timestamp = exchange.getRequestHeaders().getFirst("webhook-timestamp");
            String signatures = exchange.getRequestHeaders().getFirst("webhook-signature");
            String refusal = refusal(key, id, timestamp, signatures, body);
            if (refusal != null) {
                System.out.println("receiver: REFUSED a callback: " + refusal);
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            System.out.println("receiver: signature verified for " + id + " (" + body.length + " bytes)");
            Path file = out.resolve(id.replaceAll("[^A-Za-z0-9_.-]", "_") + ".json");
            Files.write(file, body);
            exchange.sendResponseHeaders(204, -1);
        }
    }

    /** Why the callback cannot be trusted, or null when one of its signatures verifies. */
    private static String refusal(byte[] key, String id, String timestamp, String signatures, byte[] body) {
        if (id == null || timestamp == null || signatures == null) {
            return "webhook-id, webhook-timestamp or webhook-signature is missing";
        }
        long age = Math.abs(Instant.now().getEpochSecond() - Long.parseLong(timestamp));
        if (age > TOLERANCE_SECONDS) {
            return "timestamp is " + age + " s away from now";
        }
        byte[] expected;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            expected = mac.doFinal(body);
        } catch (Exception e) {
            return "cannot compute HMAC-SHA256: " + e;
        }
        for (String signature : signatures.split(" ")) {
            if (signature.startsWith("v1,")
                    && MessageDigest.isEqual(expected, Base64.getDecoder().decode(signature.substring(3)))) {
                return null;
            }
        }
        return "no v1 signature matches";
    }
}
