package dev.sluice.container;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.LogConfig;
import com.github.dockerjava.transport.DockerHttpClient;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.engine.EngineHttpClient;
import dev.sluice.container.stream.Attachment;
import dev.sluice.container.stream.OutputSink;
import dev.sluice.container.stream.StreamPump;
import dev.sluice.output.MaskedRange;
import dev.sluice.output.SecretMasker;

/**
 * Reads a container's full output back from the engine's log driver: byte
 * ranges of one stream for the logs endpoint, and both streams whole when a
 * dispatch's output must be recovered (a live stream was cut, or the worker
 * restarted). Reads go through the streaming client; a container that is gone
 * gives {@link ContainerException.Reason#NOT_FOUND}.
 */
public class ContainerLogs {

    private final DockerClients clients;

    public ContainerLogs(DockerClients clients) {
        this.clients = clients;
    }

    /**
     * A range of one stream.
     *
     * @param bytes     the stream's bytes from {@code offset}, at most the limit asked for
     * @param offset    where they start in the stream, counted from its first byte
     * @param endOfLog  true when the range reaches the end of what the runtime holds
     */
    public record Range(byte[] bytes, long offset, boolean endOfLog) {}

    /**
     * What the runtime returns of each stream now.
     *
     * @param complete false when counting stopped early, past the bound asked for
     */
    public record Held(long stdout, long stderr, boolean complete) {

        public long total() {
            return stdout + stderr;
        }
    }

    /**
     * Reads {@code limit} bytes of {@code stdout} (or stderr) from the absolute
     * {@code offset}, masking secrets, where the runtime's copy of the stream
     * begins at {@code availableFrom} (ADR 0032; the caller refuses offsets
     * before it). It reads {@link SecretMasker#margin()} bytes past each end of
     * the range, so a secret that crosses an edge of the range is still found;
     * a log that lost its beginning may start inside a secret, masked too.
     */
    public Range read(
            String containerId, boolean stdout, long availableFrom, long offset, int limit, SecretMasker masker) {
        long local = offset - availableFrom;
        long windowStart = Math.max(0, local - masker.margin());
        long windowEnd = local + limit + masker.margin();
        RangeSink sink = new RangeSink(windowStart, windowEnd);
        try (DockerHttpClient.Response response = open(containerId, stdout, !stdout)) {
            Attachment.StreamEnd end = StreamPump.pump(response, sink, () -> sink.position >= windowEnd);
            if (end.readFailure() != null && sink.position < windowEnd) {
                throw new ContainerException(
                        ContainerException.Reason.ENGINE_ERROR, "log read failed: " + end.readFailure());
            }
        }
        boolean reachedEnd = sink.position < windowEnd;
        byte[] window = sink.window.toByteArray();
        masker.mask(window, 0, window.length, windowStart == 0 && availableFrom == 0, reachedEnd);
        int from = (int) Math.min(window.length, local - windowStart);
        int to = (int) Math.min(window.length, local - windowStart + limit);
        return new Range(Arrays.copyOfRange(window, from, to), offset, reachedEnd && sink.position <= local + limit);
    }

    /**
     * How much of a range of one stream the runtime holds, counted without
     * keeping it: the first pass of a range served as a stream (ADR 0054),
     * whose length and end are known before its first byte is sent.
     *
     * @param length   bytes of the range the runtime holds, at most {@code limit}
     * @param endOfLog true when the range reaches the end of what the runtime holds
     */
    public record Span(long length, boolean endOfLog) {}

    /** The span of {@code limit} bytes of {@code stdout} (or stderr) from the absolute {@code offset}. */
    public Span span(String containerId, boolean stdout, long availableFrom, long offset, long limit) {
        long local = offset - availableFrom;
        CountingSink counter = new CountingSink(); // one stream is asked for, so one count grows
        try (DockerHttpClient.Response response = open(containerId, stdout, !stdout)) {
            Attachment.StreamEnd end = StreamPump.pump(response, counter, () -> counter.total() > local + limit);
            if (end.readFailure() != null && counter.total() <= local + limit) {
                throw new ContainerException(
                        ContainerException.Reason.ENGINE_ERROR, "log read failed: " + end.readFailure());
            }
        }
        return counter.total() > local + limit
                ? new Span(limit, false)
                : new Span(Math.max(0, counter.total() - local), true);
    }

