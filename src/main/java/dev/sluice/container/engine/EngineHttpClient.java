package dev.sluice.container.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;

import com.github.dockerjava.transport.DockerHttpClient;

/**
 * docker-java's transport, over an {@link EngineSocket} per call, with a
 * deadline that holds on both Unix sockets and TCP (ADR 0016). At the deadline
 * the connection is closed: the call fails with {@link EngineTimeoutException}
 * in its cause, and no thread stays blocked and no connection stays open.
 *
 * <p>A control client's deadline covers the whole exchange, until the caller
 * closes the response (docker-java reads and closes at once). A streaming
 * client's covers only the setup, until the engine has sent the head of a
 * successful answer: a wait or a log read then lasts as long as it must, and
 * its caller bounds it. A refusal is read whole within the deadline.
 *
 * <p>A connection per call, closed when the call ends: nothing is pooled, so
 * nothing waits for a pooled connection, and none goes stale across an engine
 * restart. Over a local socket a connection costs a few tens of microseconds
 * (ADR 0016 has the measurement).
 *
 * <p>Every call is announced as an {@link EngineCall}, once its answer's head
 * has come or it has failed.
 */
public final class EngineHttpClient implements DockerHttpClient {

    /** How much of a call its deadline covers. */
    enum Scope {
        /** Until the response is closed. */
        WHOLE_CALL,
        /** Until the response head has arrived; the body may take as long as it takes. */
        UNTIL_HEAD
    }

    private static final int HEAD_BUFFER = 16 * 1024;

    private final URI host;
    private final Duration connectTimeout;
    private final Duration timeout;
    private final Scope scope;
    private final ScheduledExecutorService timer;
    private final EngineCalls calls;
    private final Consumer<EngineCall> observed;

    /**
     * @param calls    where answers and timeouts are recorded for readiness, or {@code null} to record nothing
     * @param observed told of every call, for metrics
     */
    EngineHttpClient(
            URI host,
            Duration connectTimeout,
            Duration timeout,
            Scope scope,
            ScheduledExecutorService timer,
            EngineCalls calls,
            Consumer<EngineCall> observed) {
        this.host = host;
        this.connectTimeout = connectTimeout;
        this.timeout = timeout;
        this.scope = scope;
        this.timer = timer;
        this.calls = calls;
        this.observed = observed;
    }

    @Override
    public Response execute(Request request) {
        if (request.hijackedInput() != null) {
            throw new UnsupportedOperationException("attach runs over Attachment, not docker-java's hijacking");
        }
        Map<String, String> headers = new LinkedHashMap<>(request.headers());
        headers.put("Connection", "close");
        Exchange exchange = open(request.method(), request.path());
        try {
            exchange.socket.send(request.method(), request.path(), headers, body(request));
            ByteBuffer buffer = ByteBuffer.allocate(HEAD_BUFFER);
            EngineSocket.Head head = exchange.socket.readHead(buffer);
            // A refusal's body is short and read at once: it stays within the deadline.
            exchange.answered(head.status(), scope == Scope.UNTIL_HEAD && head.status() / 100 == 2);
            return new EngineResponse(exchange, head, new ResponseBody(exchange, head, buffer));
        } catch (IOException e) {
            throw exchange.failed(e);
        }
    }

    /**
     * The head of the engine's answer to {@code HEAD path}, within the
     * deadline; the connection is closed. docker-java's requests have no
     * {@code HEAD}, which is how the engine answers with a path's stat alone.
     */
    EngineSocket.Head head(String path) {
        Exchange exchange = open("HEAD", path);
        try {
            exchange.socket.send("HEAD", path, Map.of("Connection", "close"), null);
            EngineSocket.Head head = exchange.socket.readHead(ByteBuffer.allocate(HEAD_BUFFER));
            exchange.answered(head.status(), true);
            return head;
        } catch (IOException e) {
            throw exchange.failed(e);
        } finally {
            exchange.close();
        }
    }

