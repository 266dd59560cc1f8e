package dev.sluice.testsupport;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;

/**
 * A real HTTP/1.1 server on a plain socket that records every request and
 * answers as the test scripts it: a status, a redirect, a hang, a reset, or
 * no answer at all. A plain socket because misbehaving is the point.
 */
public final class Receiver implements AutoCloseable {

    /** What the receiver does with one request. */
    public sealed interface Behaviour permits Status, Hang, Reset, Empty {}

    public record Status(int code, Map<String, String> headers) implements Behaviour {}

    /** Reads the request and never answers. */
    public record Hang() implements Behaviour {}

    /** Reads the request and resets the connection. */
    public record Reset() implements Behaviour {}

    /** Reads the request and closes the connection without a byte. */
    public record Empty() implements Behaviour {}

    public static Behaviour status(int code) {
        return new Status(code, Map.of());
    }

    public static Behaviour status(int code, String header, String value) {
        return new Status(code, Map.of(header, value));
    }

    /** One request as received. */
    public record Request(Instant at, String method, String path, Map<String, String> headers, byte[] body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** The body as sent before its {@code Content-Encoding}: gunzipped when it says gzip. */
        public byte[] decodedBody() {
            if (!"gzip".equalsIgnoreCase(header("content-encoding"))) {
                return body;
            }
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException("not gzip", e);
            }
        }
    }

    private final ServerSocket server;
    private final ExecutorService handlers = Executors.newCachedThreadPool();
    private final Deque<Behaviour> script = new ConcurrentLinkedDeque<>();
    private volatile Behaviour otherwise = status(200);
    private final List<Request> requests = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger connections = new AtomicInteger();
    private final List<Socket> open = Collections.synchronizedList(new ArrayList<>());

    private Receiver(InetAddress address, int port) throws IOException {
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(address, port));
        handlers.execute(this::accept);
    }

    public static Receiver on(String address) {
        return on(address, 0);
    }

    /** A receiver on a chosen port: one that was down can come back where it was. */
    public static Receiver on(String address, int port) {
        try {
            return new Receiver(InetAddress.getByName(address), port);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Behaviours for the next requests, in order; after them, {@link #otherwise(Behaviour)}. */
    public Receiver then(Behaviour... behaviours) {
        script.addAll(List.of(behaviours));
        return this;
    }

    public Receiver otherwise(Behaviour behaviour) {
        this.otherwise = behaviour;
        return this;
    }

    public String url(String path) {
        String host = server.getInetAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + server.getLocalPort() + path;
    }

    public int port() {
        return server.getLocalPort();
    }

    public List<Request> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /**
     * The requests whose webhook-id starts with {@code prefix}, one per
     * webhook-id (a retry repeats the same body), in the order they first came.
     */
    public Map<String, Request> byWebhookId(String prefix) {
        Map<String, Request> byId = new LinkedHashMap<>();
        for (Request r : requests()) {
            String id = r.header("webhook-id");
            if (id != null && id.startsWith(prefix)) {
                byId.putIfAbsent(id, r);
            }
        }
        return byId;
    }

    /** Connections accepted, whether or not a request followed. */
    public int connections() {
        return connections.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                connections.incrementAndGet();
                open.add(socket);
                handlers.execute(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = socket.getInputStream();
            while (true) {
                Request request = read(in);
                if (request == null) {
                    return;
                }
                requests.add(request);
                Behaviour behaviour = script.isEmpty() ? otherwise : script.poll();
                if (!answer(socket, behaviour)) {
                    return;
                }
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    /** Answers; false when the connection is done with. */
    private boolean answer(Socket socket, Behaviour behaviour) throws IOException {
        if (behaviour instanceof Status s) {
            StringBuilder head = new StringBuilder("HTTP/1.1 " + s.code() + " Scripted\r\n");
            s.headers().forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append("Content-Length: 2\r\n\r\nok");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return true;
        }
        if (behaviour instanceof Hang) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
        if (behaviour instanceof Reset) {
            socket.setSoLinger(true, 0);
        }
        return false; // Reset and Empty: close now
    }

    private static Request read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last = 0; // the last four bytes read, to find the blank line that ends the head
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            last = (last << 8) | b;
            if (last == 0x0D0A0D0A) {
                break;
            }
        }
        if (last != 0x0D0A0D0A) {
            return null;
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] start = lines[0].split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(
                        lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).strip());
            }
        }
        byte[] body;
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = readChunked(in);
        } else {
            int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            body = in.readNBytes(length);
            if (body.length < length) {
                return null; // the sender went away mid-body: no request, as for any HTTP server
            }
        }
        return new Request(Instant.now(), start[0], start.length > 1 ? start[1] : "", headers, body);
    }

    /** A chunked body (RFC 9112, 7.1): sizes in hex, each chunk followed by CRLF, ended by a zero chunk. */
    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = line(in);
            int size = Integer.parseInt(sizeLine.split(";", 2)[0].strip(), 16);
            if (size == 0) {
                while (!line(in).isEmpty()) {
                    // trailer fields, ignored
                }
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            line(in);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing
        }
        synchronized (open) {
            for (Socket s : open) {
                try {
                    s.close();
                } catch (IOException | RuntimeException e) {
                    // closing
                }
            }
        }
        handlers.shutdownNow();
    }
}
