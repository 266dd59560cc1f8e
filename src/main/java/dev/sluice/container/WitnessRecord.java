package dev.sluice.container;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the output witness left of a container's run (ADR 0045), or why there
 * is nothing to go by. The record is written inside the container, where the
 * agent could write too: it is read within a bound, parsed strictly, and a
 * record that does not parse counts as none. An agent that forges it can only
 * misreport its own output, which it writes as it likes anyway.
 *
 * @param stdout     what the process wrote to stdout; {@code null} when there is no record
 * @param stderr     likewise for stderr
 * @param execError  why the command could not be run, as the system said it; {@code null} when it ran
 * @param drain      whether the engine had read everything relayed when the witness left:
 *                   {@code drained}, {@code timeout} or {@code unknown}
 * @param missing    why there is no record to go by; {@code null} when there is one
 */
public record WitnessRecord(Stream stdout, Stream stderr, String execError, String drain, String missing) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * One stream as the witness saw it.
     *
     * @param bytes      every byte the process wrote to it
     * @param sha256     their SHA-256, lowercase hex
     * @param tailBytes  how many of its last bytes the witness kept
     */
    public record Stream(long bytes, String sha256, long tailBytes) {}

    public static WitnessRecord missing(String why) {
        return new WitnessRecord(null, null, null, null, why);
    }

    public boolean present() {
        return missing == null;
    }

    public Stream stream(boolean ofStdout) {
        return ofStdout ? stdout : stderr;
    }

    /** The record the witness wrote, or a missing one saying why it cannot be used. */
    public static WitnessRecord parse(byte[] json) {
        try {
            JsonNode root = MAPPER.readTree(json);
            if (root == null || root.path("v").asInt() != 1) {
                return missing("the witness's record is of an unknown version");
            }
            JsonNode exec = root.path("exec");
            return new WitnessRecord(
                    stream(root.path("stdout")),
                    stream(root.path("stderr")),
                    exec.isTextual() ? exec.asText() : null,
                    root.path("drain").path("state").asText("unknown"),
                    null);
        } catch (java.io.IOException | IllegalArgumentException e) {
            return missing("the witness's record could not be read: " + e.getMessage());
        }
    }

    private static Stream stream(JsonNode node) {
        JsonNode bytes = node.path("bytes");
        JsonNode tail = node.path("tailBytes");
        String sha = node.path("sha256").asText("");
        if (!bytes.canConvertToLong()
                || bytes.asLong() < 0
                || !tail.canConvertToLong()
                || tail.asLong() < 0
                || !sha.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a stream's counts are not whole numbers and a SHA-256");
        }
        return new Stream(bytes.asLong(), sha, tail.asLong());
    }
}