    /**
     * Writes {@code length} bytes of {@code stdout} (or stderr) from the
     * absolute {@code offset}, masked as {@link #read} masks them, to
     * {@code out} while the engine sends them: a block and two margins are
     * held, never the range. Throws {@link ContainerException} when the
     * runtime no longer holds them all (it was removed, or rotated, since the
     * span was counted), and what {@code out} throws when the client is gone.
     */
    public void copy(
            String containerId,
            boolean stdout,
            long availableFrom,
            long offset,
            long length,
            SecretMasker masker,
            OutputStream out)
            throws IOException {
        long local = offset - availableFrom;
        MaskedRange range = new MaskedRange(masker, local, local + length, availableFrom == 0, out);
        IOException[] written = {null};
        OutputSink sink = new OutputSink() {
            @Override
            public void stdout(byte[] chunk, int from, int count) {
                take(chunk, from, count);
            }

            @Override
            public void stderr(byte[] chunk, int from, int count) {
                take(chunk, from, count);
            }

            private void take(byte[] chunk, int from, int count) {
                try {
                    range.accept(chunk, from, count);
                } catch (IOException e) {
                    written[0] = e;
                }
            }
        };
        try (DockerHttpClient.Response response = open(containerId, stdout, !stdout)) {
            Attachment.StreamEnd end = StreamPump.pump(response, sink, () -> written[0] != null || range.complete());
            if (written[0] != null) {
                throw written[0];
            }
            if (end.readFailure() != null && !range.complete()) {
                throw new ContainerException(
                        ContainerException.Reason.ENGINE_ERROR, "log read failed: " + end.readFailure());
            }
            range.finish(!range.complete());
        }
        if (range.written() < length) {
            throw new ContainerException(
                    ContainerException.Reason.ENGINE_ERROR,
                    "the runtime's log holds " + range.written() + " of the range's " + length + " bytes now");
        }
    }

    /**
     * Counts what the runtime returns of both streams, without keeping it;
     * stops once both together pass {@code stopAbove} (then it is not complete).
     */
    public Held held(String containerId, long stopAbove) {
        CountingSink sink = new CountingSink();
        try (DockerHttpClient.Response response = open(containerId, true, true)) {
            Attachment.StreamEnd end = StreamPump.pump(response, sink, () -> sink.stdout + sink.stderr > stopAbove);
            boolean stopped = sink.stdout + sink.stderr > stopAbove;
            if (end.readFailure() != null && !stopped) {
                throw new ContainerException(
                        ContainerException.Reason.ENGINE_ERROR, "log read failed: " + end.readFailure());
            }
            return new Held(sink.stdout, sink.stderr, !stopped);
        }
    }

    /**
     * The container's log as its engine describes it (ADR 0049): the driver
     * and options of its inspection, which carry the engine's own defaults
     * (a daemon's {@code log-opts}), and the engine's name for itself.
     */
    public LogSetup setup(String containerId) {
        HostConfig host;
        try {
            host = clients.control().inspectContainerCmd(containerId).exec().getHostConfig();
        } catch (RuntimeException e) {
            throw ContainerException.from("inspect", e);
        }
        LogConfig log = host == null ? null : host.getLogConfig();
        // A driver name the client does not know reads as no type at all.
        String driver =
                log == null || log.getType() == null ? "" : log.getType().getType();
        Map<String, String> options = log == null || log.getConfig() == null ? Map.of() : log.getConfig();
        return new LogSetup(clients.identity().name(), driver, Set.copyOf(options.keySet()));
    }

    /** Feeds both streams, whole, from the start of the runtime's log into the sink. */
    public Attachment.StreamEnd replay(String containerId, OutputSink sink) {
        try (DockerHttpClient.Response response = open(containerId, true, true)) {
            return StreamPump.pump(response, sink, () -> false);
        }
    }

    private DockerHttpClient.Response open(String containerId, boolean stdout, boolean stderr) {
        DockerHttpClient.Request request = DockerHttpClient.Request.builder()
                .method(DockerHttpClient.Request.Method.GET)
                .path("/containers/" + containerId + "/logs?follow=0&stdout=" + (stdout ? 1 : 0) + "&stderr="
                        + (stderr ? 1 : 0))
                .build();
        DockerHttpClient.Response response;
        try {
            response = clients.streamingHttp().execute(request);
        } catch (RuntimeException e) {
            throw ContainerException.from("logs", e);
        }
        if (response.getStatusCode() != 200) {
            String body = EngineHttpClient.readError(response);
            response.close();
            throw ContainerException.fromStatus("logs", response.getStatusCode(), body);
        }
        return response;
    }

    /** Keeps the bytes of one stream that fall in a window, counting all of them. */
    private static final class RangeSink implements OutputSink {
        private final long start;
        private final long end;
        private final ByteArrayOutputStream window = new ByteArrayOutputStream();
        private long position;

        RangeSink(long start, long end) {
            this.start = start;
            this.end = end;
        }

        @Override
        public void stdout(byte[] chunk, int offset, int count) {
            take(chunk, offset, count);
        }

        @Override
        public void stderr(byte[] chunk, int offset, int count) {
            take(chunk, offset, count);
        }

        private void take(byte[] chunk, int offset, int count) {
            long from = Math.max(start, position);
            long to = Math.min(end, position + count);
            if (from < to) {
                window.write(chunk, offset + (int) (from - position), (int) (to - from));
            }
            position += count;
        }
    }

    private static final class CountingSink implements OutputSink {
        private long stdout;
        private long stderr;

        long total() {
            return stdout + stderr;
        }

        @Override
        public void stdout(byte[] chunk, int offset, int count) {
            stdout += count;
        }

        @Override
        public void stderr(byte[] chunk, int offset, int count) {
            stderr += count;
        }
    }
}
