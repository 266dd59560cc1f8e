package dev.sluice.output;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Finds every occurrence of a fixed set of byte patterns, overlapping ones
 * included, in one pass (Wu–Manber with blocks of two bytes, ADR 0030). It
 * looks at the last two bytes of a window as long as the shortest pattern: a
 * pair that ends no pattern's window there lets it skip ahead by as much as
 * the window less one, so text that holds no pattern is read a pair every few
 * bytes, whatever the number of patterns. Built once per dispatch.
 */
final class PatternMatcher {

    /** Windows longer than this gain little and would not fit a shift in a byte. */
    private static final int MAX_WINDOW = 64;

    private static final int BLOCKS = 1 << 16;

    /** Patterns of one byte (a secret of one byte, where the operator allows it): found by a plain scan. */
    private final byte[] singles;

    private final int window;
    private final byte[] shift;
    /** Sorted pairs that end some pattern's window, and for each the patterns whose window they end. */
    private final int[] endBlocks;

    private final byte[][][] endPatterns;

    PatternMatcher(List<byte[]> patterns) {
        List<byte[]> blocked = new ArrayList<>();
        ByteArrayOutputStream single = new ByteArrayOutputStream();
        for (byte[] p : patterns) {
            if (p.length == 1) {
                single.write(p[0]);
            } else if (p.length > 1) {
                blocked.add(p);
            }
        }
        this.singles = single.toByteArray();
        this.window = Math.min(
                MAX_WINDOW, blocked.stream().mapToInt(p -> p.length).min().orElse(2));
        this.shift = new byte[blocked.isEmpty() ? 0 : BLOCKS];
        Arrays.fill(shift, (byte) (window - 1));
        TreeMap<Integer, List<byte[]>> ends = new TreeMap<>();
        for (byte[] p : blocked) {
            for (int j = 1; j < window; j++) {
                int block = block(p, j);
                shift[block] = (byte) Math.min(shift[block], window - 1 - j);
            }
            ends.computeIfAbsent(block(p, window - 1), k -> new ArrayList<>()).add(p);
        }
        this.endBlocks = ends.keySet().stream().mapToInt(Integer::intValue).toArray();
        this.endPatterns =
                ends.values().stream().map(l -> l.toArray(new byte[0][])).toArray(byte[][][]::new);
    }

    /**
     * Marks in {@code hit} (indexed from {@code from}) every byte of
     * {@code b[from, to)} inside an occurrence that lies wholly in that range;
     * true when it found one.
     */
    boolean mark(byte[] b, int from, int to, boolean[] hit) {
        boolean found = false;
        if (shift.length > 0) {
            for (int i = from + window - 1; i < to; ) {
                int s = shift[block(b, i)];
                if (s > 0) {
                    i += s;
                } else {
                    found |= verify(b, from, to, i, hit);
                    i++;
                }
            }
        }
        for (byte single : singles) {
            for (int i = ByteScan.indexOf(b, from, to, single); i >= 0; i = ByteScan.indexOf(b, i + 1, to, single)) {
                hit[i - from] = true;
                found = true;
            }
        }
        return found;
    }

    /** Tries the patterns whose window ends with the pair ending at {@code end}. */
    private boolean verify(byte[] b, int from, int to, int end, boolean[] hit) {
        int k = Arrays.binarySearch(endBlocks, block(b, end));
        if (k < 0) {
            return false;
        }
        boolean found = false;
        int start = end - window + 1;
        for (byte[] p : endPatterns[k]) {
            if (start + p.length <= to && Arrays.equals(b, start, start + p.length, p, 0, p.length)) {
                Arrays.fill(hit, start - from, start - from + p.length, true);
                found = true;
            }
        }
        return found;
    }

    /** The pair of bytes ending at {@code i}. */
    private static int block(byte[] b, int i) {
        return (b[i - 1] & 0xFF) << 8 | (b[i] & 0xFF);
    }
}
