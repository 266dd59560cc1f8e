package dev.sluice.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

/**
 * An HTTPS server on loopback that serves the archives a test puts, with a
 * certificate made for it by the JDK's keytool (for 127.0.0.1), whose PEM the
 * worker is told to trust. One for the whole test run.
 */
public final class ArchiveServer {

    private static ArchiveServer shared;

    private final HttpsServer server;
    private final Path certificate;
    private final Map<String, byte[]> archives = new ConcurrentHashMap<>();
    private final Map<String, Failure> failures = new ConcurrentHashMap<>();

    private record Failure(int status, byte[] body) {}

    private ArchiveServer() throws Exception {
        // One per test JVM: two JVMs that run at once each make their own certificate.
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "archive-server-");
        Path keystore = dir.resolve("server.p12");
        certificate = dir.resolve("server.pem");
        Files.deleteIfExists(keystore);
        keytool(
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=ip:127.0.0.1",
                "-validity",
                "2",
                "-storetype",
                "PKCS12",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "changeit");
        keytool(
                "-exportcert",
                "-rfc",
                "-alias",
                "server",
                "-keystore",
                keystore.toString(),
                "-storepass",
                "changeit",
                "-file",
                certificate.toString());
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(keys, "changeit".toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(managers.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.createContext("/", exchange -> {
            byte[] body = archives.get(exchange.getRequestURI().getPath());
            Failure failure = failures.get(exchange.getRequestURI().getPath());
            if (failure != null) {
                exchange.getResponseHeaders().add("Content-Type", "text/plain");
                exchange.sendResponseHeaders(failure.status(), failure.body().length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(failure.body());
                }
            } else if (body == null) {
                exchange.sendResponseHeaders(404, -1);
            } else {
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            }
            exchange.close();
        });
        server.start();
    }

    public static synchronized ArchiveServer shared() {
        if (shared == null) {
            try {
                shared = new ArchiveServer();
            } catch (Exception e) {
                throw new IllegalStateException("could not start the archive server", e);
            }
        }
        return shared;
    }

    /** The PEM of its certificate, for sluice.workspace.trust-certificates. */
    public Path certificate() {
        return certificate;
    }

    /** Serves {@code bytes} at {@code path} and returns its https URL. */
    public String put(String path, byte[] bytes) {
        archives.put(path, bytes);
        return "https://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /** Answers {@code path} with {@code status} and {@code body}, a server's own words, and returns its URL. */
    public String fail(String path, int status, String body) {
        failures.put(path, new Failure(status, body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return "https://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static void keytool(String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        System.arraycopy(args, 0, command, 1, args.length);
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new UncheckedIOException(new IOException("keytool failed: " + new String(out)));
        }
    }
}
