package dev.sluice.api;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.actions.ApiConfig;
import dev.sluice.concurrent.Threads;
import dev.sluice.io.LogRange;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes a log range to its client as the runtime's log sends it (ADR 0054).
 * Each write may wait for the client at most {@code sluice.api.log-write-timeout}:
 * past it the connection is closed, which ends the wait, the engine read and
 * the read's slot. Once bytes are out, a failure can only be told by cutting
 * the connection: the answer's {@code Content-Length} then says it is short.
 */
@Singleton
class LogWrites {

    private static final Logger LOG = Logger.getLogger(LogWrites.class);

    private final Duration timeout;
    private final ScheduledThreadPoolExecutor deadlines;

    @Inject
    LogWrites(ApiConfig config) {
        this.timeout = config.logWriteTimeout();
        this.deadlines = new ScheduledThreadPoolExecutor(1, Threads.named("log-write-deadline-"));
        deadlines.setRemoveOnCancelPolicy(true);
    }

    void write(LogRange range, OutputStream out, HttpServerResponse response) throws IOException {
        Guarded guarded = new Guarded(out, response);
        try {
            range.writeTo(guarded);
            guarded.flush();
        } catch (IOException | RuntimeException e) {
            if (!response.headWritten()) {
                throw e; // nothing sent yet: the problem is answered as any refusal is
            }
            LOG.debugf("a log range was cut after %d bytes: %s", guarded.written, e.getMessage());
            response.reset();
        }
    }

    @PreDestroy
    void stop() {
        deadlines.shutdownNow();
    }

    /** The client's stream, each write of it under the deadline. */
    private final class Guarded extends FilterOutputStream {

        private final HttpServerResponse response;
        private long written;

        Guarded(OutputStream out, HttpServerResponse response) {
            super(out);
            this.response = response;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            ScheduledFuture<?> deadline = deadlines.schedule(this::cut, timeout.toMillis(), TimeUnit.MILLISECONDS);
            try {
                out.write(bytes, offset, length);
                written += length;
            } finally {
                deadline.cancel(false);
            }
        }

        @Override
        public void flush() throws IOException {
            ScheduledFuture<?> deadline = deadlines.schedule(this::cut, timeout.toMillis(), TimeUnit.MILLISECONDS);
            try {
                out.flush();
            } finally {
                deadline.cancel(false);
            }
        }

        @Override
        public void close() {
            // The framework ends the answer; the range only writes into it.
        }

        private void cut() {
            LOG.infof("a client read no log for %s; its connection is closed", timeout);
            response.reset();
        }
    }
}
