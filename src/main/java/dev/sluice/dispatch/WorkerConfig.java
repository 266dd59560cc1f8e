package dev.sluice.dispatch;

import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/** This worker's identity, labelled on every container it creates. */
@ConfigMapping(prefix = "sluice.worker")
public interface WorkerConfig {

    /** Stable id of this worker (the pod name in Kubernetes); unset means the host name. */
    Optional<String> id();
}
