package dev.sluice.hashing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Security;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The digests {@link Sha256} gives are the JDK's own, whatever the input and
 * however it is fed; and on a runtime with the PKCS#11 provider and the NSS
 * library (this machine's, and the image's) they come from NSS.
 */
class Sha256Test {

    @Property(tries = 200)
    void givesWhatTheJdkGives(@ForAll("inputs") byte[] input, @ForAll("cuts") List<Integer> cuts)
            throws NoSuchAlgorithmException {
        MessageDigest ours = Sha256.digest();
        int at = 0;
        for (int cut : cuts) {
            int end = Math.min(input.length, at + cut);
            ours.update(input, at, end - at);
            at = end;
        }
        ours.update(input, at, input.length - at);
        MessageDigest jdk = MessageDigest.getInstance("SHA-256", Security.getProvider("SUN"));
        assertThat(ours.digest()).isEqualTo(jdk.digest(input));
    }

    @Test
    void aDigestIsReusedAfterItsResult() throws NoSuchAlgorithmException {
        MessageDigest ours = Sha256.digest();
        ours.update(new byte[70_000]);
        ours.digest();
        byte[] again = ours.digest("abc".getBytes());
        assertThat(again)
                .isEqualTo(MessageDigest.getInstance("SHA-256", Security.getProvider("SUN"))
                        .digest("abc".getBytes()));
    }

    @Test
    void comesFromNssWhereTheRuntimeHasIt() {
        boolean nss = Security.getProvider("SunPKCS11") != null
                && Stream.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64")
                        .anyMatch(dir -> Files.exists(Path.of(dir, "libsoftokn3.so")));
        assertThat(Sha256.implementation()).contains(nss ? "NSS" : "JDK");
        if (nss) {
            assertThat(Sha256.digest().toString()).contains("NSS");
        }
    }

    @Provide
    Arbitrary<byte[]> inputs() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300),
                Arbitraries.bytes().array(byte[].class).ofMinSize(4_000).ofMaxSize(200_000));
    }

    @Provide
    Arbitrary<List<Integer>> cuts() {
        return Arbitraries.integers().between(0, 70_000).list().ofMaxSize(6);
    }
}
