package dev.sluice.container.sandbox;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What one dispatch asks of its container. Deployment-wide protections come
 * from {@link ContainerConfig}; these are the per-dispatch values.
 *
 * @param env        environment, secrets included; never logged or stored
 * @param openStdin  whether input will be written to stdin on attach
 * @param memoryBytes 0 for no limit
 * @param nanoCpus   CPU limit in billionths of a CPU, 0 for none
 * @param pids       process limit, 0 for none
 * @param runtime    the engine's runtime to run it under; {@code null} for the engine's default
 * @param workspace  a plain tar on the worker's disk to place in the work area before the start, or {@code null}
 */
public record ContainerSpec(
        String image,
        List<String> command,
        Map<String, String> env,
        String workingDir,
        boolean openStdin,
        Map<String, String> labels,
        long memoryBytes,
        long nanoCpus,
        long pids,
        String network,
        String runtime,
        Path workspace) {}
