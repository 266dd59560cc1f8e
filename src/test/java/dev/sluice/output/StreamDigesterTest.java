package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Digests;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The digest of a whole stream, taken chunk by chunk, against a one-shot
 * SHA-256 and a plain count of its newlines; with secrets, against the whole
 * stream masked at once, as the logs endpoint serves it.
 */
class StreamDigesterTest {

    /** The digest of a stream given whole: what any chunking must give. */
    static StreamDigest reference(byte[] stream) {
        return new StreamDigest(Digests.sha256(stream), stream.length, Digests.lines(stream));
    }

    /** The digest of the stream masked whole, as the logs endpoint serves it read from offset 0 to its end. */
    private static StreamDigest maskedReference(byte[] stream, List<String> secrets) {
        byte[] masked = stream.clone();
        new SecretMasker(secrets, 8).mask(masked, 0, masked.length, true, true);
        return reference(masked);
    }

    private static StreamDigest digest(byte[] stream, List<Integer> chunks, SecretMasker masker) {
        StreamDigester digester = new StreamDigester(masker);
        Chunks.feed(stream, chunks, digester::update);
        return digester.finish();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void knownStreamsHaveTheirKnownDigests() {
        assertThat(digest(new byte[0], List.of(1), SecretMasker.NONE))
                .isEqualTo(new StreamDigest("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", 0, 0));
        assertThat(digest(utf8("abc"), List.of(1), SecretMasker.NONE))
                .isEqualTo(new StreamDigest("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", 3, 0));
    }

    @Test
    void linesCountNewlinesSoAnUnterminatedLastLineIsNotCounted() {
        assertThat(digest(utf8("one\ntwo"), List.of(3), SecretMasker.NONE).lines())
                .isEqualTo(1);
        assertThat(digest(utf8("one\ntwo\n"), List.of(3), SecretMasker.NONE).lines())
                .isEqualTo(2);
        assertThat(digest(utf8("\n\n\r\n"), List.of(1), SecretMasker.NONE).lines())
                .isEqualTo(3);
        // A byte one above a newline next to it is not one, counted eight bytes at a time.
        assertThat(digest(utf8("\n\u000b\n\u000b\n\u000b\n\u000b\n\u000b"), List.of(10), SecretMasker.NONE)
                        .lines())
                .isEqualTo(5);
    }

    @Property(tries = 300)
    void anyChunkingGivesTheDigestOfTheWholeStream(
            @ForAll("streams") byte[] stream, @ForAll("chunkSizes") List<Integer> chunks) {
        assertThat(digest(stream, chunks, SecretMasker.NONE)).isEqualTo(reference(stream));
    }

    /**
     * Few letters and short secrets over them, so secrets occur often, overlap
     * each other and straddle chunk edges in every way.
     */
    @Property(tries = 500)
    void withSecretsAnyChunkingGivesTheDigestOfTheStreamMaskedWhole(
            @ForAll("dense") String text,
            @ForAll("secrets") List<String> secrets,
            @ForAll("smallChunks") List<Integer> chunks) {
        byte[] stream = utf8(text);
        assertThat(digest(stream, chunks, new SecretMasker(secrets, 8))).isEqualTo(maskedReference(stream, secrets));
    }

    @Test
    void aSecretIsMaskedAcrossChunksAndOverlappingSecretsAcrossTheEdgeOfWhatWasDigested() {
        List<String> secrets = List.of("abcd", "cdef");
        byte[] stream = utf8("xxabcdefxx\nabcd\n");
        for (int size = 1; size <= stream.length; size++) {
            assertThat(digest(stream, List.of(size), new SecretMasker(secrets, 8)))
                    .isEqualTo(reference(utf8("xx******xx\n****\n")));
        }
    }

    @Test
    void aSecretLongerThanEveryChunkIsStillMasked() {
        String secret = "-----BEGIN KEY-----" + "k".repeat(3000) + "-----END KEY-----";
        byte[] stream = utf8("key:\n" + secret + "\ndone\n");
        StreamDigest digest = digest(stream, List.of(1000, 7), new SecretMasker(List.of(secret), 8));
        assertThat(digest).isEqualTo(reference(utf8("key:\n" + "*".repeat(secret.length()) + "\ndone\n")));
    }

    @Provide
    Arbitrary<byte[]> streams() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(5000),
                Arbitraries.of((byte) '\n', (byte) 'a', (byte) 0x8A, (byte) 0x0B)
                        .array(byte[].class)
                        .ofMaxSize(5000));
    }

    @Provide
    Arbitrary<String> dense() {
        return Arbitraries.strings().withChars("abc\n").ofMaxLength(600);
    }

    @Provide
    Arbitrary<List<String>> secrets() {
        return Arbitraries.strings()
                .withChars("abc\n")
                .ofMinLength(2)
                .ofMaxLength(7)
                .list()
                .ofMinSize(1)
                .ofMaxSize(3);
    }

    @Provide
    Arbitrary<List<Integer>> chunkSizes() {
        return chunks(1100);
    }

    @Provide
    Arbitrary<List<Integer>> smallChunks() {
        return chunks(40);
    }

    private static Arbitrary<List<Integer>> chunks(int largest) {
        return Arbitraries.integers()
                .between(0, largest)
                .list()
                .ofMinSize(1)
                .ofMaxSize(6)
                .filter(l -> l.stream().anyMatch(n -> n > 0));
    }
}