    /**
     * Sends a request that upgrades the connection to a raw stream (attach) and
     * returns the socket once the engine has answered, with the bytes that came
     * after the head in {@code rest}. An answer that refuses the upgrade is read
     * whole, within the deadline, and the socket closed.
     */
    public Upgrade upgrade(String method, String path, ByteBuffer rest) {
        Exchange exchange = open(method, path);
        try {
            EngineSocket.Head head = exchange.socket.upgrade(method, path, rest);
            if (head.status() == 101 || head.status() == 200) {
                exchange.answered(head.status(), true);
                return new Upgrade(exchange.socket, head.status(), null);
            }
            String error = exchange.socket.errorBody(head, rest);
            exchange.answered(head.status(), true);
            exchange.socket.close();
            return new Upgrade(null, head.status(), error);
        } catch (IOException e) {
            throw exchange.failed(e);
        }
    }

    /** The engine's answer to an upgrade: the raw stream, or the status and body of a refusal. */
    public record Upgrade(EngineSocket socket, int status, String errorBody) {}

    private Exchange open(String method, String path) {
        int query = path.indexOf('?');
        String call = method + " " + (query < 0 ? path : path.substring(0, query));
        String operation = EngineCall.operation(method, path);
        EngineSocket socket;
        try {
            socket = EngineSocket.open(host);
        } catch (IOException e) {
            observed.accept(new EngineCall(operation, EngineCall.Outcome.UNREACHABLE, Duration.ZERO));
            throw new UncheckedIOException(e);
        }
        Exchange exchange = new Exchange(call, operation, socket, socket.closeAfter(timeout, timer));
        try {
            socket.connect(connectTimeout);
        } catch (IOException e) {
            throw exchange.failed(e);
        }
        return exchange;
    }

    private static byte[] body(Request request) throws IOException {
        if (request.bodyBytes() != null) {
            return request.bodyBytes();
        }
        InputStream body = request.body();
        if (body == null) {
            return null;
        }
        try (body) {
            return body.readAllBytes(); // only image builds and archive uploads stream a body; we send neither
        }
    }

    /** One call's connection, deadline and outcome. */
    private final class Exchange {
        final String call;
        final String operation;
        final EngineSocket socket;
        final EngineSocket.Deadline deadline;
        final Instant sentAt;
        final long started = System.nanoTime();
        /** Announced already: a body cut after the head does not make a second call of it. */
        boolean announced;

        Exchange(String call, String operation, EngineSocket socket, EngineSocket.Deadline deadline) {
            this.call = call;
            this.operation = operation;
            this.socket = socket;
            this.deadline = deadline;
            this.sentAt = calls == null ? null : calls.now();
        }

        /** The engine answered in time; with {@code done}, the deadline no longer applies. */
        void answered(int status, boolean done) {
            announce(status >= 500 ? EngineCall.Outcome.ERROR : EngineCall.Outcome.OK);
            if (calls != null) {
                calls.answered(sentAt);
            }
            if (done) {
                deadline.disarm();
            }
        }

        /** Ends the call: the connection is closed, and the failure says whether the deadline caused it. */
        RuntimeException failed(IOException cause) {
            socket.close();
            if (!deadline.disarm()) {
                return timedOut(cause);
            }
            announce(EngineCall.Outcome.UNREACHABLE);
            return new UncheckedIOException(cause);
        }

        UncheckedIOException timedOut(IOException cause) {
            announce(EngineCall.Outcome.TIMEOUT);
            if (calls != null) {
                calls.timedOut(call, deadline.timeout());
            }
            EngineTimeoutException expired = new EngineTimeoutException(deadline.timeout());
            expired.initCause(cause);
            return new UncheckedIOException(expired);
        }

        void close() {
            deadline.disarm();
            socket.close();
        }

        private void announce(EngineCall.Outcome outcome) {
            if (!announced) {
                announced = true;
                observed.accept(new EngineCall(operation, outcome, Duration.ofNanos(System.nanoTime() - started)));
            }
        }
    }

    /** An answer whose body is read from the call's own connection. */
    private static final class EngineResponse implements Response {
        private final Exchange exchange;
        private final EngineSocket.Head head;
        private final ResponseBody body;

        EngineResponse(Exchange exchange, EngineSocket.Head head, ResponseBody body) {
            this.exchange = exchange;
            this.head = head;
            this.body = body;
        }

