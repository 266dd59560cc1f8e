package dev.sluice.output;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Masks secret values in captured bytes, replacing each byte of every
 * occurrence with {@code *}. Masking keeps lengths, so byte counts and log
 * offsets stay true. A window cut out of a longer stream can hold part of a
 * secret at its edges; those parts are masked too: a secret's suffix at a start
 * that is not the stream's start, a prefix at an end that is not the stream's
 * end, and the whole window when it is cut at both ends and lies inside a
 * secret. Only exact byte values are masked, not encodings of them.
 */
public final class SecretMasker {

    public static final SecretMasker NONE = new SecretMasker(List.of());

    private static final byte MASK = '*';

    private final List<byte[]> secrets;
    private final int longest;

    public SecretMasker(Collection<String> values) {
        this.secrets = values.stream()
                .filter(v -> v != null && !v.isEmpty())
                .map(v -> v.getBytes(StandardCharsets.UTF_8))
                .distinct()
                .toList();
        this.longest = secrets.stream().mapToInt(s -> s.length).max().orElse(0);
    }

    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    /** Bytes a window must reach past its edges so any secret overlapping the window lies wholly inside. */
    public int margin() {
        return Math.max(0, longest - 1);
    }

    /**
     * Masks {@code bytes[from, to)}. {@code streamStart} / {@code streamEnd} say
     * whether the window begins / ends where the stream does; where it does not,
     * partial secrets at that edge are masked.
     */
    public void mask(byte[] bytes, int from, int to, boolean streamStart, boolean streamEnd) {
        if (secrets.isEmpty() || to <= from) {
            return;
        }
        // Find every range on the original bytes first, then mask, so overlapping secrets are all found.
        boolean[] hit = new boolean[to - from];
        markOccurrences(bytes, from, to, hit);
        for (byte[] secret : secrets) {
            if (!streamStart) {
                markSuffixAtStart(bytes, from, to, secret, hit);
            }
            if (!streamEnd) {
                markPrefixAtEnd(bytes, from, to, secret, hit);
            }
            if (!streamStart && !streamEnd && insideSecret(bytes, from, to, secret)) {
                Arrays.fill(hit, true);
            }
        }
        cover(bytes, from, to, hit);
    }

    /**
     * Marks in {@code hit} (indexed from {@code from}) every byte of
     * {@code bytes[from, to)} that lies in a whole occurrence of a secret,
     * leaving the bytes as they are and marks already set as they were; true
     * when it found one.
     */
    boolean markOccurrences(byte[] bytes, int from, int to, boolean[] hit) {
        boolean found = false;
        for (byte[] secret : secrets) {
            found |= markOccurrences(bytes, from, to, secret, hit);
        }
        return found;
    }

    /** Replaces each byte of {@code bytes[from, to)} marked in {@code hit} (indexed from {@code from}). */
    static void cover(byte[] bytes, int from, int to, boolean[] hit) {
        for (int i = from; i < to; i++) {
            if (hit[i - from]) {
                bytes[i] = MASK;
            }
        }
    }

    private static boolean markOccurrences(byte[] bytes, int from, int to, byte[] secret, boolean[] hit) {
        boolean found = false;
        int starts = to - secret.length + 1;
        for (int i = ByteScan.indexOf(bytes, from, starts, secret[0]);
                i >= 0;
                i = ByteScan.indexOf(bytes, i + 1, starts, secret[0])) {
            if (Arrays.equals(bytes, i, i + secret.length, secret, 0, secret.length)) {
                Arrays.fill(hit, i - from, i - from + secret.length, true);
                found = true;
            }
        }
        return found;
    }

    /** Whether the whole window is a piece of the secret (the window starts and ends inside one occurrence). */
    private static boolean insideSecret(byte[] bytes, int from, int to, byte[] secret) {
        int length = to - from;
        for (int i = 1; i + length < secret.length; i++) {
            if (Arrays.equals(bytes, from, to, secret, i, i + length)) {
                return true;
            }
        }
        return false;
    }

    private static void markSuffixAtStart(byte[] bytes, int from, int to, byte[] secret, boolean[] hit) {
        for (int k = Math.min(secret.length - 1, to - from); k > 0; k--) {
            if (Arrays.equals(bytes, from, from + k, secret, secret.length - k, secret.length)) {
                Arrays.fill(hit, 0, k, true);
                return;
            }
        }
    }

    private static void markPrefixAtEnd(byte[] bytes, int from, int to, byte[] secret, boolean[] hit) {
        for (int k = Math.min(secret.length - 1, to - from); k > 0; k--) {
            if (Arrays.equals(bytes, to - k, to, secret, 0, k)) {
                Arrays.fill(hit, to - from - k, to - from, true);
                return;
            }
        }
    }
}
