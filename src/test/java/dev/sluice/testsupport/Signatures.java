package dev.sluice.testsupport;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Verifies a delivery the way a receiver's Standard Webhooks library does,
 * written here from the specification and independent of the worker's signer.
 */
public final class Signatures {

    /** The test profile's signing secrets (application.properties, %test), and the packaged test worker's. */
    public static final List<String> TEST_SECRETS = List.of(
            "whsec_qhzrlqvCCQansoUVqX/RmyqokDRNgf0AqdNh3W6noKQ=", "whsec_eRg4hex1mYOtgeS+UYRbNjnyAzUq3khARJNnUi4H+As=");

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SecureRandom RANDOM = new SecureRandom();

    private Signatures() {}

    /** A secret of 32 random bytes, as {@code echo "whsec_$(openssl rand -base64 32)"} makes one. */
    public static String freshSecret() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return "whsec_" + Base64.getEncoder().encodeToString(key);
    }

    /** True when the signature header holds a valid v1 signature, by {@code secret}, of id, timestamp and body. */
    public static boolean verifies(Receiver.Request request, String secret) {
        String expected =
                sign(secret, request.header("webhook-id"), request.header("webhook-timestamp"), request.body());
        return Arrays.asList(request.header("webhook-signature").split(" ")).contains("v1," + expected);
    }

    /**
     * Asks the standardwebhooks library (Node) whether {@code body} with
     * {@code headers} is signed by {@code secret}, as a receiver would.
     */
    public static Program.Result verifyWithLibrary(String secret, Map<String, String> headers, byte[] body) {
        ObjectNode delivery = JSON.createObjectNode();
        delivery.put("secret", secret);
        delivery.set("headers", JSON.valueToTree(headers));
        delivery.put("body", Base64.getEncoder().encodeToString(body));
        return Program.node(delivery.toString(), "verify-webhook.mjs");
    }

    private static String sign(String secret, String id, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
