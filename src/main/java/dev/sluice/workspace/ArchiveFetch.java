package dev.sluice.workspace;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import dev.sluice.hashing.Sha256;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.outbound.GuardedHttpClients;

/**
 * Fetches a workspace's archive from its https URL into a file, within the
 * fetch timeout for the whole exchange and a size bound, hashing it as it
 * comes; a digest other than the request's is refused before the archive is
 * read. It connects only to addresses the callbacks' SSRF guard permits
 * ({@link GuardedDnsResolver}, with the workspace's own allow-list), follows
 * no redirect, uses no proxy and sends nothing but the GET.
 */
final class ArchiveFetch implements AutoCloseable {

    private final CloseableHttpClient http;
    private final ScheduledExecutorService timer;
    private final Duration timeout;

    ArchiveFetch(
            GuardedDnsResolver resolver,
            SSLContext tls,
            Duration connectTimeout,
            Duration timeout,
            ScheduledExecutorService timer) {
        this.timer = timer;
        this.timeout = timeout;
        // A fetch at a time per dispatch: httpclient5's own pool sizes are ample.
        this.http = GuardedHttpClients.create(
                resolver, connectTimeout, timeout, new GuardedHttpClients.Options(25, 5, "sluice-workspace/1", tls));
    }

    /**
     * Writes the archive at {@code url} into {@code into}, at most {@code
     * maxBytes}, and checks its SHA-256; a {@link WorkspaceRefused} for
     * {@code workspace.archive.url} says why it could not be had.
     */
    void fetch(String url, String sha256, long maxBytes, Path into) {
        String field = "workspace.archive.url";
        if (!url.regionMatches(true, 0, "https:", 0, 6)) {
            throw new WorkspaceRefused(field, "must be an https URL");
        }
        HttpGet get = new HttpGet(URI.create(url));
        ScheduledFuture<?> deadline = timer.schedule(get::cancel, timeout.toMillis(), TimeUnit.MILLISECONDS);
        String digest;
        try {
            digest = http.execute(get, response -> {
                if (response.getCode() != 200) {
                    throw new WorkspaceRefused(field, "answered HTTP " + response.getCode() + ", not 200");
                }
                if (response.getEntity() == null) {
                    throw new WorkspaceRefused(field, "answered with no body");
                }
                try (InputStream body = response.getEntity().getContent()) {
                    return copy(body, into, maxBytes);
                }
            });
        } catch (WorkspaceRefused e) {
            throw e;
        } catch (IOException e) {
            throw new WorkspaceRefused(field, get.isCancelled() ? "was not fetched within " + timeout : why(e));
        } finally {
            deadline.cancel(false);
        }
        if (!digest.equals(sha256)) {
            throw new WorkspaceRefused(
                    "workspace.archive.sha256", "does not match the fetched archive, whose SHA-256 is " + digest);
        }
    }

    private static String copy(InputStream body, Path into, long maxBytes) throws IOException {
        MessageDigest sha = Sha256.digest();
        byte[] buffer = new byte[64 * 1024];
        long total = 0;
        try (OutputStream out = Files.newOutputStream(into)) {
            for (int n; (n = body.read(buffer)) >= 0; ) {
                total += n;
                if (total > maxBytes) {
                    throw new WorkspaceRefused(
                            "workspace.archive.url", "gave an archive larger than " + maxBytes + " bytes");
                }
                sha.update(buffer, 0, n);
                out.write(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static String why(IOException e) {
        if (e instanceof GuardedDnsResolver.RefusedAddress) {
            return "resolves only to addresses the SSRF rules refuse (loopback, private, link-local or reserved)";
        }
        if (e instanceof UnknownHostException) {
            return "names a host that did not resolve";
        }
        if (e instanceof SSLException) {
            return "failed its TLS handshake";
        }
        if (e instanceof InterruptedIOException) {
            return "did not answer within the timeouts";
        }
        return "could not be fetched (connection failed or closed)";
    }

    @Override
    public void close() throws IOException {
        timer.shutdownNow();
        http.close();
    }
}
