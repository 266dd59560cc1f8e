package dev.sluice.testsupport;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies a delivery the way a receiver's Standard Webhooks library does,
 * written here from the specification and independent of the worker's signer.
 */
public final class Signatures {

    /** The test profile's signing secrets (application.properties, %test). */
    public static final List<String> TEST_SECRETS =
            List.of("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");

    private Signatures() {}

    /** True when the signature header holds a valid v1 signature, by {@code secret}, of id, timestamp and body. */
    public static boolean verifies(Receiver.Request request, String secret) {
        String expected =
                sign(secret, request.header("webhook-id"), request.header("webhook-timestamp"), request.body());
        return Arrays.asList(request.header("webhook-signature").split(" ")).contains("v1," + expected);
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
