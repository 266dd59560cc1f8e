package dev.sluice.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A Docker engine of our own, over a Unix socket or TCP, that answers each
 * request as the test says: with a status and a body, or not at all, or with
 * half a response head, or with the head and half the body. It counts the
 * connections it accepted and those it saw closed, so a test can tell that a
 * client gave up on a connection rather than leaving it open.
 */
public final class ScriptedEngine implements AutoCloseable {

    public enum Transport {
        UNIX,
        TCP
    }

    /** What the engine does with one request. */
    public sealed interface Reply permits Reply.Answer, Reply.Raw, Fault {
        /** A whole answer, then the connection closed. */
        record Answer(int status, String body) implements Reply {}

        /** These bytes, head and body as given, sent a byte at a time, then the connection closed. */
        record Raw(String response) implements Reply {}

        static Reply answer(int status, String body) {
            return new Answer(status, body);
        }

        static Reply raw(String response) {
            return new Raw(response);
        }
    }

    /** An engine that stops answering part way; it then waits for the client to close. */
    public enum Fault implements Reply {
        /** Reads the request and never answers. */
        SILENT,
        /** Sends half a response head. */
        HALF_HEAD,
        /** Sends a whole head stating a body, and the start of that body. */
        HALF_BODY
    }

    private final ServerSocketChannel server;
    private final URI host;
    private final Path dir;
    private volatile Function<String, Reply> replies;
    private final AtomicInteger accepted = new AtomicInteger();
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();

    private ScriptedEngine(ServerSocketChannel server, URI host, Path dir, Function<String, Reply> replies) {
        this.server = server;
        this.host = host;
        this.dir = dir;
        this.replies = replies;
        Thread acceptor = new Thread(this::accept, "scripted-engine-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** @param replies from a request's method and path ({@code GET /containers/json?all=1}) to what to do */
    public static ScriptedEngine start(Transport transport, Function<String, Reply> replies) {
        try {
            if (transport == Transport.UNIX) {
                Path dir = Files.createTempDirectory("sluice-scripted-engine");
                Path socket = dir.resolve("engine.sock");
                ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
                server.bind(UnixDomainSocketAddress.of(socket));
                return new ScriptedEngine(server, URI.create("unix://" + socket), dir, replies);
            }
            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            int port = ((InetSocketAddress) server.getLocalAddress()).getPort();
            return new ScriptedEngine(server, URI.create("tcp://127.0.0.1:" + port), null, replies);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Answers from now on as {@code replies} says. */
    public void replies(Function<String, Reply> replies) {
        this.replies = replies;
    }

    public URI host() {
        return host;
    }

    public int accepted() {
        return accepted.get();
    }

    /** Connections accepted and not yet closed, by the client or after a whole answer. */
    public int open() {
        return open.size();
    }

    /** Waits until every connection accepted so far has been closed; false when some are still open after {@code within}. */
    public boolean awaitAllClosed(Duration within) throws InterruptedException {
        Instant deadline = Instant.now().plus(within);
        while (!open.isEmpty() && Instant.now().isBefore(deadline)) {
            Thread.sleep(10);
        }
        return open.isEmpty();
    }

    private void accept() {
        while (server.isOpen()) {
            try {
                SocketChannel connection = server.accept();
                accepted.incrementAndGet();
                open.add(connection);
                Thread handler = new Thread(() -> serve(connection), "scripted-engine-connection");
                handler.setDaemon(true);
                handler.start();
            } catch (IOException e) {
                return; // closed
            }
        }
    }

    private void serve(SocketChannel connection) {
        try (connection) {
            String request = readRequest(connection);
            if (request == null) {
                return;
            }
            Reply reply = replies.apply(request);
            if (reply instanceof Reply.Answer answer) {
                byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
                write(
                        connection,
                        "HTTP/1.1 " + answer.status() + " X\r\nContent-Type: application/json\r\nContent-Length: "
                                + body.length + "\r\nConnection: close\r\n\r\n" + answer.body());
                return;
            }
            if (reply instanceof Reply.Raw raw) {
                for (byte b : raw.response().getBytes(StandardCharsets.UTF_8)) {
                    connection.write(ByteBuffer.wrap(new byte[] {b}));
                }
                return;
            }
            switch ((Fault) reply) {
                case SILENT -> {}
                case HALF_HEAD -> write(connection, "HTTP/1.1 200 OK\r\nContent-Type: applic");
                case HALF_BODY ->
                    write(
                            connection,
                            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 64\r\n\r\n"
                                    // the start of what the call expects: a listing's array, or an object
                                    + (request.contains("/containers/json") ? "[{\"Id\":\"ab" : "{\"Id\":\"ab"));
            }
            // Hold the connection until the client closes it.
            ByteBuffer sink = ByteBuffer.allocate(4096);
            while (connection.read(sink) >= 0) {
                sink.clear();
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            open.remove(connection);
        }
    }

    /** The request's method and path; its headers and body are read and dropped. */
    private static String readRequest(SocketChannel connection) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
        String head;
        while (true) {
            if (connection.read(buffer) < 0) {
                return null;
            }
            String text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end >= 0) {
                head = text.substring(0, end);
                int bodyRead = buffer.position() - end - 4;
                long length = contentLength(head);
                ByteBuffer rest = ByteBuffer.allocate((int) Math.max(0, length - bodyRead));
                while (rest.hasRemaining() && connection.read(rest) >= 0) {
                    // the body is not looked at
                }
                break;
            }
        }
        String[] line = head.substring(0, head.indexOf("\r\n")).split(" ");
        return line[0] + " " + line[1];
    }

    private static long contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Long.parseLong(line.substring(15).strip());
            }
        }
        return 0;
    }

    private static void write(SocketChannel connection, String text) throws IOException {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
            connection.write(bytes);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (SocketChannel c : open) {
            c.close();
        }
        if (dir != null) {
            Files.deleteIfExists(dir.resolve("engine.sock"));
            Files.deleteIfExists(dir);
        }
    }
}
