package dev.sluice.container.files;

import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.sluice.container.sandbox.Labels;

/**
 * A container's own key for its witness's record (ADR 0070). The worker draws
 * it at the create and keeps it on the container as a label, which only a
 * holder of the engine's API can read; it hands it to the witness in a file
 * the witness reads and removes before the command exists. The witness
 * authenticates its record with HMAC-SHA256 under it, so a record the command
 * wrote, or one from another container, fails the check.
 */
public final class WitnessKey {

    /** The label that keeps it, in lowercase hex. */
    public static final String LABEL = Labels.PREFIX + "witness-key";

    static final int BYTES = 32;
    private static final String HMAC = "HmacSHA256";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    private WitnessKey(byte[] key) {
        this.key = key;
    }

    /** A new key, for a container about to be created. */
    public static WitnessKey random() {
        byte[] key = new byte[BYTES];
        RANDOM.nextBytes(key);
        return new WitnessKey(key);
    }

    /** The key a container's label keeps; empty when it has none (it was created without one) or it is not a key. */
    public static Optional<WitnessKey> fromLabel(String label) {
        if (label == null || !label.matches("[0-9a-f]{" + 2 * BYTES + "}")) {
            return Optional.empty();
        }
        return Optional.of(new WitnessKey(HexFormat.of().parseHex(label)));
    }

    public String label() {
        return HexFormat.of().formatHex(key);
    }

    /** The key as the witness reads it from its file. */
    byte[] bytes() {
        return key.clone();
    }

    /** Whether {@code mac} (lowercase hex) is the HMAC-SHA256 of {@code message} under this key, in constant time. */
    boolean authenticates(byte[] message, int length, String mac) {
        if (mac == null || !mac.matches("[0-9a-f]{64}")) {
            return false;
        }
        try {
            Mac hmac = Mac.getInstance(HMAC);
            hmac.init(new SecretKeySpec(key, HMAC));
            hmac.update(message, 0, length);
            return MessageDigest.isEqual(hmac.doFinal(), HexFormat.of().parseHex(mac));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HMAC-SHA256 is part of every Java runtime", e);
        }
    }

    /** Never the key itself: it could reach a log. */
    @Override
    public String toString() {
        return "WitnessKey[…]";
    }
}
