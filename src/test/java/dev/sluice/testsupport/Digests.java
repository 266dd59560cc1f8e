package dev.sluice.testsupport;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Reference digests, computed whole and plainly, to check a result's stream digests against. */
public final class Digests {

    private Digests() {}

    /** SHA-256 of the bytes, in lowercase hex. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** The newline bytes in them, as {@code wc -l} counts lines. */
    public static long lines(byte[] bytes) {
        long n = 0;
        for (byte b : bytes) {
            if (b == '\n') {
                n++;
            }
        }
        return n;
    }
}
