package dev.sluice.dispatch;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * A validated dispatch with the worker's defaults applied: what the runner
 * needs to start it. Stored as JSON without {@link #secrets()}, whose values
 * live only in memory; {@link #secretNames()} records that they existed.
 */
public record DispatchSpec(
        String image,
        List<String> command,
        Map<String, String> env,
        @JsonIgnore Map<String, String> secrets,
        List<String> secretNames,
        String input,
        String workingDir,
        Duration timeout,
        long memoryBytes,
        long nanoCpus,
        long pids,
        String network,
        int stdoutCap,
        int stderrCap,
        String callbackUrl,
        Map<String, Object> metadata) {

    public boolean hasSecrets() {
        return !secretNames.isEmpty();
    }

    /** True when the secret values were lost (the spec was read back from the store). */
    @JsonIgnore
    public boolean secretsMissing() {
        return hasSecrets() && (secrets == null || secrets.isEmpty());
    }
}
