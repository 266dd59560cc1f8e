package dev.sluice.container;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * One raw HTTP/1.1 connection to the engine, for the attach that the
 * docker-java transports cannot do right: their Unix sockets cannot half-close,
 * so a process never sees end-of-file on its stdin. This uses the JDK's own
 * channels ({@code unix://} and plain {@code tcp://}), reads in large blocks and
 * half-closes for real (ADR 0012).
 */
final class EngineSocket implements AutoCloseable {

    private static final int MAX_HEADER = 16 * 1024;
    private static final int MAX_ERROR_BODY = 4096;

    private final SocketChannel channel;

    private EngineSocket(SocketChannel channel) {
        this.channel = channel;
    }

    static EngineSocket connect(URI host, Duration connectTimeout) throws IOException {
        String scheme = host.getScheme() == null ? "" : host.getScheme().toLowerCase(Locale.ROOT);
        switch (scheme) {
            case "unix" -> {
                SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX);
                try {
                    channel.connect(UnixDomainSocketAddress.of(host.getPath()));
                } catch (IOException e) {
                    channel.close();
                    throw e;
                }
                return new EngineSocket(channel);
            }
            case "tcp", "http" -> {
                SocketChannel channel = SocketChannel.open();
                try {
                    channel.socket()
                            .connect(
                                    new InetSocketAddress(host.getHost(), host.getPort() > 0 ? host.getPort() : 2375),
                                    (int) connectTimeout.toMillis());
                } catch (IOException e) {
                    channel.close();
                    throw e;
                }
                return new EngineSocket(channel);
            }
            default -> throw new IOException("engine host scheme " + scheme + " is not supported for attach");
        }
    }

    /** Whether this path can reach the given engine endpoint. */
    static boolean supports(URI host, boolean tls) {
        String scheme = host.getScheme() == null ? "" : host.getScheme().toLowerCase(Locale.ROOT);
        return !tls && (scheme.equals("unix") || scheme.equals("tcp") || scheme.equals("http"));
    }

    /** Sends {@code GET /_ping} and returns the status of the answer. */
    int ping() throws IOException {
        write(ByteBuffer.wrap("GET /_ping HTTP/1.1\r\nHost: docker\r\nConnection: close\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII)));
        return readHead(ByteBuffer.allocate(MAX_HEADER)).status();
    }

    /** The head of the engine's answer: its status and, for a plain answer, its body length (-1 when unstated). */
    record Head(int status, long contentLength) {}

    /**
     * Sends a bodiless request asking to upgrade the connection to a raw stream,
     * and reads the answer's head. Bytes past the head are left in {@code rest},
     * ready to be read.
     */
    Head upgrade(String method, String path, ByteBuffer rest) throws IOException {
        String request = method + " " + path + " HTTP/1.1\r\n"
                + "Host: docker\r\n"
                + "Content-Type: text/plain\r\n"
                + "Content-Length: 0\r\n"
                + "Connection: Upgrade\r\n"
                + "Upgrade: tcp\r\n\r\n";
        write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
        return readHead(rest);
    }

    private Head readHead(ByteBuffer rest) throws IOException {
        rest.clear();
        int headEnd;
        while ((headEnd = headEnd(rest)) < 0) {
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
        long contentLength = -1;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0 && lines[i].substring(0, colon).strip().equalsIgnoreCase("Content-Length")) {
                contentLength = parse(lines[i].substring(colon + 1).strip());
            }
        }
        return new Head((int) parse(statusLine[1]), contentLength);
    }

    private static long parse(String number) throws IOException {
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            throw new IOException("engine answered with an unreadable header");
        }
    }

    private static int headEnd(ByteBuffer buffer) {
        byte[] b = buffer.array();
        for (int i = 3; i < buffer.position(); i++) {
            if (b[i - 3] == '\r' && b[i - 2] == '\n' && b[i - 1] == '\r' && b[i] == '\n') {
                return i - 3;
            }
        }
        return -1;
    }

    /** The body of an error answer (bounded): what is buffered, then the rest of its stated length. */
    String errorBody(Head head, ByteBuffer rest) {
        int wanted = (int) Math.min(MAX_ERROR_BODY, head.contentLength() < 0 ? rest.remaining() : head.contentLength());
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

    int read(ByteBuffer into) throws IOException {
        return channel.read(into);
    }

    void write(ByteBuffer from) throws IOException {
        while (from.hasRemaining()) {
            channel.write(from);
        }
    }

    /** Ends our side of the stream: the engine passes end-of-file on to the process's stdin. */
    void shutdownOutput() throws IOException {
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
