package dev.sluice.callback;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signatures: {@code v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">}
 * for each configured secret, space-separated, the first secret first.
 */
public final class WebhookSigner {

    private static final String PREFIX = "whsec_";
    private static final String HMAC = "HmacSHA256";

    private final List<SecretKeySpec> keys;

    public WebhookSigner(List<String> secrets) {
        List<SecretKeySpec> parsed = new ArrayList<>();
        for (int i = 0; i < secrets.size(); i++) {
            parsed.add(key(secrets.get(i).strip(), i + 1));
        }
        this.keys = List.copyOf(parsed);
    }

    private static SecretKeySpec key(String secret, int position) {
        if (!secret.startsWith(PREFIX)) {
            throw new IllegalArgumentException(
                    "sluice.callback.signing-secrets: secret " + position + " must have the form whsec_<base64>");
        }
        try {
            byte[] bytes = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
            if (bytes.length < 24) {
                throw new IllegalArgumentException(
                        "sluice.callback.signing-secrets: secret " + position + " is shorter than 24 bytes");
            }
            return new SecretKeySpec(bytes, HMAC);
        } catch (IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("sluice.")) {
                throw e;
            }
            throw new IllegalArgumentException(
                    "sluice.callback.signing-secrets: secret " + position + " is not valid base64 after whsec_");
        }
    }

    public boolean canSign() {
        return !keys.isEmpty();
    }

    /** The {@code webhook-signature} header value. */
    public String sign(String webhookId, long timestamp, byte[] body) {
        try {
            return sign(webhookId, timestamp, new ByteArrayInputStream(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code webhook-signature} header value, reading the body once, whatever its size. */
    public String sign(String webhookId, long timestamp, InputStream body) throws IOException {
        byte[] prefix = (webhookId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        List<Mac> macs = keys.stream().map(key -> mac(key, prefix)).toList();
        byte[] block = new byte[8192];
        int n;
        while ((n = body.read(block)) >= 0) {
            for (Mac mac : macs) {
                mac.update(block, 0, n);
            }
        }
        return macs.stream()
                .map(mac -> "v1," + Base64.getEncoder().encodeToString(mac.doFinal()))
                .collect(Collectors.joining(" "));
    }

    private static Mac mac(SecretKeySpec key, byte[] prefix) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            mac.update(prefix);
            return mac;
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 unavailable", e);
        }
    }
}