        @Override
        public int getStatusCode() {
            return head.status();
        }

        @Override
        public Map<String, List<String>> getHeaders() {
            return head.headers();
        }

        @Override
        public String getHeader(String name) {
            return head.header(name);
        }

        @Override
        public InputStream getBody() {
            return body;
        }

        @Override
        public void close() {
            exchange.close();
        }
    }

    /**
     * A response body: of a stated length, chunked, or until the engine closes
     * the connection. A read that the deadline cut short fails with
     * {@link EngineTimeoutException}.
     */
    private static final class ResponseBody extends InputStream {
        private static final long UNTIL_CLOSE = Long.MAX_VALUE;

        private final Exchange exchange;
        private final ByteBuffer buffer;
        private final boolean chunked;
        /** Bytes left in the body (or in the current chunk); 0 at its end. */
        private long remaining;

        private boolean finished;
        /** Past the first chunk's size line: a chunk's data ends with a CRLF before the next size. */
        private boolean inChunks;

        /** @param buffer what came after the head, ready to be read */
        ResponseBody(Exchange exchange, EngineSocket.Head head, ByteBuffer buffer) throws IOException {
            this.exchange = exchange;
            this.buffer = buffer;
            this.chunked = head.chunked();
            int status = head.status();
            boolean bodiless = status == 204 || status == 304 || (status >= 100 && status < 200);
            long length = head.contentLength();
            this.remaining = bodiless ? 0 : chunked ? 0 : length >= 0 ? length : UNTIL_CLOSE;
            this.finished = bodiless || (!chunked && remaining == 0);
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] into, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            try {
                if (chunked && remaining == 0 && !finished) {
                    nextChunk();
                }
                if (finished) {
                    return -1;
                }
                int wanted = (int) Math.min(length, remaining);
                int n;
                if (buffer.hasRemaining()) {
                    n = Math.min(wanted, buffer.remaining());
                    buffer.get(into, offset, n);
                } else {
                    n = exchange.socket.read(ByteBuffer.wrap(into, offset, wanted));
                }
                if (n < 0) {
                    if (remaining != UNTIL_CLOSE) {
                        throw new IOException("engine closed the connection inside a response body");
                    }
                    finished = true;
                    return -1;
                }
                if (remaining != UNTIL_CLOSE) {
                    remaining -= n;
                    finished = !chunked && remaining == 0;
                }
                return n;
            } catch (IOException e) {
                if (exchange.deadline.expired()) {
                    throw exchange.timedOut(e).getCause();
                }
                throw e;
            }
        }

        /** Reads the next chunk's size line, after the CRLF that ends the previous chunk; size 0 ends the body. */
        private void nextChunk() throws IOException {
            if (inChunks) {
                line();
            }
            inChunks = true;
            String size = line();
            int extension = size.indexOf(';');
            try {
                remaining = Long.parseLong((extension < 0 ? size : size.substring(0, extension)).strip(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("engine answered with an unreadable chunk size");
            }
            finished = remaining == 0;
        }

        /** One CRLF-ended line from the connection, without its end. */
        private String line() throws IOException {
            StringBuilder line = new StringBuilder(16);
            while (true) {
                if (!buffer.hasRemaining()) {
                    buffer.clear();
                    int n = exchange.socket.read(buffer);
                    buffer.flip();
                    if (n < 0) {
                        throw new IOException("engine closed the connection inside a chunked body");
                    }
                }
                char c = (char) buffer.get();
                if (c == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                if (line.length() > 1024) {
                    throw new IOException("engine answered with an oversized chunk header");
                }
                line.append(c);
            }
        }

        @Override
        public int available() {
            return (int) Math.min(buffer.remaining(), remaining);
        }

        @Override
        public void close() {
            exchange.close();
        }
    }

    @Override
    public void close() {
        // Nothing is held between calls.
    }

    /** The start of an error answer's body, for the message; empty when it cannot be read. */
    public static String readError(DockerHttpClient.Response response) {
        try (InputStream body = response.getBody()) {
            return new String(body.readNBytes(2048), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }
}
