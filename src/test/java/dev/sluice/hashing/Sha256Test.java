package dev.sluice.hashing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Security;
import java.util.Arrays;
import java.util.HexFormat;
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
 * however it is fed; on a runtime with the PKCS#11 provider and the NSS
 * library (this machine's, and the image's) they come from NSS, and without
 * the library from the JDK; either way a copy goes on where the digest was.
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
        assertThat(Sha256.implementation()).contains(nssHere() ? "NSS" : "JDK");
        if (nssHere()) {
            assertThat(Sha256.digest().toString()).contains("NSS");
        }
    }

    /** Quarkus' tests and dev mode load the worker's classes again in a class loader of their own. */
    @Test
    void aSecondClassLoaderInTheProcessGetsNssToo() throws ReflectiveOperationException {
        Sha256.digest();
        Class<?> twin = new Reloading(Sha256.class.getClassLoader()).loadClass(Sha256.class.getName());
        assertThat(twin).isNotSameAs(Sha256.class);
        assertThat((String) twin.getMethod("implementation").invoke(null)).contains(nssHere() ? "NSS" : "JDK");
    }

    /**
     * A runtime without the soft token where the worker looks (another base
     * image) hashes with the JDK's own, with the same answers; its copies work
     * as NSS's do.
     */
    @Test
    void withoutTheSoftTokenOnTheLibraryPathTheJdksOwnIsUsed() throws ReflectiveOperationException {
        assumeFalse(Files.exists(Path.of("/usr/lib64/libsoftokn3.so")), "looked for in /usr/lib64 whatever the path");
        String path = System.getProperty("java.library.path");
        Class<?> twin;
        try {
            System.setProperty("java.library.path", "/nonexistent");
            twin = new Reloading(Sha256.class.getClassLoader()).loadClass(Sha256.class.getName());
            assertThat((String) twin.getMethod("implementation").invoke(null)).isEqualTo("the JDK's own");
        } finally {
            System.setProperty("java.library.path", path);
        }
        MessageDigest jdk = (MessageDigest) twin.getMethod("digest").invoke(null);
        assertThat(jdk.getProvider().getName()).isEqualTo("SUN");
        jdk.update("ab".getBytes(StandardCharsets.US_ASCII));
        MessageDigest copy =
                (MessageDigest) twin.getMethod("copy", MessageDigest.class).invoke(null, jdk);
        copy.update((byte) 'c');
        assertThat(HexFormat.of().formatHex(copy.digest()))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertThat(jdk.digest()).isEqualTo(sun("ab".getBytes(StandardCharsets.US_ASCII)));
    }

    /** As a stream's digest is checked against an expected one mid-stream (StreamDigester.matchesWritten). */
    @Property(tries = 100)
    void aCopyGoesOnFromWhereTheDigestWasAndLeavesItUnmoved(
            @ForAll("inputs") byte[] before, @ForAll("inputs") byte[] suffix, @ForAll("inputs") byte[] after) {
        MessageDigest digest = Sha256.digest();
        digest.update(before);
        MessageDigest copy = Sha256.copy(digest);
        copy.update(suffix);
        digest.update(after);

        assertThat(copy.digest()).isEqualTo(sun(concat(before, suffix)));
        assertThat(digest.digest()).isEqualTo(sun(concat(before, after)));
    }

    private static byte[] sun(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-256", Security.getProvider("SUN"))
                    .digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] concat(byte[] x, byte[] y) {
        byte[] both = Arrays.copyOf(x, x.length + y.length);
        System.arraycopy(y, 0, both, x.length, y.length);
        return both;
    }

    private static boolean nssHere() {
        return Security.getProvider("SunPKCS11") != null
                && Stream.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64")
                        .anyMatch(dir -> Files.exists(Path.of(dir, "libsoftokn3.so")));
    }

    /** Defines this package's classes anew from the same bytes; everything else comes from the parent. */
    private static final class Reloading extends ClassLoader {

        Reloading(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(Sha256.class.getPackageName() + ".")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded != null) {
                    return loaded;
                }
                try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                    byte[] bytes = in.readAllBytes();
                    return defineClass(name, bytes, 0, bytes.length);
                } catch (IOException e) {
                    throw new ClassNotFoundException(name, e);
                }
            }
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
