package dev.sluice.worker;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * Reads of a dispatch relayed to the replica that runs it (ADR 0065). It is
 * no open proxy: it connects only to the address a live worker's row in the
 * store advertises ({@link Peers}), asks only with {@code GET} for a log
 * range, an artifact or an event stream of one dispatch, sends only the
 * headers those reads take and the replicas' own signature of the read, for
 * the tenant it is for ({@link RelaySignatures}, ADR 0072), never a client's
 * credentials, and hands back only the headers they answer with. Connecting,
 * waiting for the answer to begin, and each read of its body have a deadline.
 */
public class PeerReads implements Closeable {

    private static final String SEGMENT =
            "(?!\\.\\.?(?:/|$|\\?))(?:[A-Za-z0-9._~!$'()*+,;=:@-]|%(?![2][EeFf]|5[Cc])[0-9A-Fa-f]{2})+";

    /** The only paths a relay asks for. */
    static final Pattern PATHS = Pattern.compile("/v1/dispatches/" + SEGMENT + "/(?:logs/(?:stdout|stderr)"
            + "(?:\\?[A-Za-z0-9=&]{0,64})?|events|artifacts/" + SEGMENT + "(?:/" + SEGMENT + ")*)");

    /** What a relay passes on of a client's request: never its credentials. */
    private static final Set<String> SENT = Set.of("range", "last-event-id", "accept");

    private static final Set<String> RETURNED = Set.of(
            "content-type",
            "content-length",
            "content-range",
            "content-disposition",
            "accept-ranges",
            "x-content-type-options",
            "content-security-policy",
            "retry-after",
            "sluice-log-offset",
            "sluice-log-next-offset",
            "sluice-log-end");

    /** What came of a relayed read. */
    public sealed interface Answer {

        /** The owner answered: its status, the headers a read passes on (lower case), and its body, to be closed. */
        record Served(int status, Map<String, String> headers, InputStream body, Closeable connection)
                implements Answer, Closeable {
            @Override
            public void close() throws IOException {
                connection.close();
            }
        }

        /** Not asked: the worker is not live, advertises nothing, or the path is not one a relay may ask for. */
        record Refused(String why) implements Answer {}

        /** The owner is live but did not answer within the deadline, or the connection failed. */
        record Unreachable(String why) implements Answer {}

        /**
         * Not answered for want of the replicas' signature: this worker has no
         * relay secret to sign with (nothing was sent), or the owner refused
         * its signature ({@code 401}: their secrets differ).
         */
        record Unsigned(String why) implements Answer {}
    }

    private final Peers peers;
    private final RelaySignatures signatures;
    private final Duration timeout;
    private final ScheduledExecutorService timer;
    private final CloseableHttpClient http;

    /**
     * @param signatures what signs each relayed read
     * @param timeout    the deadline of each step: connecting, the answer's head, each read of its body
     * @param timer      where the deadline of an answer's head is kept
     */
    public PeerReads(Peers peers, RelaySignatures signatures, Duration timeout, ScheduledExecutorService timer) {
        this.peers = peers;
        this.signatures = signatures;
        this.timeout = timeout;
        this.timer = timer;
        this.http = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(256)
                        .setMaxConnPerRoute(128)
                        .setDefaultConnectionConfig(ConnectionConfig.custom()
                                .setConnectTimeout(Timeout.of(timeout))
                                .setSocketTimeout(Timeout.of(timeout))
                                .build())
                        .build())
                .setDefaultRequestConfig(RequestConfig.custom()
                        .setConnectionRequestTimeout(Timeout.of(timeout))
                        .setResponseTimeout(Timeout.of(timeout))
                        .build())
                .disableRedirectHandling()
                .disableAutomaticRetries()
                .disableCookieManagement()
                .disableAuthCaching()
                .disableContentCompression()
                .setUserAgent("sluice-relay")
                .build();
    }

    /**
     * Reads {@code path} (with its query) from worker {@code workerId} for
     * {@code tenant}, each read of the body within the deadline.
     */
    public Answer get(String workerId, String tenant, String path, Map<String, String> headers) {
        return get(workerId, tenant, path, headers, timeout);
    }

    /**
     * As {@link #get(String, String, String, Map)}, with reads of the body that may wait
     * {@code idle} (an event stream, quiet while its dispatch prints nothing).
     */
    public Answer get(String workerId, String tenant, String path, Map<String, String> headers, Duration idle) {
        if (!PATHS.matcher(path).matches()) {
            return new Answer.Refused("not a path a relay may ask for");
        }
        Peers.Peer peer = peers.find(workerId).orElse(new Peers.Peer.Gone(workerId));
        if (!(peer instanceof Peers.Peer.Live live)) {
            return new Answer.Refused("worker " + workerId + " is not live at an advertised address");
        }
        Optional<String> signed = signatures.sign("GET", path, tenant, workerId);
        if (signed.isEmpty()) {
            return new Answer.Unsigned("this worker has no sluice.worker.relay-secrets to sign a relayed read with");
        }
        HttpGet get = new HttpGet(live.address().resolve(path));
        get.setConfig(RequestConfig.custom()
                .setConnectionRequestTimeout(Timeout.of(timeout))
                .setResponseTimeout(Timeout.of(idle))
                .build());
        headers.forEach((name, value) -> {
            if (value != null && SENT.contains(name.toLowerCase(Locale.ROOT))) {
                get.setHeader(name, value);
            }
        });
        get.setHeader(RelaySignatures.HEADER, signed.get());
        ScheduledFuture<?> deadline = timer.schedule(get::cancel, timeout.toMillis(), TimeUnit.MILLISECONDS);
        try {
            ClassicHttpResponse response = http.executeOpen(null, get, null);
            deadline.cancel(false);
            if (response.getCode() == 401) { // no client's refusal: the relay carries no client's credentials
                response.close();
                return new Answer.Unsigned("worker " + workerId + " refused this worker's signature: the replicas'"
                        + " sluice.worker.relay-secrets differ, or their clocks are more than "
                        + RelaySignatures.VALIDITY.toSeconds() + " s apart");
            }
            HttpEntity entity = response.getEntity();
            InputStream body = entity == null ? InputStream.nullInputStream() : entity.getContent();
            return new Answer.Served(response.getCode(), returned(response), body, response);
        } catch (IOException | RuntimeException e) {
            deadline.cancel(false);
            return new Answer.Unreachable(get.isCancelled() ? "no answer within " + timeout : e.toString());
        }
    }

    private static Map<String, String> returned(ClassicHttpResponse response) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (Header header : response.getHeaders()) {
            String name = header.getName().toLowerCase(Locale.ROOT);
            if (RETURNED.contains(name)) {
                headers.putIfAbsent(name, header.getValue());
            }
        }
        return headers;
    }

    @Override
    public void close() throws IOException {
        timer.shutdownNow();
        http.close();
    }
}
