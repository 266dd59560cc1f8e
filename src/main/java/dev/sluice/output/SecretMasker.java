package dev.sluice.output;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Masks secret values in captured bytes, replacing each byte of every
 * occurrence with {@code *}: the values themselves and the forms a process
 * commonly prints them in ({@link SecretVariants}, ADR 0030), all found in one
 * pass by a {@link PatternMatcher} built once per dispatch. Every occurrence of
 * every form is masked, overlapping ones together. Masking keeps lengths, so
 * byte counts and log offsets stay true. A window cut out of a longer stream
 * can hold part of a form at its edges; those parts are masked too: a form's
 * suffix at a start that is not the stream's start, a prefix at an end that is
 * not the stream's end, and the whole window when it is cut at both ends and
 * lies inside a form.
 */
public final class SecretMasker {

    public static final SecretMasker NONE = new SecretMasker(List.of(), 1);

    private static final byte MASK = '*';

    private final PatternMatcher matcher;
    private final List<byte[]> variants;
    private final int longest;

    /**
     * @param values  the secret values; null and empty ones are ignored
     * @param minPart the fewest bytes a form other than a whole value (a line, an encoding's inner part) must have
     *                to be masked on its own: the smallest secret the worker accepts
     */
    public SecretMasker(Collection<String> values, int minPart) {
        this.variants = values.stream()
                .filter(v -> v != null && !v.isEmpty())
                .distinct()
                .flatMap(v -> SecretVariants.of(v, minPart).stream())
                .map(ByteBuffer::wrap)
                .distinct()
                .map(ByteBuffer::array)
                .toList();
        this.matcher = new PatternMatcher(variants);
        this.longest = variants.stream().mapToInt(s -> s.length).max().orElse(0);
    }

    public boolean isEmpty() {
        return variants.isEmpty();
    }

    /**
     * Bytes a window must reach past its edges so any form overlapping the
     * window lies wholly inside: the longest form less one. It bounds what the
     * digest holds back between chunks too.
     */
    public int margin() {
        return Math.max(0, longest - 1);
    }

    /** The text with every form of a secret in it masked: for messages that may quote what a process gave. */
    public String mask(String text) {
        if (isEmpty() || text == null) {
            return text;
        }
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        mask(bytes, 0, bytes.length, true, true);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /**
     * A failure to log, its messages and those of its causes masked, its stack
     * kept: an engine's or a library's message may quote what it was given.
     */
    public Throwable mask(Throwable failure) {
        if (isEmpty() || failure == null) {
            return failure;
        }
        Throwable masked = new MaskedFailure(mask(failure.toString()), mask(failure.getCause()));
        masked.setStackTrace(failure.getStackTrace());
        return masked;
    }

    /** Stands in for a failure whose message was masked; its message starts with the original's class. */
    private static final class MaskedFailure extends RuntimeException {
        MaskedFailure(String message, Throwable cause) {
            super(message, cause);
        }

        @Override
        public String toString() {
            return getMessage();
        }
    }

    /**
     * Masks {@code bytes[from, to)}. {@code streamStart} / {@code streamEnd} say
     * whether the window begins / ends where the stream does; where it does not,
     * partial secrets at that edge are masked.
     */
    public void mask(byte[] bytes, int from, int to, boolean streamStart, boolean streamEnd) {
        if (isEmpty() || to <= from) {
            return;
        }
        // Find every range on the original bytes first, then mask, so overlapping secrets are all found.
        boolean[] hit = new boolean[to - from];
        markOccurrences(bytes, from, to, hit);
        for (byte[] form : variants) {
            if (!streamStart) {
                markSuffixAtStart(bytes, from, to, form, hit);
            }
            if (!streamEnd) {
                markPrefixAtEnd(bytes, from, to, form, hit);
            }
            if (!streamStart && !streamEnd && insideForm(bytes, from, to, form)) {
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
        return matcher.mark(bytes, from, to, hit);
    }

    /** Replaces each byte of {@code bytes[from, to)} marked in {@code hit} (indexed from {@code from}). */
    static void cover(byte[] bytes, int from, int to, boolean[] hit) {
        for (int i = from; i < to; i++) {
            if (hit[i - from]) {
                bytes[i] = MASK;
            }
        }
    }

    /** Whether the whole window is a piece of a form (the window starts and ends inside one occurrence). */
    private static boolean insideForm(byte[] bytes, int from, int to, byte[] secret) {
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
