package dev.sluice.bench;

import static dev.sluice.bench.Measure.f;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.core.DefaultDockerClientConfig;
import com.github.dockerjava.core.DockerClientImpl;
import com.github.dockerjava.httpclient5.ApacheDockerHttpClient;
import com.github.dockerjava.transport.DockerHttpClient;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.testsupport.TestDocker;

/**
 * What one control call costs through the worker's control client, beside
 * docker-java's httpclient5 transport with a pool of 32 connections and a 30 s
 * response timeout (how the control client was built until ADR 0016). Each
 * round makes the same calls through both, alternating, after one uncounted
 * round: container inspects, listings, image inspects, and create-then-remove
 * pairs. Run by {@code bench/run.sh calls [calls] [rounds]}.
 */
public final class ControlCallCost {

    private interface Call {
        void run(DockerClient docker);
    }

    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        try (DockerClients clients = TestDocker.clients();
                DockerHttpClient hc5 = new ApacheDockerHttpClient.Builder()
                        .dockerHost(clients.host())
                        .maxConnections(32)
                        .connectionTimeout(Duration.ofSeconds(5))
                        .responseTimeout(Duration.ofSeconds(30))
                        .build()) {
            Map<String, DockerClient> transports = new LinkedHashMap<>();
            transports.put(
                    "httpclient5, pooled",
                    DockerClientImpl.getInstance(
                            DefaultDockerClientConfig.createDefaultConfigBuilder()
                                    .build(),
                            hc5));
            transports.put("control client", clients.control());

            String target = clients.control()
                    .createContainerCmd(TestDocker.AGENT_IMAGE)
                    .withCmd("true")
                    .withLabels(Map.of("dev.sluice.bench", "calls"))
                    .exec()
                    .getId();
            try {
                Map<String, Call> kinds = new LinkedHashMap<>();
                kinds.put(
                        "inspect container", d -> d.inspectContainerCmd(target).exec());
                kinds.put(
                        "list containers",
                        d -> d.listContainersCmd()
                                .withShowAll(true)
                                .withLabelFilter(List.of("dev.sluice.bench"))
                                .exec());
                kinds.put(
                        "inspect image",
                        d -> d.inspectImageCmd(TestDocker.AGENT_IMAGE).exec());
                kinds.put(
                        "create + remove",
                        d -> d.removeContainerCmd(d.createContainerCmd(TestDocker.AGENT_IMAGE)
                                        .withCmd("true")
                                        .withLabels(Map.of("dev.sluice.bench", "calls"))
                                        .exec()
                                        .getId())
                                .withForce(true)
                                .exec());
                report(measure(transports, kinds, calls, rounds));
            } finally {
                clients.control().removeContainerCmd(target).withForce(true).exec();
            }
        }
    }

    /** Per kind and transport: the rounds' figures, each {median ms, p99 ms, CPU ms per call}. */
    private static Map<String, Map<String, List<double[]>>> measure(
            Map<String, DockerClient> transports, Map<String, Call> kinds, int calls, int rounds) {
        Map<String, Map<String, List<double[]>>> figures = new LinkedHashMap<>();
        for (int round = 0; round <= rounds; round++) {
            for (Map.Entry<String, Call> kind : kinds.entrySet()) {
                // Creates are the engine's slowest call: a tenth as many keep a round short.
                int n = kind.getKey().startsWith("create") ? Math.max(1, calls / 10) : calls;
                for (Map.Entry<String, DockerClient> transport : transports.entrySet()) {
                    double[] m = time(transport.getValue(), kind.getValue(), n);
                    if (round > 0) {
                        figures.computeIfAbsent(kind.getKey(), k -> new LinkedHashMap<>())
                                .computeIfAbsent(transport.getKey(), k -> new ArrayList<>())
                                .add(m);
                    }
                }
            }
        }
        return figures;
    }

    private static double[] time(DockerClient docker, Call call, int n) {
        List<Double> millis = new ArrayList<>(n);
        double cpuBefore = processCpuSeconds();
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            call.run(docker);
            millis.add((System.nanoTime() - start) / 1e6);
        }
        double cpuMs = (processCpuSeconds() - cpuBefore) * 1000 / n;
        return new double[] {Measure.median(millis), Measure.percentile(millis, 99), cpuMs};
    }

    private static void report(Map<String, Map<String, List<double[]>>> figures) {
        System.out.println(
                "| call | transport | p50 ms | p99 ms | worker CPU ms per call |\n| --- | --- | --- | --- | --- |");
        figures.forEach((kind, byTransport) -> byTransport.forEach((transport, runs) -> System.out.println("| " + kind
                + " | " + transport + " | " + f(median(runs, 0)) + " | " + f(median(runs, 1)) + " | "
                + f(median(runs, 2)) + " |")));
    }

    private static double median(List<double[]> runs, int column) {
        return Measure.median(runs.stream().map(r -> r[column]).toList());
    }

    private static double processCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime()
                / 1e9;
    }
}
