package dev.sluice.record;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.sluice.json.RecordCopies;
import dev.sluice.output.OutputFormat;

/**
 * A validated dispatch with the worker's defaults applied: what the runner
 * needs to start it. Stored as JSON without {@link #secrets()}, whose values
 * live only in memory; {@link #secretNames()} records that they existed.
 * Specs stored before output formats existed have {@code null} formats and
 * projection: their streams are text ({@link #format(boolean)}); those stored
 * before pulls existed have a {@code null} {@link #imagePullPolicy()}: their
 * images were never pulled ({@link #pullPolicy()}).
 *
 * @param runtime     the engine's runtime the dispatch asked for; {@code null} for the engine's default
 * @param maxAttempts how many times it may be attempted when a worker running it is lost (ADR 0066); specs stored
 *                    before attempts existed allowed one
 */
public record DispatchSpec(
        String image,
        PullPolicy imagePullPolicy,
        List<String> command,
        Map<String, String> env,
        @JsonIgnore Map<String, String> secrets,
        List<String> secretNames,
        String input,
        String workingDir,
        Duration timeout,
        Duration idleTimeout,
        long memoryBytes,
        long nanoCpus,
        long pids,
        String network,
        String runtime,
        int stdoutCap,
        int stderrCap,
        OutputFormat stdoutFormat,
        OutputFormat stderrFormat,
        List<String> project,
        String callbackUrl,
        CallbackMode callbackMode,
        CallbackEncoding callbackEncoding,
        Map<String, Object> metadata,
        Workspace workspace,
        int maxAttempts) {

    public DispatchSpec {
        maxAttempts = Math.max(1, maxAttempts);
    }

    /**
     * Where the dispatch's workspace comes from (ADR 0060), never its
     * contents: files checked at intake and kept on the worker's disk under
     * the dispatch's key ({@code kept}), and an archive the worker fetches
     * when the dispatch starts. {@code null} for a dispatch without one.
     */
    public record Workspace(boolean kept, String archiveUrl, String archiveSha256) {}

    /** What a callback carries: the whole result, or its digest (docs/api.md, section 7.6). */
    public enum CallbackMode {
        FULL,
        DIGEST;

        @JsonValue
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The mode a request names; {@code null} for none, empty for a name that is not a mode. */
        public static Optional<CallbackMode> fromWire(String wire) {
            return Arrays.stream(values()).filter(m -> m.wire().equals(wire)).findFirst();
        }
    }

    /**
     * How a callback body is sent: as it is, or gzip-compressed with
     * {@code Content-Encoding: gzip}; the signature is over the uncompressed
     * body either way (docs/api.md, section 8.2).
     */
    public enum CallbackEncoding {
        IDENTITY,
        GZIP;

        @JsonValue
        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The encoding a request names; empty for a name that is not one. */
        public static Optional<CallbackEncoding> fromWire(String wire) {
            return Arrays.stream(values()).filter(e -> e.wire().equals(wire)).findFirst();
        }
    }

    /** The policy this dispatch's image is pulled by; a spec stored before pulls existed never pulls. */
    public PullPolicy pullPolicy() {
        return imagePullPolicy == null ? PullPolicy.NEVER : imagePullPolicy;
    }

    /** Specs stored before the mode existed have none: they send the whole result. */
    public boolean sendsDigest() {
        return callbackMode == CallbackMode.DIGEST;
    }

    /** How stdout (or stderr) is captured. */
    public OutputFormat format(boolean stdout) {
        return OutputFormat.orText(stdout ? stdoutFormat : stderrFormat);
    }

    /** The JSON Pointers of the fields to keep in each array element of a json stream; empty for none. */
    public List<String> projection() {
        return project == null ? List.of() : project;
    }

    /**
     * This spec with the secret values held in memory: a spec read back from
     * the store has none ({@link #secretsMissing()} says whether it needed them).
     */
    public DispatchSpec withSecrets(Map<String, String> values) {
        return RecordCopies.with(this, "secrets", values);
    }

    public boolean hasSecrets() {
        return !secretNames.isEmpty();
    }

    /**
     * Whether only the worker that accepted it can run it: its secrets' values
     * are in that worker's memory alone, a kept workspace on its disk alone.
     */
    @JsonIgnore
    public boolean runsOnlyWhereAccepted() {
        return hasSecrets() || (workspace != null && workspace.kept());
    }

    /** True when the secret values were lost (the spec was read back from the store). */
    @JsonIgnore
    public boolean secretsMissing() {
        return hasSecrets() && (secrets == null || secrets.isEmpty());
    }
}
