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
 * for each configured secret, space-separated, the first secret first. A
 * malformed secret is named by its setting and position, never by its value.
 */
public final class WebhookSigner {

    static final String PREFIX = "whsec_";
    private static final String HMAC = "HmacSHA256";

    private final List<SecretKeySpec> keys;

    /** The worker's own secrets, {@code sluice.callback.signing-secrets}. */
    public WebhookSigner(List<String> secrets) {
        this(CallbackConfig.SIGNING_SECRETS, secrets);
    }

    /** The secrets of {@code setting}, which a malformed one's message names. */
    public WebhookSigner(String setting, List<String> secrets) {
        List<SecretKeySpec> parsed = new ArrayList<>();
        for (int i = 0; i < secrets.size(); i++) {
            parsed.add(new SecretKeySpec(key(setting, secrets.get(i).strip(), i + 1), HMAC));
        }
        this.keys = List.copyOf(parsed);
    }

    /** The key a secret stands for; the message of a malformed one names the setting and the position. */
    static byte[] key(String setting, String secret, int position) {
        String where = setting + ": secret " + position;
        if (!secret.startsWith(PREFIX)) {
            throw new IllegalArgumentException(where + " must have the form whsec_<base64>");
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " is not valid base64 after whsec_");
        }
        if (bytes.length < 24) {
            throw new IllegalArgumentException(where + " is shorter than 24 bytes");
        }
        return bytes;
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
