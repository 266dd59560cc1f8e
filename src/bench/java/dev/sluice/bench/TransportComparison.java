package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;
import com.github.dockerjava.zerodep.ZerodepDockerHttpClient;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ContainerSpec;
import dev.sluice.container.stream.Attachment;
import dev.sluice.container.stream.OutputSink;
import dev.sluice.output.MarkerNonce;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.SecretMasker;
import dev.sluice.testsupport.TestDocker;

/**
 * The attach paths side by side on one flood (ADR 0011): our own attach
 * connection, and docker-java's {@code attachContainerCmd} callback over its
 * httpclient5 and zerodep transports. Each reads the same container output
 * into the same collectors; wall time and this process's CPU are compared,
 * rounds alternating, after one uncounted round. Run by
 * {@code bench/run.sh transports}.
 */
public final class TransportComparison {

    private interface AttachPath {
        /** Attaches to the created container, starts it, and returns the bytes read once the stream ends. */
        long run(String containerId) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        long bytes = (args.length > 0 ? Long.parseLong(args[0]) : 1024) << 20;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        try (DockerClients clients = TestDocker.clients();
                DockerHttpClient hc5 = new ApacheDockerHttpClient.Builder()
                        .dockerHost(clients.host())
                        .build();
                DockerHttpClient zerodep = new ZerodepDockerHttpClient.Builder()
                        .dockerHost(clients.host())
                        .build()) {
            ContainerRuntime runtime = new ContainerRuntime(clients, TestDocker.containerConfig());
            Map<String, AttachPath> paths = new LinkedHashMap<>();
            paths.put("own attach connection (Attachment)", id -> own(runtime, id));
            paths.put("docker-java callback, httpclient5", id -> callback(client(hc5), runtime, id));
            paths.put("docker-java callback, zerodep", id -> callback(client(zerodep), runtime, id));

            Map<String, List<double[]>> figures = new LinkedHashMap<>();
            for (int round = 0; round <= rounds; round++) {
                for (Map.Entry<String, AttachPath> path : paths.entrySet()) {
                    double[] m = measure(runtime, path.getValue(), bytes);
                    if (round > 0) {
                        figures.computeIfAbsent(path.getKey(), k -> new ArrayList<>())
                                .add(m);
                    }
                }
            }
            double gib = bytes / (double) (1L << 30);
            System.out.println("| attach path | MiB/s | CPU-s per GiB (reader process) |\n| --- | --- | --- |");
            figures.forEach((name, runs) -> {
                double seconds = Measure.median(runs.stream().map(r -> r[0]).toList());
                double cpu = Measure.median(runs.stream().map(r -> r[1]).toList());
                System.out.println("| " + name + " | " + f(bytes / 1048576.0 / seconds) + " | " + f(cpu / gib) + " |");
            });
        }
    }

    private static DockerClient client(DockerHttpClient http) {
        return DockerClientImpl.getInstance(
                DefaultDockerClientConfig.createDefaultConfigBuilder().build(), http);
    }

    /** Seconds and process CPU seconds for one flood read through {@code path}. */
    private static double[] measure(ContainerRuntime runtime, AttachPath path, long bytes) throws Exception {
        String id = runtime.create(new ContainerSpec(
                TestDocker.AGENT_IMAGE,
                List.of("sh", "-c", Harness.flood(bytes, false)),
                Map.of(),
                null,
                false,
                Map.of(),
                256L << 20,
                0,
                64,
                "none",
                null,
                null));
        try {
            double cpuBefore = processCpuSeconds();
            long start = System.nanoTime();
            long read = path.run(id);
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = processCpuSeconds() - cpuBefore;
            if (read != bytes) {
                throw new IllegalStateException("read " + read + " of " + bytes + " bytes");
            }
            return new double[] {seconds, cpu};
        } finally {
            runtime.remove(id);
        }
    }

    private static long own(ContainerRuntime runtime, String id) {
        OutputCollector stdout = collector();
        try (Attachment attachment = runtime.attach(id, null)) {
            runtime.start(id);
            attachment.pump(new OutputSink() {
                @Override
                public void stdout(byte[] chunk, int offset, int count) {
                    stdout.write(chunk, offset, count);
                }

                @Override
                public void stderr(byte[] chunk, int offset, int count) {}
            });
        }
        return stdout.bytesWritten();
    }

    private static long callback(DockerClient docker, ContainerRuntime runtime, String id) throws Exception {
        OutputCollector stdout = collector();
        ResultCallback.Adapter<Frame> frames = new ResultCallback.Adapter<>() {
            @Override
            public void onNext(Frame frame) {
                if (frame.getStreamType() == StreamType.STDOUT) {
                    stdout.write(frame.getPayload(), 0, frame.getPayload().length);
                }
            }
        };
        docker.attachContainerCmd(id)
                .withStdOut(true)
                .withStdErr(true)
                .withFollowStream(true)
                .exec(frames);
        frames.awaitStarted();
        runtime.start(id);
        if (!frames.awaitCompletion(Duration.ofHours(1).toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("attach did not end");
        }
        return stdout.bytesWritten();
    }

    private static OutputCollector collector() {
        return new OutputCollector(
                "stdout", 4 << 20, "/v1/dispatches/bench/logs/stdout", MarkerNonce.random(), SecretMasker.NONE);
    }

    private static double processCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime()
                / 1e9;
    }
}
