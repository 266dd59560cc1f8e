package dev.sluice.container.files;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.output.StreamWitness;

/**
 * What the output witness left of a container's run (ADR 0045), or why there
 * is nothing the worker can believe (ADR 0070). The record lies where the
 * command could write too, so it counts only when it carries the HMAC-SHA256
 * the witness computes under the container's own key, which the command never
 * held. Anything else (no record, one that is not a regular file, one that
 * fails the check) leaves both streams unwitnessed with a reason, and nothing
 * in the record is text: an exec failure is its errno.
 *
 * @param stdout    what the process wrote to stdout; {@code null} when there is no record to go by
 * @param stderr    likewise for stderr
 * @param execErrno the errno with which the command could not be run; 0 when it ran
 * @param drain     whether the engine had read everything relayed when the witness left:
 *                  {@code drained}, {@code timeout} or {@code unknown}
 * @param reason    why there is no record to go by ({@code StreamWitness} reasons); {@code null} when there is one
 * @param detail    for people, in the worker's words: what the reason means here; {@code null} when there is a record
 */
public record WitnessRecord(Stream stdout, Stream stderr, int execErrno, String drain, String reason, String detail) {

    private static final ObjectMapper MAPPER =
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);
    private static final byte[] MAC_FIELD = ",\"mac\":\"".getBytes(StandardCharsets.US_ASCII);
    private static final int MAC_HEX = 64;

    /**
     * One stream as the witness saw it.
     *
     * @param bytes      every byte the process wrote to it
     * @param sha256     their SHA-256, lowercase hex
     * @param tailBytes  how many of its last bytes the witness kept
     * @param tailSha256 the SHA-256 of those bytes, as the witness wrote them to the tail file
     */
    public record Stream(long bytes, String sha256, long tailBytes, String tailSha256) {}

    /** No record to go by, for {@code reason}. */
    public static WitnessRecord unusable(String reason, String detail) {
        return new WitnessRecord(null, null, 0, null, reason, detail);
    }

    public boolean present() {
        return reason == null;
    }

    public Stream stream(boolean ofStdout) {
        return ofStdout ? stdout : stderr;
    }

    /**
     * The same, said as {@code killed} when there is no record and the
     * container's first process (the witness) ended by a signal: stopped past
     * its grace, killed by the kernel's OOM killer, or by a process inside
     * where the runtime lets one signal PID 1.
     */
    public WitnessRecord killedIf(Integer exitCode) {
        if (!StreamWitness.MISSING.equals(reason) || exitCode == null || exitCode <= 128) {
            return this;
        }
        return unusable(
                StreamWitness.KILLED,
                "the container's first process, the witness, was killed by signal " + (exitCode - 128)
                        + " before it wrote its record");
    }

    /**
     * The record in {@code file} if {@code key} authenticates it; otherwise
     * why it cannot be believed. Never a word of the file's in the answer.
     */
    public static WitnessRecord read(byte[] file, Optional<WitnessKey> key) {
        if (key.isEmpty()) {
            return unusable(
                    StreamWitness.UNVERIFIABLE,
                    "the container was created without a witness key, by an earlier version of the worker");
        }
        int end = file.length;
        if (end > 0 && file[end - 1] == '\n') {
            end--;
        }
        int mac = lastIndexOf(file, MAC_FIELD, end);
        // What follows the MAC field is exactly its 64 hex digits, a quote and the closing brace.
        if (mac < 0 || end - mac != MAC_FIELD.length + MAC_HEX + 2 || file[end - 2] != '"' || file[end - 1] != '}') {
            return unusable(StreamWitness.TAMPERED, "the record does not carry the witness's authentication");
        }
        String hex = new String(file, mac + MAC_FIELD.length, MAC_HEX, StandardCharsets.US_ASCII);
        if (!key.get().authenticates(file, mac, hex)) {
            return unusable(
                    StreamWitness.TAMPERED,
                    "the record is not authenticated by this container's witness key: it was written or changed"
                            + " by something other than the witness");
        }
        byte[] body = Arrays.copyOf(file, mac + 1);
        body[mac] = '}';
        try {
            JsonNode root = MAPPER.readTree(body);
            JsonNode exec = root.path("exec");
            if (root.path("v").asInt() != 2 || !exec.canConvertToInt() || exec.asInt() < 0) {
                throw new IllegalArgumentException("not the witness's form");
            }
            return new WitnessRecord(
                    stream(root.path("stdout")),
                    stream(root.path("stderr")),
                    exec.asInt(),
                    root.path("drain").path("state").asText("unknown"),
                    null,
                    null);
        } catch (java.io.IOException | IllegalArgumentException e) {
            // Authenticated yet not in the form this worker reads: a witness of another build.
            return unusable(
                    StreamWitness.TAMPERED, "the record is authenticated but not in the form this worker reads");
        }
    }

    private static Stream stream(JsonNode node) {
        JsonNode bytes = node.path("bytes");
        JsonNode tail = node.path("tailBytes");
        String sha = node.path("sha256").asText("");
        String tailSha = node.path("tailSha256").asText("");
        if (!bytes.canConvertToLong()
                || bytes.asLong() < 0
                || !tail.canConvertToLong()
                || tail.asLong() < 0
                || !sha.matches("[0-9a-f]{64}")
                || !tailSha.matches("[0-9a-f]{64}")) {
            throw new IllegalArgumentException("a stream's counts are not whole numbers and SHA-256 digests");
        }
        return new Stream(bytes.asLong(), sha, tail.asLong(), tailSha);
    }

    private static int lastIndexOf(byte[] in, byte[] what, int end) {
        outer:
        for (int i = end - what.length; i >= 0; i--) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
