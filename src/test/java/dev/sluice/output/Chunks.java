package dev.sluice.output;

import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/** A stream fed in chunks of the given sizes, round robin, through one reused buffer, as the attach path does. */
final class Chunks {

    /** Receives one chunk; the bytes are only valid until it returns. */
    interface Sink {
        void write(byte[] chunk, int offset, int count);
    }

    private Chunks() {}

    /** Chunk sizes for property tests: up to 8 sizes to cycle through, empty chunks among them. */
    static Arbitrary<List<Integer>> sizes() {
        return Arbitraries.integers()
                .between(0, 1100)
                .list()
                .ofMinSize(1)
                .ofMaxSize(8)
                .filter(l -> l.stream().anyMatch(n -> n > 0));
    }

    static void feed(byte[] stream, List<Integer> sizes, Sink sink) {
        byte[] reused = new byte[8192];
        int pos = 0;
        for (int i = 0; pos < stream.length; i++) {
            int n = Math.min(Math.min(sizes.get(i % sizes.size()), reused.length), stream.length - pos);
            System.arraycopy(stream, pos, reused, 0, n);
            sink.write(reused, 0, n);
            // Overwritten at once, so a receiver that kept a reference instead of a copy shows.
            Arrays.fill(reused, 0, n, (byte) '?');
            pos += n;
        }
    }
}
