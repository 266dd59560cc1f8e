package dev.sluice.container.engine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.sluice.outbound.Hosts;

/**
 * One raw HTTP/1.1 connection to the engine over the JDK's own channels
 * ({@code unix://} and plain {@code tcp://}). It reads in large blocks,
 * half-closes for real (the attach needs both, ADR 0012), and can be given a
 * deadline: at the deadline the channel is closed, which wakes a thread blocked
 * in connect, read or write. That is what makes every engine call end (ADR
 * 0016): a socket read timeout would not, since a channel's stream ignores it.
 */
public final class EngineSocket implements AutoCloseable {

    private static final int MAX_HEADER = 16 * 1024;
    private static final int MAX_ERROR_BODY = 4096;

    private final SocketChannel channel;
    private final URI host;

    private EngineSocket(SocketChannel channel, URI host) {
        this.channel = channel;
        this.host = host;
    }

    /** An unconnected socket for the engine at {@code host}, so a deadline can be armed before connecting. */
    static EngineSocket open(URI host) throws IOException {
        return switch (scheme(host)) {
            case "unix" -> new EngineSocket(SocketChannel.open(StandardProtocolFamily.UNIX), host);
            case "tcp", "http" -> new EngineSocket(SocketChannel.open(), host);
            default -> throw new IOException("engine host scheme " + scheme(host) + " is not supported");
        };
    }

    void connect(Duration connectTimeout) throws IOException {
        if (scheme(host).equals("unix")) {
            channel.connect(UnixDomainSocketAddress.of(host.getPath()));
        } else {
            channel.socket().connect(Hosts.configured(host.getHost(), port(host)), (int) connectTimeout.toMillis());
        }
    }

    /** Whether this path can reach the given engine endpoint. */
    static boolean supports(URI host, boolean tls) {
        String scheme = scheme(host);
        return !tls && (scheme.equals("unix") || scheme.equals("tcp") || scheme.equals("http"));
    }

    private static String scheme(URI host) {
        return host.getScheme() == null ? "" : host.getScheme().toLowerCase(Locale.ROOT);
    }

    private static int port(URI host) {
        return host.getPort() > 0 ? host.getPort() : 2375;
    }

    /** The {@code Host} header: the endpoint's authority over TCP; any name does over a Unix socket. */
    private String hostHeader() {
        return scheme(host).equals("unix") ? "docker" : host.getHost() + ":" + port(host);
    }

