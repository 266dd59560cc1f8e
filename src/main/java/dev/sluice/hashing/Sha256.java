package dev.sluice.hashing;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.Provider;
import java.security.Security;
import java.util.HexFormat;
import java.util.Optional;
import java.util.stream.Stream;

import org.jboss.logging.Logger;

/**
 * SHA-256 from the fastest implementation this runtime offers (ADR 0040). The
 * worker compiles with C1 only (ADR 0019), which has no intrinsic for SHA-256:
 * the JDK's own implementation then hashes about 160 MB/s on this machine, and
 * a whole stream's digest took most of a flood's capture CPU. The system's NSS
 * library's soft token, through the JDK's PKCS#11 provider, uses the CPU's SHA
 * instructions: 1.9 GB/s. It is used when the runtime has the provider, the
 * library is on the JVM's library path, loads and gives the known answer;
 * otherwise the JDK's own is, with the same results. The provider is not
 * installed for anyone else: nothing but these digests uses it.
 */
public final class Sha256 {

    private static final Logger LOG = Logger.getLogger(Sha256.class);

    /** FIPS 180-2's example: SHA-256 of "abc". */
    private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    private Sha256() {}

    /** A new SHA-256 digest. */
    public static MessageDigest digest() {
        try {
            return Fastest.PROVIDER.isPresent()
                    ? new InPieces(MessageDigest.getInstance("SHA-256", Fastest.PROVIDER.get()))
                    : MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    /** The SHA-256 of {@code bytes}, in lowercase hex. */
    public static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(digest().digest(bytes));
    }

    /** A digest in the state {@code digest} is in now, which goes on unchanged. */
    public static MessageDigest copy(MessageDigest digest) {
        try {
            return (MessageDigest) digest.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("SHA-256 digests of " + implementation() + " cannot be copied", e);
        }
    }

    /** Which implementation {@link #digest()} gives, for people. */
    public static String implementation() {
        return Fastest.PROVIDER.map(p -> "NSS, through " + p.getName()).orElse("the JDK's own");
    }

    /**
     * Hands the PKCS#11 digest at most {@link #PIECE} bytes a call: the JDK's
     * native side copies a larger array into a buffer it allocates and frees
     * for every call (up to 64 KiB), a smaller one onto its stack.
     */
    private static final class InPieces extends MessageDigest {

        private static final int PIECE = 4096;

        private final MessageDigest nss;

        InPieces(MessageDigest nss) {
            super(nss.getAlgorithm());
            this.nss = nss;
        }

        @Override
        public Object clone() throws CloneNotSupportedException {
            return new InPieces((MessageDigest) nss.clone());
        }

        @Override
        protected void engineUpdate(byte input) {
            nss.update(input);
        }

        @Override
        protected void engineUpdate(byte[] input, int offset, int length) {
            for (int at = offset, end = offset + length; at < end; at += PIECE) {
                nss.update(input, at, Math.min(PIECE, end - at));
            }
        }

        @Override
        protected byte[] engineDigest() {
            return nss.digest();
        }

        @Override
        protected int engineGetDigestLength() {
            return nss.getDigestLength();
        }

        @Override
        protected void engineReset() {
            nss.reset();
        }

        @Override
        public String toString() {
            return nss.toString();
        }
    }

    /** Chosen once per class loader, on first use. */
    private static final class Fastest {

        /**
         * NSS's soft token, configured as a PKCS#11 library of its own: unlike
         * the provider's NSS mode, it can be configured again in the same
         * process (by another class loader: Quarkus' tests, its dev mode), and
         * it leaves the rest of NSS unloaded.
         */
        private static final String CONFIG = "--name=Sluice-NSS\nlibrary=%s\n"
                + "nssArgs=\"configdir='' certPrefix='' keyPrefix='' secmod='' "
                + "flags=readOnly,noCertDB,noModDB,forceOpen,optimizeSpace\"\n"
                + "slot=1\nattributes=compatibility\n";

        static final Optional<Provider> PROVIDER = nss();

        private static Optional<Provider> nss() {
            Provider pkcs11 = Security.getProvider("SunPKCS11");
            Optional<Path> softoken = softoken();
            if (pkcs11 == null || softoken.isEmpty()) {
                LOG.debugf(
                        "SHA-256: %s; the JDK's own is used",
                        pkcs11 == null
                                ? "the runtime has no PKCS#11 provider"
                                : "no libsoftokn3.so on the library path");
                return Optional.empty();
            }
            try {
                Provider nss = pkcs11.configure(String.format(CONFIG, softoken.get()));
                MessageDigest probe = MessageDigest.getInstance("SHA-256", nss);
                String answer = HexFormat.of().formatHex(probe.digest("abc".getBytes(StandardCharsets.US_ASCII)));
                if (!ABC.equals(answer)) {
                    LOG.warnf("SHA-256 from NSS gave a wrong answer (%s); the JDK's own is used", answer);
                    return Optional.empty();
                }
                LOG.debugf("SHA-256 from NSS (%s), through %s", softoken.get(), nss.getName());
                return Optional.of(nss);
            } catch (GeneralSecurityException | RuntimeException | LinkageError e) {
                LOG.debugf("SHA-256: NSS could not be used (%s); the JDK's own is used", e.toString());
                return Optional.empty();
            }
        }

        /** NSS's soft token in a directory the JVM loads native libraries from, or in /usr/lib64. */
        private static Optional<Path> softoken() {
            String dirs = System.getProperty("java.library.path", "") + File.pathSeparator + "/usr/lib64";
            return Stream.of(dirs.split(File.pathSeparator))
                    .filter(dir -> dir.startsWith("/") && dir.chars().noneMatch(c -> c <= ' ' || c == '"'))
                    .map(dir -> Path.of(dir, "libsoftokn3.so"))
                    .filter(Files::isRegularFile)
                    .findFirst();
        }
    }
}
