package dev.sluice.callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLException;

import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.entity.GzipCompressingEntity;
import org.apache.hc.client5.http.impl.DefaultSchemePortResolver;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.routing.RoutingSupport;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpException;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.NoHttpResponseException;
import org.apache.hc.core5.http.io.entity.InputStreamEntity;

import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.outbound.GuardedHttpClients;

/**
 * One POST of a callback. It never follows redirects, never retries on its own
 * and uses no proxy; it connects only to the address the {@link GuardedDnsResolver}
 * permitted when its {@link #target} was resolved; and an attempt is cut at the attempt timeout however slowly the
 * receiver answers.
 */
final class CallbackClient implements AutoCloseable {

    /** Why an attempt got no HTTP answer. */
    enum Failure {
        REFUSED_ADDRESS("refused_address"),
        UNRESOLVED("unresolved"),
        CONNECT("connect"),
        TIMEOUT("timeout"),
        RESET("reset"),
        TLS("tls"),
        IO("io"),
        /** Not sent: no secret serves the message's tenant now (its secrets were removed since it was accepted). */
        UNSIGNED("unsigned");

        final String reason;

        Failure(String reason) {
            this.reason = reason;
        }
    }

    /** What one attempt got: an HTTP status, or the failure that prevented one. */
    record Attempt(Integer status, Optional<Duration> retryAfter, Failure failure, String detail, long durationMs) {

        boolean delivered() {
            return status != null && status >= 200 && status < 300;
        }

        /** An attempt not made, since nothing could sign it: a failure like any other, tried again on the schedule. */
        static Attempt unsigned() {
            return new Attempt(null, Optional.empty(), Failure.UNSIGNED, "no signing secret serves this tenant", 0);
        }
    }

    /**
     * Where an attempt goes: the address its URL's host resolved to, which
     * the guard permits and which the attempt connects to, or the failure
     * that leaves it nowhere to go.
     */
    sealed interface Target {

        /** The URL, and the address its connection is pinned to. */
        record Address(URI url, HttpHost host, InetSocketAddress address) implements Target {}

        /** The host did not resolve, or only to addresses callbacks may not reach. */
        record Nowhere(Attempt failure) implements Target {}
    }

    private static final int MAX_DISCARDED_BODY = 64 * 1024;

    private final GuardedDnsResolver resolver;
    private final CloseableHttpClient http;
    private final ScheduledExecutorService timer;
    private final Duration attemptTimeout;

    CallbackClient(
            GuardedDnsResolver resolver,
            Duration connectTimeout,
            Duration attemptTimeout,
            int maxConnections,
            int maxPerHost,
            ScheduledExecutorService timer) {
        this.timer = timer;
        this.attemptTimeout = attemptTimeout;
        this.resolver = resolver;
        this.http = GuardedHttpClients.create(
                resolver,
                connectTimeout,
                attemptTimeout,
                new GuardedHttpClients.Options(maxConnections, maxPerHost, "sluice-callback/1", null));
    }

    /** How long one attempt may take, from the connect to the last byte of the answer. */
    Duration attemptTimeout() {
        return attemptTimeout;
    }

    /**
     * A body to send: its length, and its bytes streamed from where they are
     * kept; with {@code gzip}, compressed as it is sent (chunked, since the
     * compressed length is known only at the end).
     */
    record Body(long size, Opener opener, boolean gzip) {

        interface Opener {
            InputStream open() throws IOException;
        }

        InputStream open() throws IOException {
            return opener.open();
        }
    }

    /**
     * Resolves the URL's host through the guard, once: the attempt connects
     * to the first address it permits and to no other, so the address a
     * delivery's slot is counted at is the one it reaches (ADR 0073).
     */
    Target target(URI url) {
        HttpHost named;
        try {
            named = RoutingSupport.determineHost(new HttpPost(url));
        } catch (HttpException | RuntimeException e) {
            return new Target.Nowhere(
                    new Attempt(null, Optional.empty(), Failure.UNRESOLVED, "not a URL of a host", 0));
        }
        InetAddress[] permitted;
        try {
            permitted = resolver.resolve(named.getHostName());
        } catch (IOException e) {
            Failure failure = classify(e);
            return new Target.Nowhere(new Attempt(null, Optional.empty(), failure, detail(failure, e), 0));
        }
        int port = DefaultSchemePortResolver.INSTANCE.resolve(named);
        return new Target.Address(
                url,
                new HttpHost(named.getSchemeName(), permitted[0], named.getHostName(), port),
                new InetSocketAddress(permitted[0], port));
    }

