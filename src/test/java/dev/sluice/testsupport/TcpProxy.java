package dev.sluice.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.IntSupplier;

/**
 * A TCP relay on loopback to one upstream (a PostgreSQL server, a worker),
 * which a test can cut: every connection is closed and new ones are closed as
 * they come, as a store that went away looks to its client, without stopping a
 * server other tests share. It keeps the first bytes its clients sent, for a
 * test of what crossed the wire.
 */
public final class TcpProxy implements AutoCloseable {

    /** The most of what clients sent that is kept. */
    private static final int KEPT = 4 * 1024 * 1024;

    private final String upstreamHost;
    private final IntSupplier upstreamPort;
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tcp-proxy");
        t.setDaemon(true);
        return t;
    });
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    private TcpProxy(String upstreamHost, IntSupplier upstreamPort) throws IOException {
        this.upstreamHost = upstreamHost;
        this.upstreamPort = upstreamPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(this::accept);
    }

    /** A relay to {@code host:port}, listening on a free port of loopback. */
    public static TcpProxy to(String host, int port) {
        return to(host, () -> port);
    }

    /**
     * A relay to {@code host} at the port {@code port} names when a client
     * connects: for an upstream whose port is known only after the relay's
     * own is (a worker that advertises the relay's address).
     */
    public static TcpProxy to(String host, IntSupplier port) {
        try {
            return new TcpProxy(host, port);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** What clients sent through the relay so far (its first 4 MiB), as ISO-8859-1 text. */
    public String sent() {
        synchronized (sent) {
            return sent.toString(StandardCharsets.ISO_8859_1);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Closes every relayed connection, and each new one as it comes, until {@link #restore}. */
    public void cut() {
        cut = true;
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    public void restore() {
        cut = false;
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket client;
            try {
                client = server.accept();
            } catch (IOException e) {
                continue; // closed: the loop ends
            }
            if (cut) {
                closeQuietly(client);
                continue;
            }
            Socket upstream = new Socket();
            try {
                upstream.connect(new InetSocketAddress(upstreamHost, upstreamPort.getAsInt()), 2_000);
            } catch (IOException e) {
                // the upstream refused: the client sees its connection end
                closeQuietly(client);
                closeQuietly(upstream);
                continue;
            }
            open.add(client);
            open.add(upstream);
            threads.execute(() -> pump(client, upstream, true));
            threads.execute(() -> pump(upstream, client, false));
        }
    }

    private void pump(Socket from, Socket to, boolean keep) {
        byte[] buffer = new byte[16 * 1024];
        try (InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (keep) {
                    synchronized (sent) {
                        sent.write(buffer, 0, Math.max(0, Math.min(n, KEPT - sent.size())));
                    }
                }
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed: the other goes too
        } finally {
            closeQuietly(from);
            closeQuietly(to);
            open.remove(from);
            open.remove(to);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        cut();
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        threads.shutdownNow();
    }
}
