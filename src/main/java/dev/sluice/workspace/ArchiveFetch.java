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
import org.jboss.logging.Logger;

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
 *
 * <p>A failure is told in a sentence of a fixed few, never in the server's
 * words: the URL may lead somewhere only the worker reaches, and what a
 * server says (its status line, its body, the digest of what it served) would
 * tell the one who named it what is there. The log keeps the server's
 * answer for the operator.
 */
final class ArchiveFetch implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(ArchiveFetch.class);

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
        URI uri = URI.create(url);
        HttpGet get = new HttpGet(uri);
        ScheduledFuture<?> deadline = timer.schedule(get::cancel, timeout.toMillis(), TimeUnit.MILLISECONDS);
        String digest;
        try {
            digest = http.execute(get, response -> {
                if (response.getCode() != 200) {
                    LOG.warnf(
                            "workspace archive from %s: answered %d %s",
                            uri.getHost(), response.getCode(), response.getReasonPhrase());
                    throw new WorkspaceRefused(field, status(response.getCode()));
                }
                if (response.getEntity() == null) {
                    throw new WorkspaceRefused(field, "was not served: its server answered 200 with no body");
                }
                try (InputStream body = response.getEntity().getContent()) {
                    return copy(body, into, maxBytes);
                }
            });
        } catch (WorkspaceRefused e) {
            throw e;
        } catch (IOException e) {
            LOG.warnf("workspace archive from %s: %s", uri.getHost(), e.toString());
            throw new WorkspaceRefused(
                    field,
                    get.isCancelled()
                            ? "was not fetched within sluice.workspace.fetch-timeout (" + timeout.toMillis() + " ms)"
                            : why(e));
        } finally {
            deadline.cancel(false);
        }
        if (!digest.equals(sha256)) {
            // Not in the refusal: the digest of what the URL served is a fact about the server, not the request.
            LOG.warnf("workspace archive from %s: served SHA-256 %s, the request names another", uri.getHost(), digest);
            throw new WorkspaceRefused("workspace.archive.sha256", "does not match the fetched archive");
        }
    }

    /** A status other than 200, in a class: no status line, no body. */
    private static String status(int code) {
        return switch (code) {
            case 404, 410 -> "was not found on its server (HTTP 404 or 410)";
            case 401, 403 -> "was refused by its server, which asks for credentials or denies access (HTTP 401 or 403)";
            default -> "was not served: its server answered neither 200 nor 401, 403, 404 or 410";
        };
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