    Attempt post(Target target, Map<String, String> headers, Body body) {
        if (!(target instanceof Target.Address to)) {
            return ((Target.Nowhere) target).failure();
        }
        HttpPost post = new HttpPost(to.url());
        headers.forEach(post::setHeader);
        InputStream content;
        try {
            content = body.open();
        } catch (IOException e) {
            return new Attempt(null, Optional.empty(), Failure.IO, "the stored result could not be read", 0);
        }
        InputStreamEntity entity = new InputStreamEntity(content, body.size(), ContentType.APPLICATION_JSON);
        post.setEntity(body.gzip() ? new GzipCompressingEntity(entity) : entity);
        long start = System.nanoTime();
        // The socket timeout bounds each read; this bounds the whole attempt.
        ScheduledFuture<?> deadline = timer.schedule(post::cancel, attemptTimeout.toMillis(), TimeUnit.MILLISECONDS);
        try {
            return http.execute(to.host(), post, response -> {
                discardBody(
                        response.getEntity() == null
                                ? null
                                : response.getEntity().getContent());
                Header retryAfter = response.getFirstHeader("Retry-After");
                return new Attempt(
                        response.getCode(),
                        retryAfter == null ? Optional.empty() : parseRetryAfter(retryAfter.getValue(), Instant.now()),
                        null,
                        null,
                        millisSince(start));
            });
        } catch (IOException e) {
            Failure failure = post.isCancelled() ? Failure.TIMEOUT : classify(e);
            return new Attempt(null, Optional.empty(), failure, detail(failure, e), millisSince(start));
        } finally {
            deadline.cancel(false);
            closeQuietly(content);
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // it was only read
        }
    }

    private static void discardBody(InputStream body) throws IOException {
        if (body == null) {
            return;
        }
        try (body) {
            byte[] sink = new byte[8192];
            int total = 0;
            int n;
            while (total < MAX_DISCARDED_BODY && (n = body.read(sink)) >= 0) {
                total += n;
            }
        }
    }

    static Failure classify(IOException e) {
        if (e instanceof GuardedDnsResolver.RefusedAddress) {
            return Failure.REFUSED_ADDRESS;
        }
        if (e instanceof UnknownHostException) {
            return Failure.UNRESOLVED;
        }
        if (e instanceof ConnectException) {
            return Failure.CONNECT;
        }
        if (e instanceof InterruptedIOException) {
            return Failure.TIMEOUT; // socket and connect timeouts
        }
        if (e instanceof NoHttpResponseException
                || e instanceof ConnectionClosedException
                || e instanceof SocketException) {
            return Failure.RESET;
        }
        if (e instanceof SSLException) {
            return Failure.TLS;
        }
        return Failure.IO;
    }

    private static String detail(Failure failure, IOException e) {
        return switch (failure) {
            case REFUSED_ADDRESS -> e.getMessage();
            case UNRESOLVED -> "host did not resolve";
            case CONNECT -> "connection refused or unreachable";
            case TIMEOUT -> "no complete answer within the attempt timeout";
            case RESET -> "connection closed without an answer";
            case TLS -> "TLS handshake failed";
            case IO -> "transport error";
            case UNSIGNED -> "no signing secret serves this tenant";
        };
    }

    /** Retry-After as delay-seconds or an HTTP date; anything else is ignored. */
    static Optional<Duration> parseRetryAfter(String value, Instant now) {
        String v = value.strip();
        try {
            long seconds = Long.parseLong(v);
            return seconds >= 0 ? Optional.of(Duration.ofSeconds(seconds)) : Optional.empty();
        } catch (NumberFormatException e) {
            try {
                Duration until = Duration.between(
                        now,
                        ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME)
                                .toInstant());
                return Optional.of(until.isNegative() ? Duration.ZERO : until);
            } catch (DateTimeParseException e2) {
                return Optional.empty();
            }
        }
    }

    private static long millisSince(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }

    @Override
    public void close() throws IOException {
        http.close();
    }
}
