package dev.sluice.hashing;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The worker's SHA-256, for stream digests, artifacts and fingerprints: the
 * JDK's own (its {@code SUN} provider on a stock runtime), whose compression
 * loop the C2 compiler replaces with the CPU's SHA instructions, about 1.9 GB/s
 * on this project's machines (ADR 0048).
 */
public final class Sha256 {

    private Sha256() {}

    /** A new SHA-256 digest. */
    public static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** A digest in the state {@code digest} is in now; {@code digest} goes on unchanged. */
    public static MessageDigest copy(MessageDigest digest) {
        try {
            return (MessageDigest) digest.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException(digest.getProvider().getName() + "'s SHA-256 cannot be copied", e);
        }
    }
}
