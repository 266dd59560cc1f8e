package dev.sluice.actions;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.actions.reading.BodyLimits;
import dev.sluice.callback.CallbackService;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.image.ImagesConfig;
import dev.sluice.output.OutputFormat;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.OutputCaps;
import dev.sluice.record.PullPolicy;
import dev.sluice.record.SecretsConfig;
import dev.sluice.store.Keys;

/**
 * Checks a request against the contract and the worker's maxima, naming every
 * bad field at once, and turns it into a {@link DispatchSpec} with the defaults
 * applied.
 */
@Singleton
public final class DispatchRequestValidator {

    /** A dispatch id, anchored as JSON Schema (the API document) reads a pattern. */
    public static final String ID_PATTERN = "^" + Keys.ID + "$";

    static final Pattern ID = Pattern.compile(ID_PATTERN);
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Pattern SHORT_DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");
    /** Docker refuses memory limits below 6 MB. */
    private static final long MIN_MEMORY = 6L << 20;

    private static final int MAX_METADATA = 16 * 1024;

    /** The most attempts a request may ask for: each is a whole run of the agent after a worker was lost. */
    public static final int MAX_ATTEMPTS = 10;

    private static final int MAX_POINTERS = BodyLimits.MAX_POINTERS;
    private static final int MAX_POINTER_LENGTH = 1024;
    private static final Pattern POINTER = Pattern.compile("(/([^~/]|~[01])*)+");

    private final DispatchConfig limits;
    private final OutputCaps caps;
    private final CallbackService callbacks;
    private final ObjectMapper json;
    private final SecretsConfig secrets;
    private final ContainerConfig runtimes;
    private final PullPolicy pullPolicy;

    @Inject
    DispatchRequestValidator(
            DispatchConfig limits,
            OutputCaps caps,
            CallbackService callbacks,
            ObjectMapper json,
            SecretsConfig secrets,
            ContainerConfig runtimes,
            ImagesConfig images) {
        this.limits = limits;
        this.caps = caps;
        this.callbacks = callbacks;
        this.json = json;
        this.secrets = secrets;
        this.runtimes = runtimes;
        this.pullPolicy = images.pullPolicy();
    }

    /** The spec for a valid request; otherwise a 422 naming each bad field. */
    public DispatchSpec validate(String tenant, DispatchRequest r) {
        return validate(tenant, r, null);
    }