    /** The path of a {@code tcp://host:port/prefix} endpoint, which prefixes every request's, without its last slash. */
    private String pathPrefix() {
        String path = scheme(host).equals("unix") || host.getRawPath() == null ? "" : host.getRawPath();
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    /**
     * Closes this socket at {@code timeout} from now unless the returned
     * deadline is {@linkplain Deadline#disarm() disarmed} first.
     */
    Deadline closeAfter(Duration timeout, ScheduledExecutorService timer) {
        return new Deadline(this, timeout, timer);
    }

    /** A pending close of a socket; a call that disarms it in time has ended within its deadline. */
    static final class Deadline {
        private static final int ARMED = 0;
        private static final int DISARMED = 1;
        private static final int EXPIRED = 2;

        private final AtomicInteger state = new AtomicInteger(ARMED);
        private final ScheduledFuture<?> expiry;
        private final Duration timeout;

        private Deadline(EngineSocket socket, Duration timeout, ScheduledExecutorService timer) {
            this.timeout = timeout;
            this.expiry = timer.schedule(
                    () -> {
                        if (state.compareAndSet(ARMED, EXPIRED)) {
                            socket.close();
                        }
                    },
                    timeout.toNanos(),
                    TimeUnit.NANOSECONDS);
        }

        /** Stops the pending close; false when the deadline had already passed and the socket is closed. */
        boolean disarm() {
            if (state.compareAndSet(ARMED, DISARMED)) {
                expiry.cancel(false);
                return true;
            }
            return state.get() == DISARMED;
        }

        boolean expired() {
            return state.get() == EXPIRED;
        }

        Duration timeout() {
            return timeout;
        }
    }

    /**
     * The head of the engine's answer.
     *
     * @param headers by name, looked up without regard to case
     */
    record Head(int status, Map<String, List<String>> headers) {

        String header(String name) {
            List<String> values = headers.get(name);
            return values == null || values.isEmpty() ? null : values.get(0);
        }

        /** The body's stated length, or -1 when it is unstated (chunked, or until the connection closes). */
        long contentLength() throws IOException {
            String value = header("Content-Length");
            return value == null ? -1 : parse(value.strip());
        }

        boolean chunked() {
            String value = header("Transfer-Encoding");
            return value != null && value.toLowerCase(Locale.ROOT).contains("chunked");
        }
    }

    /**
     * Sends a bodiless request asking to upgrade the connection to a raw stream,
     * and reads the answer's head. Bytes past the head are left in {@code rest},
     * ready to be read.
     */
    Head upgrade(String method, String path, ByteBuffer rest) throws IOException {
        send(
                method,
                path,
                Map.of("Content-Type", "text/plain", "Connection", "Upgrade", "Upgrade", "tcp"),
                new byte[0]);
        return readHead(rest);
    }

    /** Writes a request: its line, a {@code Host}, the given headers, and the body with its length when there is one. */
    void send(String method, String path, Map<String, String> headers, byte[] body) throws IOException {
        StringBuilder request = new StringBuilder(256)
                .append(method)
                .append(' ')
                .append(pathPrefix())
                .append(path)
                .append(" HTTP/1.1\r\nHost: ")
                .append(hostHeader())
                .append("\r\n");
        headers.forEach(
                (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        if (body != null) {
            request.append("Content-Length: ").append(body.length).append("\r\n");
        }
        request.append("\r\n");
        byte[] head = request.toString().getBytes(StandardCharsets.ISO_8859_1);
        if (body == null || body.length == 0) {
            write(ByteBuffer.wrap(head));
        } else {
            write(ByteBuffer.allocate(head.length + body.length)
                    .put(head)
                    .put(body)
                    .flip());
        }
    }

    /**
     * Reads the head of an answer into {@code rest} (a heap buffer the head must
     * fit, at most {@link #MAX_HEADER} of it used) and leaves {@code rest} holding
     * the bytes that came after it.
     */
    Head readHead(ByteBuffer rest) throws IOException {
        rest.clear();
        int headEnd;
        int scanned = 0;
        while ((headEnd = headEnd(rest, scanned)) < 0) {
            scanned = Math.max(0, rest.position() - 3);
            if (!rest.hasRemaining() || rest.position() >= MAX_HEADER) {
                throw new IOException("engine answered with an oversized header");
            }
            if (channel.read(rest) < 0) {
                throw new IOException("engine closed the connection before answering");
            }
        }
        String[] lines = new String(rest.array(), 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
        rest.flip();
        rest.position(headEnd + 4);
        String[] statusLine = lines[0].split(" ", 3);
        if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
            throw new IOException("engine answered with an unreadable status line");
        }
        Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.computeIfAbsent(lines[i].substring(0, colon).strip(), k -> new ArrayList<>(1))
                        .add(lines[i].substring(colon + 1).strip());
            }
        }
        return new Head((int) parse(statusLine[1]), headers);
    }

    private static long parse(String number) throws IOException {
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            throw new IOException("engine answered with an unreadable header");
        }
    }

    private static int headEnd(ByteBuffer buffer, int from) {
        byte[] b = buffer.array();
        for (int i = Math.max(3, from + 3); i < buffer.position(); i++) {
            if (b[i - 3] == '\r' && b[i - 2] == '\n' && b[i - 1] == '\r' && b[i] == '\n') {
                return i - 3;
            }
        }
        return -1;
    }

    /** The body of an error answer (bounded): what is buffered, then the rest of its stated length. */
    String errorBody(Head head, ByteBuffer rest) {
        long stated;
        try {
            stated = head.contentLength();
        } catch (IOException e) {
            stated = -1;
        }
        int wanted = (int) Math.min(MAX_ERROR_BODY, stated < 0 ? rest.remaining() : stated);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(rest.array(), rest.position(), Math.min(wanted, rest.remaining()));
        try {
            ByteBuffer more = ByteBuffer.allocate(wanted);
            while (body.size() < wanted && channel.read(more) > 0) {
                body.write(more.array(), 0, Math.min(more.position(), wanted - body.size()));
                more.clear();
            }
        } catch (IOException e) {
            // what was read is all there is
        }
        return body.toString(StandardCharsets.UTF_8);
    }

    public int read(ByteBuffer into) throws IOException {
        return channel.read(into);
    }

    public void write(ByteBuffer from) throws IOException {
        while (from.hasRemaining()) {
            channel.write(from);
        }
    }

    /** Ends our side of the stream: the engine passes end-of-file on to the process's stdin. */
    public void shutdownOutput() throws IOException {
        channel.shutdownOutput();
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // closing is best effort
        }
    }
}
