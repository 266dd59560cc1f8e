package dev.sluice.api;

import java.util.List;
import java.util.Map;

/**
 * A dispatch as a control plane POSTs it (docs/api.md, section 3). Only
 * {@code image} is required; unknown fields are refused.
 */
public record DispatchRequest(
        String id,
        String image,
        List<String> command,
        Map<String, String> env,
        Map<String, String> secrets,
        String input,
        String workingDir,
        String timeout,
        Resources resources,
        String network,
        Output output,
        String callbackUrl,
        String callbackMode,
        Map<String, Object> metadata) {

    public record Resources(Long memoryBytes, Double cpus, Long pids) {}

    public record Output(Long stdoutCapBytes, Long stderrCapBytes) {}
}
