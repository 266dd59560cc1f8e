package dev.sluice.output;

import java.util.ArrayList;
import java.util.List;

/**
 * The output caps in force, checked once at start-up: a worker with caps it
 * cannot honour refuses to start and says which setting is wrong.
 */
public record OutputLimits(int stdoutCap, int stderrCap, int maxStdoutCap, int maxStderrCap, int maxJsonDocument) {

    public static OutputLimits from(OutputConfig config) {
        List<String> problems = new ArrayList<>();
        int stdout = cap("sluice.output.stdout-cap", config.stdoutCap().asLongValue(), problems);
        int stderr = cap("sluice.output.stderr-cap", config.stderrCap().asLongValue(), problems);
        int maxStdout =
                cap("sluice.output.max-stdout-cap", config.maxStdoutCap().asLongValue(), problems);
        int maxStderr =
                cap("sluice.output.max-stderr-cap", config.maxStderrCap().asLongValue(), problems);
        long maxJson = config.maxJsonDocument().asLongValue();
        if (maxJson < 0 || maxJson > OutputCollector.MAX_CAP) {
            problems.add("sluice.output.max-json-document is " + maxJson + " bytes; it must be between 0 and "
                    + OutputCollector.MAX_CAP + " (the document is held in memory as one array)");
        }
        if (problems.isEmpty() && stdout > maxStdout) {
            problems.add("sluice.output.stdout-cap (" + stdout + " bytes) exceeds sluice.output.max-stdout-cap ("
                    + maxStdout + ")");
        }
        if (problems.isEmpty() && stderr > maxStderr) {
            problems.add("sluice.output.stderr-cap (" + stderr + " bytes) exceeds sluice.output.max-stderr-cap ("
                    + maxStderr + ")");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid output caps: " + String.join("; ", problems));
        }
        return new OutputLimits(stdout, stderr, maxStdout, maxStderr, (int) maxJson);
    }

    private static int cap(String name, long bytes, List<String> problems) {
        if (bytes < OutputCollector.MIN_CAP || bytes > OutputCollector.MAX_CAP) {
            problems.add(name + " is " + bytes + " bytes; a cap must be at least " + OutputCollector.MIN_CAP
                    + " bytes (room for the truncation marker and some output) and at most " + OutputCollector.MAX_CAP);
            return 0;
        }
        return (int) bytes;
    }
}
