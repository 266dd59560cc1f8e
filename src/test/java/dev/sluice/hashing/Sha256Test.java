package dev.sluice.hashing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;

import org.junit.jupiter.api.Test;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link Sha256} gives FIPS 180-2's answers from the JDK's own provider,
 * whose SHA-256 the C2 compiler turns into the CPU's SHA instructions (ADR
 * 0048); and a copy of a digest goes on from where the digest was, as a
 * stream's digest is checked against an expected one mid-stream
 * ({@code StreamDigester.matchesWritten}), without moving the original.
 */
class Sha256Test {

    /** FIPS 180-2, appendix B: the one-block and the multi-block message. */
    @Test
    void givesTheStandardsAnswers() {
        assertThat(hex(Sha256.digest().digest(ascii("abc"))))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(hex(Sha256.digest().digest(ascii("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"))))
                .isEqualTo("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    }

    /** FIPS 180-2, appendix B.3: a million times "a", fed in 64 KiB pieces as the attach reader feeds a flood. */
    @Test
    void hashesAMillionBytesFedInPieces() {
        byte[] a = new byte[1_000_000];
        Arrays.fill(a, (byte) 'a');
        MessageDigest digest = Sha256.digest();
        for (int at = 0; at < a.length; at += 65_536) {
            digest.update(a, at, Math.min(65_536, a.length - at));
        }
        assertThat(hex(digest.digest())).isEqualTo("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    }

    @Test
    void comesFromTheJdksOwnProvider() {
        assertThat(Sha256.digest().getProvider().getName()).isEqualTo("SUN");
    }

    @Property(tries = 200)
    void aCopyGoesOnFromWhereTheDigestWasAndLeavesItUnmoved(
            @ForAll("inputs") byte[] before, @ForAll("inputs") byte[] suffix, @ForAll("inputs") byte[] after) {
        MessageDigest digest = Sha256.digest();
        digest.update(before);
        MessageDigest copy = Sha256.copy(digest);
        copy.update(suffix);
        digest.update(after);

        assertThat(copy.digest()).isEqualTo(Sha256.digest().digest(concat(before, suffix)));
        assertThat(digest.digest()).isEqualTo(Sha256.digest().digest(concat(before, after)));
    }

    @Test
    void aDigestIsReusedAfterItsResult() {
        MessageDigest digest = Sha256.digest();
        digest.update(new byte[70_000]);
        digest.digest();
        assertThat(hex(digest.digest(ascii("abc"))))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Provide
    Arbitrary<byte[]> inputs() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(130),
                Arbitraries.bytes().array(byte[].class).ofMinSize(4_000).ofMaxSize(70_000));
    }

    private static byte[] concat(byte[] x, byte[] y) {
        byte[] both = Arrays.copyOf(x, x.length + y.length);
        System.arraycopy(y, 0, both, x.length, y.length);
        return both;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
