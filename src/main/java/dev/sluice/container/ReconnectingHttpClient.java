package dev.sluice.container;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import org.jboss.logging.Logger;

import com.github.dockerjava.transport.DockerHttpClient;

/**
 * A transport that survives an engine restart. docker-java's pool never
 * checks an idle connection before reusing it, so after the engine restarts
 * every pooled connection fails on first use (broken pipe, reset, no answer).
 * When a call fails that way, this replaces the whole client, pool and all,
 * and sends the call once more: it failed before reaching any engine, so
 * sending it again is safe. Timeouts are never retried: a hung engine must
 * show as one.
 */
final class ReconnectingHttpClient implements DockerHttpClient {

    private static final Logger LOG = Logger.getLogger(ReconnectingHttpClient.class);

    private final Supplier<DockerHttpClient> factory;
    private final AtomicReference<DockerHttpClient> current;

    ReconnectingHttpClient(Supplier<DockerHttpClient> factory) {
        this.factory = factory;
        this.current = new AtomicReference<>(factory.get());
    }

    @Override
    public Response execute(Request request) {
        DockerHttpClient client = current.get();
        try {
            return client.execute(request);
        } catch (RuntimeException e) {
            if (!deadConnection(e)) {
                throw e;
            }
            LOG.infof("engine connection lost (%s); reconnecting", e.getMessage());
            return replace(client).execute(request);
        }
    }

    private DockerHttpClient replace(DockerHttpClient dead) {
        DockerHttpClient fresh = factory.get();
        if (current.compareAndSet(dead, fresh)) {
            closeQuietly(dead);
            return fresh;
        }
        closeQuietly(fresh); // another caller replaced it first
        return current.get();
    }

    /** A connection the engine closed under us; not a timeout. */
    static boolean deadConnection(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InterruptedIOException) {
                return false;
            }
            if (t instanceof IOException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static void closeQuietly(DockerHttpClient client) {
        try {
            client.close();
        } catch (IOException | RuntimeException e) {
            // it is being discarded
        }
    }

    @Override
    public void close() throws IOException {
        current.get().close();
    }
}
