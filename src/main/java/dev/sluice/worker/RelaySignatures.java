package dev.sluice.worker;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.sluice.store.Keys;

/**
 * How the replicas on one store prove to each other that a relayed read
 * comes from one of them, and for which tenant (ADR 0072). The replica that
 * relays signs the read with the first of {@code sluice.worker.relay-secrets}:
 * an HMAC-SHA256 over the method, the path with its query, the tenant the
 * read is for, the worker it goes to, the time and a nonce. The replica it
 * reaches takes it only if it verifies with one of its secrets (rotation),
 * names this worker, was signed within {@link #VALIDITY} of now, asks for a
 * read a relay may ask for, and carries a nonce not seen before; it then
 * acts for that tenant alone, and never for a client's token, which a relay
 * no longer carries.
 */
public final class RelaySignatures {

    /** The header that carries a relay's signature; the replica it reaches answers from what it holds. */
    public static final String HEADER = "Sluice-Relay";

    /**
     * The header relays carried before ADR 0072, beside the client's own
     * token. A request with it and no valid signature is refused, like any
     * relay that does not verify.
     */
    public static final String UNSIGNED = "Sluice-Forwarded-By";

    /** How far from now a relay's time may be: its age, or a clock a little ahead. */
    static final Duration VALIDITY = Duration.ofSeconds(30);

    /** The shortest secret taken, in bytes: an HMAC key as long as its hash. */
    static final int MIN_SECRET_BYTES = 32;

    /** Nonces remembered at once; past it relays are refused until the oldest lapse, never forgotten early. */
    static final int MAX_NONCES = 100_000;

    private static final String SETTING = "sluice.worker.relay-secrets";
    private static final String VERSION = "v1";
    private static final Pattern TENANT = Pattern.compile(Keys.TENANT);
    private static final Pattern NONCE = Pattern.compile("[A-Za-z0-9_-]{16,64}");
    private static final Pattern SIGNATURE = Pattern.compile("[A-Za-z0-9_-]{43}");
    private static final Pattern SECONDS = Pattern.compile("[0-9]{1,12}");
    private static final int MAX_HEADER = 512;

    /** Whether a relayed read is taken, and for whom. */
    public sealed interface Verdict {

        /** Signed by a replica of this store, for this worker, now: answer it for {@code tenant}. */
        record Accepted(String tenant) implements Verdict {}

        /** Not taken; {@code why} is for this worker's log, never for the caller. */
        record Refused(String why) implements Verdict {}
    }

    private final List<SecretKeySpec> keys;
    private final String self;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    /** Each nonce taken, until its relay's time is out of the validity anyway. */
    private final Map<String, Instant> seen = new ConcurrentHashMap<>();

    private RelaySignatures(List<SecretKeySpec> keys, String self, Clock clock) {
        this.keys = List.copyOf(keys);
        this.self = self;
        this.clock = clock;
    }

