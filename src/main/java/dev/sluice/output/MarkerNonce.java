package dev.sluice.output;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * The per-dispatch secret that makes a truncation marker genuine (ADR 0025):
 * twelve URL-safe characters (72 random bits) that every marker the worker
 * writes for the dispatch carries, and its overflow records name. The process
 * never sees it, so a line it prints cannot carry it.
 */
public final class MarkerNonce {

    /** 9 random bytes are 12 characters of unpadded base64url. */
    private static final int RANDOM_BYTES = 9;

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder URL_SAFE = Base64.getUrlEncoder().withoutPadding();

    private MarkerNonce() {}

    public static String random() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return URL_SAFE.encodeToString(bytes);
    }
}
