package dev.sluice.api;

import java.util.Map;
import java.util.Optional;

import dev.sluice.actions.ProblemException;

/**
 * One byte range of a representation of known size, as a {@code Range}
 * header asks for it (RFC 9110, section 14): {@code bytes=a-b}, {@code bytes=a-}
 * or {@code bytes=-n}. A header this does not serve (another unit, several
 * ranges, bad syntax) is ignored, as the RFC allows, and the whole
 * representation is sent; a range that starts past its end is refused with
 * 416 and the size.
 */
record ByteRange(long first, long last) {

    long length() {
        return last - first + 1;
    }

    /** The {@code Content-Range} of a 206 answer. */
    String contentRange(long size) {
        return "bytes " + first + "-" + last + "/" + size;
    }

    /** The range asked for, empty for the whole; throws a 416 problem when it cannot be served. */
    static Optional<ByteRange> of(String header, long size) {
        if (header == null || !header.startsWith("bytes=") || header.indexOf(',') >= 0) {
            return Optional.empty();
        }
        String spec = header.substring("bytes=".length()).trim();
        int dash = spec.indexOf('-');
        if (dash < 0) {
            return Optional.empty();
        }
        Long first = number(spec.substring(0, dash).trim());
        Long last = number(spec.substring(dash + 1).trim());
        boolean invalid = first != null && first < 0 || last != null && last < 0;
        if (invalid || first == null && last == null || first != null && last != null && last < first) {
            return Optional.empty();
        }
        if (first == null) { // the last n bytes
            if (last == 0 || size == 0) {
                throw unsatisfiable(size);
            }
            return Optional.of(new ByteRange(Math.max(0, size - last), size - 1));
        }
        if (first >= size) {
            throw unsatisfiable(size);
        }
        return Optional.of(new ByteRange(first, last == null ? size - 1 : Math.min(last, size - 1)));
    }

    /** Digits only: {@code null} for none, -1 for anything else (a sign, a letter, more digits than a position has). */
    private static Long number(String digits) {
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return digits.isEmpty() ? null : -1L;
        }
        return Long.parseLong(digits);
    }

    private static ProblemException unsatisfiable(long size) {
        return new ProblemException(
                416,
                "range-not-satisfiable",
                "The range is outside the artifact",
                "the artifact has " + size + " bytes; a range must start before its end",
                null,
                Map.of("Content-Range", "bytes */" + size));
    }
}