    /**
     * The signatures of worker {@code self} with {@code secrets}: each the
     * base64 of at least 32 random bytes, the first signing. A malformed entry
     * is named by its position, never shown.
     */
    public static RelaySignatures of(Optional<List<String>> secrets, String self, Clock clock) {
        List<SecretKeySpec> keys = new ArrayList<>();
        List<String> entries = secrets.orElse(List.of());
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i).strip();
            if (entry.isEmpty()) {
                continue;
            }
            byte[] key;
            try {
                key = Base64.getDecoder().decode(entry);
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(SETTING + ", entry " + (i + 1)
                        + ": not base64; make one with: head -c 32 /dev/urandom | base64");
            }
            if (key.length < MIN_SECRET_BYTES) {
                throw new IllegalStateException(SETTING + ", entry " + (i + 1) + ": " + key.length
                        + " bytes; a secret is the base64 of at least " + MIN_SECRET_BYTES + " random bytes");
            }
            keys.add(new SecretKeySpec(key, "HmacSHA256"));
        }
        return new RelaySignatures(keys, self, clock);
    }

    /** Whether this worker has a secret to sign and verify relays with. */
    public boolean configured() {
        return !keys.isEmpty();
    }

    /**
     * The {@link #HEADER} value of a {@code method} read of {@code target} (a
     * path with its query, as sent) for {@code tenant}, to worker {@code to};
     * empty when this worker has no secret.
     */
    public Optional<String> sign(String method, String target, String tenant, String to) {
        if (keys.isEmpty()) {
            return Optional.empty();
        }
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        String nonce = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        String seconds = Long.toString(clock.instant().getEpochSecond());
        String signature = mac(keys.get(0), method, target, tenant, to, seconds, nonce);
        return Optional.of(VERSION + ";tenant=" + tenant + ";ts=" + seconds + ";nonce=" + nonce + ";sig=" + signature);
    }

    /** Whether a {@code method} request for {@code target} carrying {@code header} is a relay to take, and for whom. */
    public Verdict verify(String header, String method, String target) {
        if (keys.isEmpty()) {
            return new Verdict.Refused("this worker takes no relayed reads: " + SETTING + " is not set");
        }
        if (header == null) {
            return new Verdict.Refused("a relay without a signature (a release before ADR 0072, or not a replica)");
        }
        Map<String, String> fields = fields(header);
        if (fields == null) {
            return new Verdict.Refused("a malformed " + HEADER + " header");
        }
        if (!"GET".equals(method)
                || target == null
                || !PeerReads.PATHS.matcher(target).matches()) {
            return new Verdict.Refused("not a read a relay may ask for");
        }
        long seconds = Long.parseLong(fields.get("ts"));
        Instant signed = Instant.ofEpochSecond(seconds);
        Instant now = clock.instant();
        if (Duration.between(signed, now).abs().compareTo(VALIDITY) > 0) {
            return new Verdict.Refused("signed at " + signed + ", more than " + VALIDITY.toSeconds()
                    + " s from this worker's clock (" + now + ")");
        }
        String tenant = fields.get("tenant");
        String nonce = fields.get("nonce");
        byte[] presented = fields.get("sig").getBytes(StandardCharsets.US_ASCII);
        boolean verified = false;
        for (SecretKeySpec key : keys) { // every key tried, whichever verifies
            String expected = mac(key, method, target, tenant, self, fields.get("ts"), nonce);
            verified |= MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII), presented);
        }
        if (!verified) {
            return new Verdict.Refused("the signature does not verify with this worker's " + SETTING
                    + " (another secret, another worker's read, or a changed path or tenant)");
        }
        return remember(nonce, signed.plus(VALIDITY), now)
                ? new Verdict.Accepted(tenant)
                : new Verdict.Refused("a nonce already taken: a relay replayed");
    }

    /** Takes the nonce until {@code until}; false when it was taken already, or too many are remembered. */
    private boolean remember(String nonce, Instant until, Instant now) {
        if (seen.size() >= MAX_NONCES) {
            seen.values().removeIf(lapse -> lapse.isBefore(now));
            if (seen.size() >= MAX_NONCES) {
                return false;
            }
        }
        return seen.putIfAbsent(nonce, until) == null;
    }

    /** The header's fields, each once and well formed; null for anything else. */
    private static Map<String, String> fields(String header) {
        if (header.length() > MAX_HEADER) {
            return null;
        }
        String[] parts = header.split(";", -1);
        if (parts.length != 5 || !VERSION.equals(parts[0])) {
            return null;
        }
        Map<String, String> fields = new HashMap<>();
        for (int i = 1; i < parts.length; i++) {
            int equals = parts[i].indexOf('=');
            if (equals < 0 || fields.put(parts[i].substring(0, equals), parts[i].substring(equals + 1)) != null) {
                return null;
            }
        }
        boolean wellFormed = TENANT.matcher(fields.getOrDefault("tenant", "")).matches()
                && SECONDS.matcher(fields.getOrDefault("ts", "")).matches()
                && NONCE.matcher(fields.getOrDefault("nonce", "")).matches()
                && SIGNATURE.matcher(fields.getOrDefault("sig", "")).matches();
        return wellFormed ? fields : null;
    }

    private static String mac(SecretKeySpec key, String... parts) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            byte[] digest = mac.doFinal(
                    ("sluice-relay-" + VERSION + "\n" + String.join("\n", parts)).getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }
}
