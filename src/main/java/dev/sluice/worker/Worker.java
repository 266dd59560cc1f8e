package dev.sluice.worker;

import dev.sluice.outbound.LocalHost;

/** This worker's identity: {@code sluice.worker.id}, else the host name (the pod name in Kubernetes). */
public record Worker(String id) {

    static Worker from(WorkerConfig config) {
        return new Worker(config.id().filter(s -> !s.isBlank()).orElseGet(Worker::hostName));
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env;
        }
        return LocalHost.name().orElse("sluice");
    }
}
