package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * A range written block by block as the stream arrives is, byte for byte,
 * the range cut from a window masked whole (how log ranges were served before
 * they streamed): for ranges anywhere in a stream thick with secrets and
 * pieces of them, any chunking of the stream, blocks smaller than a secret,
 * logs that lost their beginning, and ranges that run past the stream's end.
 */
class MaskedRangePropertyTest {

    private static final List<String> SECRETS = List.of("s3cr3t-value-1", "an0ther-s3cret");

    @Property(tries = 1500)
    void streamedIsTheWholeWindowMaskedOnce(
            @ForAll("streams") byte[] stream,
            @ForAll @IntRange(min = 0, max = 300) int from,
            @ForAll @IntRange(min = 1, max = 300) int limit,
            @ForAll @IntRange(min = 1, max = 40) int block,
            @ForAll @IntRange(min = 1, max = 64) int chunk,
            @ForAll boolean logStart,
            @ForAll boolean secrets) {
        SecretMasker masker = secrets ? new SecretMasker(SECRETS, 8) : SecretMasker.NONE;
        int to = (int) Math.min(stream.length, (long) from + limit);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MaskedRange range = new MaskedRange(masker, from, to, logStart, out, block);
        int position = 0;
        try {
            while (position < stream.length && !range.complete()) {
                int n = Math.min(chunk, stream.length - position);
                range.accept(stream, position, n);
                position += n;
            }
            range.finish(!range.complete());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }

        assertThat(out.toByteArray()).isEqualTo(wholeWindow(stream, from, limit, logStart, masker));
        assertThat(range.written()).isEqualTo(Math.max(0, to - from));
    }

    /** The range as ContainerLogs.read serves it: one window, margins included, masked at once. */
    static byte[] wholeWindow(byte[] stream, long local, int limit, boolean logStart, SecretMasker masker) {
        long windowStart = Math.max(0, local - masker.margin());
        long windowEnd = local + limit + masker.margin();
        int end = (int) Math.min(stream.length, windowEnd);
        byte[] window = windowStart >= end ? new byte[0] : Arrays.copyOfRange(stream, (int) windowStart, end);
        boolean reachedEnd = stream.length < windowEnd;
        masker.mask(window, 0, window.length, windowStart == 0 && logStart, reachedEnd);
        int cutFrom = (int) Math.min(window.length, local - windowStart);
        int cutTo = (int) Math.min(window.length, local - windowStart + limit);
        return Arrays.copyOfRange(window, cutFrom, cutTo);
    }

    @Provide
    Arbitrary<byte[]> streams() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.of(SECRETS),
                Arbitraries.of(SECRETS).map(s -> s.substring(0, s.length() / 2)),
                Arbitraries.of(SECRETS).map(s -> s.substring(s.length() / 3)),
                Arbitraries.strings().withChars("ab-\n").ofMaxLength(12));
        return piece.list().ofMaxSize(40).map(l -> String.join("", l).getBytes(StandardCharsets.UTF_8));
    }
}