    /**
     * As {@link #validate(String, DispatchRequest)}, for a request whose workspace was
     * checked and staged ({@code workspace} says where it is kept).
     */
    public DispatchSpec validate(String tenant, DispatchRequest r, DispatchSpec.Workspace workspace) {
        List<Problem.FieldError> errors = new ArrayList<>();
        DispatchSpec spec = check(tenant, r, errors, workspace, true);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid(errors);
        }
        return spec;
    }

    /**
     * The spec for a valid request, or {@code null} after adding each bad
     * field to {@code found}: the check a group makes of every member before
     * it refuses them all at once.
     */
    DispatchSpec check(String tenant, DispatchRequest r, List<Problem.FieldError> found) {
        return check(tenant, r, found, null, false);
    }

    private DispatchSpec check(
            String tenant,
            DispatchRequest r,
            List<Problem.FieldError> found,
            DispatchSpec.Workspace workspace,
            boolean workspaceTaken) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (r.workspace() != null && !workspaceTaken) {
            // A group's members are recorded together in one request: megabytes each would hold it too long.
            errors.add(Problem.FieldError.of("workspace", "is not taken in a group member; dispatch it alone"));
        }
        if (r.id() != null && !ID.matcher(r.id()).matches()) {
            errors.add(Problem.FieldError.of("id", "must match [A-Za-z0-9_-]{1,64}"));
        }
        if (r.image() == null || r.image().isBlank()) {
            errors.add(Problem.FieldError.of("image", "is required"));
        } else if (!ImageReference.isValid(r.image())) {
            errors.add(Problem.FieldError.of("image", "is not a valid image reference"));
        }
        PullPolicy imagePullPolicy = PullPolicies.narrowed(r.imagePullPolicy(), pullPolicy, errors);
        checkCommand(r.command(), errors);
        checkVariables("env", r.env(), errors);
        checkVariables("secrets", r.secrets(), errors);
        checkSecretLengths(r.secrets(), errors);
        if (r.env() != null && r.secrets() != null) {
            r.secrets().keySet().stream()
                    .filter(r.env()::containsKey)
                    .sorted()
                    .forEach(k -> errors.add(Problem.FieldError.of("secrets." + k, "is also set in env")));
        }
        if (r.input() != null
                && r.input().getBytes(StandardCharsets.UTF_8).length
                        > limits.maxInput().asLongValue()) {
            errors.add(Problem.FieldError.of(
                    "input",
                    "is larger than the worker's maximum of "
                            + limits.maxInput().asLongValue() + " bytes"));
        }
        if (r.workingDir() != null
                && (!r.workingDir().startsWith("/")
                        || r.workingDir().length() > 4096
                        || r.workingDir().indexOf('\0') >= 0)) {
            errors.add(Problem.FieldError.of("workingDir", "must be an absolute path"));
        }
        Duration timeout = duration("timeout", r.timeout(), limits.maxTimeout(), errors);
        Duration idleTimeout = duration("idleTimeout", r.idleTimeout(), limits.maxIdleTimeout(), errors);
        long memory = memory(r.resources(), errors);
        long nanoCpus = nanoCpus(r.resources(), errors);
        long pids = pids(r.resources(), errors);
        String network = network(r.network(), errors);
        checkRuntime(r.runtime(), errors);
        int stdoutCap = cap(
                "output.stdoutCapBytes",
                r.output() == null ? null : r.output().stdoutCapBytes(),
                caps.stdoutDefault(),
                caps.stdoutMax(),
                errors);
        int stderrCap = cap(
                "output.stderrCapBytes",
                r.output() == null ? null : r.output().stderrCapBytes(),
                caps.stderrDefault(),
                caps.stderrMax(),
                errors);
        DispatchRequest.Output output = r.output();
        OutputFormat stdoutFormat = format("output.format", output == null ? null : output.format(), stdoutCap, errors);
        OutputFormat stderrFormat =
                format("output.stderrFormat", output == null ? null : output.stderrFormat(), stderrCap, errors);
        List<String> project = project(
                output == null ? null : output.project(),
                stdoutFormat == OutputFormat.JSON || stderrFormat == OutputFormat.JSON,
                errors);
        checkCallbackUrl(tenant, r.callbackUrl(), errors);
        DispatchSpec.CallbackMode callbackMode = callbackMode(r.callbackMode(), errors);
        DispatchSpec.CallbackEncoding callbackEncoding = callbackEncoding(r.callbackEncoding(), errors);
        checkMetadata(r.metadata(), errors);
        int maxAttempts = maxAttempts(r, errors);
        if (!errors.isEmpty()) {
            found.addAll(errors);
            return null;
        }
        Map<String, String> secrets = r.secrets() == null ? Map.of() : Map.copyOf(r.secrets());
        return new DispatchSpec(
                r.image(),
                imagePullPolicy,
                r.command() == null ? List.of() : List.copyOf(r.command()),
                r.env() == null ? Map.of() : new LinkedHashMap<>(r.env()),
                secrets,
                List.copyOf(new TreeSet<>(secrets.keySet())),
                r.input(),
                r.workingDir(),
                timeout == null ? limits.defaultTimeout() : timeout,
                idleTimeout,
                memory,
                nanoCpus,
                pids,
                network,
                r.runtime(),
                stdoutCap,
                stderrCap,
                stdoutFormat,
                stderrFormat,
                project,
                r.callbackUrl(),
                callbackMode,
                callbackEncoding,
                r.metadata(),
                workspace,
                maxAttempts);
    }

    /**
     * Another attempt runs on another worker (ADR 0066): secret values live in
     * the memory of the worker that accepted them, and a workspace's files on
     * its disk, so neither could go with it.
     */
    private static int maxAttempts(DispatchRequest r, List<Problem.FieldError> errors) {
        if (r.maxAttempts() == null) {
            return 1;
        }
        int asked = r.maxAttempts();
        if (asked < 1 || asked > MAX_ATTEMPTS) {
            errors.add(Problem.FieldError.of("maxAttempts", "must be between 1 and " + MAX_ATTEMPTS));
        } else if (asked > 1 && r.secrets() != null && !r.secrets().isEmpty()) {
            errors.add(Problem.FieldError.of(
                    "maxAttempts",
                    "above 1 cannot be combined with secrets: their values stay with the worker that accepted "
                            + "them, and another attempt runs on another worker"));
        } else if (asked > 1 && r.workspace() != null && r.workspace().inline()) {
            errors.add(Problem.FieldError.of(
                    "maxAttempts",
                    "above 1 cannot be combined with workspace files or an inline archive: they are kept on the "
                            + "worker that accepted them, and another attempt runs on another worker; give the "
                            + "workspace as an archive url"));
        }
        return asked;
    }

    private static void checkCommand(List<String> command, List<Problem.FieldError> errors) {
        if (command == null) {
            return;
        }
        for (int i = 0; i < command.size(); i++) {
            String arg = command.get(i);
            if (arg == null || arg.indexOf('\0') >= 0) {
                errors.add(Problem.FieldError.of("command." + i, "must be a string without NUL characters"));
            }
        }
    }

    private static void checkVariables(String field, Map<String, String> vars, List<Problem.FieldError> errors) {
        if (vars == null) {
            return;
        }
        vars.forEach((name, value) -> {
            if (!ENV_NAME.matcher(name).matches()) {
                errors.add(Problem.FieldError.of(field + "." + name, "is not a valid variable name"));
            } else if (value == null || value.indexOf('\0') >= 0) {
                // The message never repeats a value: it may be a secret.
                errors.add(Problem.FieldError.of(field + "." + name, "must be a string without NUL characters"));
            }
        });
    }

    /** A short value would be masked wherever its bytes occur in unrelated output, and guessed from the rest. */
    private void checkSecretLengths(Map<String, String> values, List<Problem.FieldError> errors) {
        if (values == null) {
            return;
        }
        int min = secrets.minLength();
        new TreeSet<>(values.keySet()).forEach(name -> {
            String value = values.get(name);
            if (ENV_NAME.matcher(name).matches()
                    && value != null
                    && value.getBytes(StandardCharsets.UTF_8).length < min) {
                errors.add(Problem.FieldError.of("secrets." + name, "must be at least " + min + " bytes long"));
            }
        });
    }

    /** A positive duration of at most {@code max}; {@code null} when the request gives none. */
    private static Duration duration(String field, String text, Duration max, List<Problem.FieldError> errors) {
        if (text == null) {
            return null;
        }
        Duration duration = parseDuration(text);
        if (duration == null || duration.isNegative() || duration.isZero()) {
            errors.add(Problem.FieldError.of(field, "must be a positive ISO-8601 duration such as PT15M"));
        } else if (duration.compareTo(max) > 0) {
            errors.add(Problem.FieldError.of(field, "is longer than the worker's maximum of " + max));
        }
        return duration;
    }

    static Duration parseDuration(String text) {
        var shortForm = SHORT_DURATION.matcher(text);
        if (shortForm.matches()) {
            long n = Long.parseLong(shortForm.group(1));
            return switch (shortForm.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private long memory(DispatchRequest.Resources resources, List<Problem.FieldError> errors) {
        Long memory = resources == null ? null : resources.memoryBytes();
        if (memory == null) {
            return limits.defaultMemory().asLongValue();
        }
        if (memory < MIN_MEMORY || memory > limits.maxMemory().asLongValue()) {
            errors.add(Problem.FieldError.of(
                    "resources.memoryBytes",
                    "must be between " + MIN_MEMORY + " and "
                            + limits.maxMemory().asLongValue()));
        }
        return memory;
    }

    private long nanoCpus(DispatchRequest.Resources resources, List<Problem.FieldError> errors) {
        Double cpus = resources == null ? null : resources.cpus();
        double value = cpus == null ? limits.defaultCpus() : cpus;
        if (!(value >= 0.01 && value <= limits.maxCpus())) {
            errors.add(Problem.FieldError.of("resources.cpus", "must be between 0.01 and " + limits.maxCpus()));
            return 0;
        }
        return Math.round(value * 1e9);
    }

    private long pids(DispatchRequest.Resources resources, List<Problem.FieldError> errors) {
        Long pids = resources == null ? null : resources.pids();
        if (pids == null) {
            return limits.defaultPids();
        }
        if (pids < 1 || pids > limits.maxPids()) {
            errors.add(Problem.FieldError.of("resources.pids", "must be between 1 and " + limits.maxPids()));
        }
        return pids;
    }

    private String network(String network, List<Problem.FieldError> errors) {
        List<String> allowed = limits.allowedNetworks();
        if (network == null) {
            return allowed.get(0);
        }
        if (!allowed.contains(network)) {
            errors.add(Problem.FieldError.of("network", "must be one of " + allowed));
        }
        return network;
    }

    private void checkRuntime(String runtime, List<Problem.FieldError> errors) {
        if (runtime == null) {
            return;
        }
        List<String> allowed = runtimes.runtimes().orElse(List.of());
        if (allowed.isEmpty()) {
            errors.add(Problem.FieldError.of(
                    "runtime", "cannot be chosen on this worker: sluice.container.runtimes names none"));
        } else if (!allowed.contains(runtime)) {
            errors.add(Problem.FieldError.of("runtime", "must be one of " + allowed));
        }
    }

    private int cap(String field, Long requested, int defaultCap, int maxCap, List<Problem.FieldError> errors) {
        if (requested == null) {
            return defaultCap;
        }
        if (requested < caps.min() || requested > maxCap) {
            errors.add(Problem.FieldError.of(field, "must be between " + caps.min() + " and " + maxCap));
            return defaultCap;
        }
        return requested.intValue();
    }

    /** A stream's format; a structured one needs a cap that holds its marker record twice over. */
    private OutputFormat format(String field, String wire, int cap, List<Problem.FieldError> errors) {
        if (wire == null) {
            return OutputFormat.TEXT;
        }
        OutputFormat format = OutputFormat.fromWire(wire).orElse(null);
        if (format == null) {
            errors.add(Problem.FieldError.of(field, "must be text, jsonl or json"));
            return OutputFormat.TEXT;
        }
        int min = caps.min(format);
        if (cap < min) {
            errors.add(Problem.FieldError.of(
                    field, "needs a cap of at least " + min + " bytes, room for its marker record; the cap is " + cap));
        }
        return format;
    }

    private static List<String> project(List<String> pointers, boolean json, List<Problem.FieldError> errors) {
        if (pointers == null) {
            return List.of();
        }
        if (!json) {
            errors.add(Problem.FieldError.of(
                    "output.project", "applies only to a stream captured as json (output.format or stderrFormat)"));
        }
        if (pointers.size() > MAX_POINTERS) {
            errors.add(Problem.FieldError.of("output.project", "has more than " + MAX_POINTERS + " pointers"));
        }
        for (int i = 0; i < pointers.size(); i++) {
            if (!isFieldPointer(pointers.get(i))) {
                errors.add(Problem.FieldError.of(
                        "output.project." + i,
                        "must be a JSON Pointer (RFC 6901) naming a field, such as /id or /user/login, " + "of at most "
                                + MAX_POINTER_LENGTH + " characters"));
            }
        }
        return List.copyOf(pointers.stream().filter(p -> p != null).toList());
    }

    /** "/" then reference tokens separated by "/", where "~" only starts "~0" or "~1"; never the whole document. */
    static boolean isFieldPointer(String pointer) {
        return pointer != null
                && pointer.length() <= MAX_POINTER_LENGTH
                && POINTER.matcher(pointer).matches();
    }

    /** A callback URL is refused by the worker's rules, and by the tenant's own secrets and hosts (ADR 0074). */
    void checkCallbackUrl(String tenant, String url, List<Problem.FieldError> errors) {
        if (url != null) {
            callbacks
                    .refuse(tenant, url)
                    .ifPresent(problem -> errors.add(Problem.FieldError.of("callbackUrl", problem)));
        }
    }

    private static DispatchSpec.CallbackMode callbackMode(String mode, List<Problem.FieldError> errors) {
        if (mode == null) {
            return DispatchSpec.CallbackMode.FULL;
        }
        return DispatchSpec.CallbackMode.fromWire(mode).orElseGet(() -> {
            errors.add(Problem.FieldError.of("callbackMode", "must be full or digest"));
            return DispatchSpec.CallbackMode.FULL;
        });
    }

    private static DispatchSpec.CallbackEncoding callbackEncoding(String encoding, List<Problem.FieldError> errors) {
        if (encoding == null) {
            return DispatchSpec.CallbackEncoding.IDENTITY;
        }
        return DispatchSpec.CallbackEncoding.fromWire(encoding).orElseGet(() -> {
            errors.add(Problem.FieldError.of("callbackEncoding", "must be identity or gzip"));
            return DispatchSpec.CallbackEncoding.IDENTITY;
        });
    }

    void checkMetadata(Map<String, Object> metadata, List<Problem.FieldError> errors) {
        if (metadata == null) {
            return;
        }
        try {
            if (json.writeValueAsBytes(metadata).length > MAX_METADATA) {
                errors.add(Problem.FieldError.of("metadata", "is larger than " + MAX_METADATA + " bytes as JSON"));
            }
        } catch (JsonProcessingException e) {
            errors.add(Problem.FieldError.of("metadata", "is not a JSON object"));
        }
    }
}
