package dev.sluice.testsupport;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a known producer prints on one stream, computed here from the producer's
 * definition (length, SHA-256, newlines), and the check of a result's stream
 * against it. Counting deliveries and statuses proves nothing about the bytes:
 * a result can say {@code succeeded} over a stream whose end the engine lost.
 * So every result is held to the exact stream its process printed, by its
 * digest, and by its text when that was returned whole.
 */
public record ExpectedStream(long bytes, String sha256, long lines) {

    public static final ExpectedStream EMPTY = of(new byte[0]);

    /** Exactly these bytes. */
    public static ExpectedStream of(byte[] bytes) {
        return new ExpectedStream(bytes.length, Digests.sha256(bytes), Digests.lines(bytes));
    }

    /** Exactly this text, in UTF-8. */
    public static ExpectedStream of(String text) {
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code yes 'line' | head -c bytes}: the line and a newline, over and over, cut at {@code bytes}. */
    public static ExpectedStream repeatedLine(String line, long bytes) {
        return cycle((line + "\n").getBytes(StandardCharsets.UTF_8), bytes);
    }

    /** {@code head -c bytes /dev/zero | tr '\000' c}: one byte, {@code bytes} times. */
    public static ExpectedStream filled(char c, long bytes) {
        return cycle(new byte[] {(byte) c}, bytes);
    }

    /** {@code unit} repeated and cut at {@code bytes}, hashed in blocks so a gibibyte needs no gibibyte of memory. */
    private static ExpectedStream cycle(byte[] unit, long bytes) {
        // A block of whole units: block after block is the unit repeated, with no seam.
        int units = Math.max(1, (64 * 1024) / unit.length);
        byte[] block = new byte[unit.length * units];
        for (int i = 0; i < units; i++) {
            System.arraycopy(unit, 0, block, i * unit.length, unit.length);
        }
        long blockLines = newlines(block, block.length);
        MessageDigest sha = newDigest();
        long lines = 0;
        long left = bytes;
        while (left >= block.length) {
            sha.update(block);
            lines += blockLines;
            left -= block.length;
        }
        sha.update(block, 0, (int) left);
        lines += newlines(block, (int) left);
        return new ExpectedStream(bytes, HexFormat.of().formatHex(sha.digest()), lines);
    }

    private static long newlines(byte[] bytes, int length) {
        long n = 0;
        for (int i = 0; i < length; i++) {
            n += bytes[i] == '\n' ? 1 : 0;
        }
        return n;
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** Whether bytes received otherwise (a {@code docker run}'s stdout) are this stream. */
    public boolean matches(long receivedBytes, String receivedSha256) {
        return receivedBytes == bytes && sha256.equals(receivedSha256);
    }

    /**
     * Checks one stream ({@code stdout} or {@code stderr}) of a result (a
     * callback's body, or a record's {@code result}) against this stream.
     */
    public Verdict check(JsonNode result, String stream) {
        JsonNode digest = result.path(stream + "Digest");
        boolean hasDigest = digest.isObject();
        long got = hasDigest ? digest.path("bytes").asLong(-1) : -1;
        String gotSha = hasDigest ? digest.path("sha256").asText(null) : null;
        String covers =
                hasDigest && digest.hasNonNull("covers") ? digest.path("covers").asText() : null;

        // The text is the stream when it was returned whole: not truncated, not cut to fit the callback budget.
        Boolean textMatches = null;
        boolean whole = result.path(stream + "Overflow").isMissingNode() && !reduced(result, stream);
        if (whole && result.path(stream).isTextual()) {
            byte[] text = result.path(stream).asText().getBytes(StandardCharsets.UTF_8);
            textMatches = text.length == bytes && Digests.sha256(text).equals(sha256);
        }

        JsonNode w = result.path(stream + "Witness");
        Witness witness = w.isObject()
                ? new Witness(
                        w.path("state").asText(),
                        w.path("writtenBytes").isNumber()
                                ? w.path("writtenBytes").asLong()
                                : null,
                        w.path("receivedBytes").asLong(),
                        w.path("lostBytes").asLong(),
                        w.path("recoveredBytes").asLong(),
                        w.hasNonNull("lostAt") ? w.path("lostAt").asText() : null,
                        w.hasNonNull("detail") ? w.path("detail").asText() : null)
                : null;
        JsonNode error = result.path("error");
        return new Verdict(
                stream,
                this,
                got,
                gotSha,
                covers,
                textMatches,
                witness,
                result.path("status").asText(),
                error.hasNonNull("code") ? error.path("code").asText() : null,
                error.hasNonNull("message") ? error.path("message").asText() : null);
    }

    private static boolean reduced(JsonNode result, String stream) {
        for (JsonNode step : result.path("reductions")) {
            if (stream.equals(step.path("stream").asText())) {
                return true;
            }
        }
        return false;
    }

    /** A stream's witness, as the result reports it. */
    public record Witness(
            String state,
            Long writtenBytes,
            long receivedBytes,
            long lostBytes,
            long recoveredBytes,
            String lostAt,
            String detail) {}

    /**
     * One result's stream against what its process printed. {@code bytes} is
     * -1 and {@code sha256} null when the result has no digest for it;
     * {@code textMatches} is null when the text was not returned whole (then
     * only the digest can be checked); {@code witness} is null when the result
     * carries none, which is reported as not checked, never as a failure.
     */
    public record Verdict(
            String stream,
            ExpectedStream expected,
            long bytes,
            String sha256,
            String covers,
            Boolean textMatches,
            Witness witness,
            String status,
            String errorCode,
            String errorMessage) {

        public static final String NO_WITNESS = "absent";

        public boolean hasDigest() {
            return sha256 != null && bytes >= 0;
        }

        /** Fewer bytes than the process printed. */
        public boolean isShort() {
            return hasDigest() && bytes < expected.bytes();
        }

        /** The digest is not the stream's (or is missing), or the text returned whole is not the stream. */
        public boolean isWrong() {
            return !hasDigest() || !expected.sha256().equals(sha256) || Boolean.FALSE.equals(textMatches);
        }

        public boolean isExact() {
            return !isShort() && !isWrong() && bytes == expected.bytes();
        }

        /** The witness's state, or {@value #NO_WITNESS} when the result carries none. */
        public String witnessState() {
            return witness == null ? NO_WITNESS : witness.state();
        }

        /** A witness that counted another number of bytes written than the process wrote. */
        public boolean witnessMiscounted() {
            return witness != null && witness.writtenBytes() != null && witness.writtenBytes() != expected.bytes();
        }

        /**
         * The result says it lost bytes: an {@code output_incomplete} error, or
         * an {@code incomplete} witness on a result that does not also say
         * {@code succeeded}.
         */
        public boolean admitsLoss() {
            return "output_incomplete".equals(errorCode)
                    || ("incomplete".equals(witnessState()) && !"succeeded".equals(status));
        }

        /** Lost or wrong bytes that the result honestly reports as lost. */
        public boolean honestlyIncomplete() {
            return admitsLoss() && !isExact();
        }

        /** The failure these proofs exist for: a result that claims a completeness it does not have. */
        public boolean claimsCompletenessFalsely() {
            return !admitsLoss() && (!isExact() || witnessMiscounted());
        }

        /** A witness that is present says the stream is complete or recovered, and is right. */
        public boolean witnessConfirms() {
            return witness != null
                    && (witness.state().equals("complete") || witness.state().equals("recovered"))
                    && !witnessMiscounted();
        }

        /** What is wrong with it, for a report; empty when the stream is exact and nothing contradicts that. */
        public List<String> problems() {
            List<String> p = new ArrayList<>();
            if (!hasDigest()) {
                p.add("no " + stream + "Digest");
            } else {
                if (bytes != expected.bytes()) {
                    p.add(bytes + " of " + expected.bytes() + " bytes"
                            + (isShort() ? " (" + (expected.bytes() - bytes) + " short)" : ""));
                }
                if (!expected.sha256().equals(sha256)) {
                    p.add("sha256 " + abbreviate(sha256) + " is not the stream's " + abbreviate(expected.sha256()));
                }
            }
            if (Boolean.FALSE.equals(textMatches)) {
                p.add("the text returned whole is not the stream");
            }
            if (witnessMiscounted()) {
                p.add("the witness counted " + witness.writtenBytes() + " bytes written, not " + expected.bytes());
            }
            if (witness != null
                    && !witness.state().equals("complete")
                    && !witness.state().equals("recovered")) {
                p.add("witness " + witness.state());
            }
            return p;
        }

        /** One line: the stream's figures against what was printed, the witness, the status. */
        public String describe() {
            StringBuilder d = new StringBuilder(stream).append(": ");
            d.append(hasDigest() ? bytes + "/" + expected.bytes() + " bytes" : "no digest");
            if (hasDigest()) {
                d.append(expected.sha256().equals(sha256) ? ", sha256 matches" : ", sha256 differs");
            }
            if (covers != null) {
                d.append(", covers ").append(covers);
            }
            if (textMatches != null) {
                d.append(textMatches ? ", text exact" : ", text differs");
            }
            if (witness == null) {
                d.append(", no witness");
            } else {
                d.append(", witness ")
                        .append(witness.state())
                        .append(" (written ")
                        .append(witness.writtenBytes())
                        .append(", received ")
                        .append(witness.receivedBytes())
                        .append(", lost ")
                        .append(witness.lostBytes())
                        .append(witness.lostAt() == null ? "" : " at " + witness.lostAt())
                        .append(", recovered ")
                        .append(witness.recoveredBytes())
                        .append(witness.detail() == null ? "" : ", " + witness.detail())
                        .append(')');
            }
            d.append("; ").append(status);
            if (errorCode != null) {
                d.append(' ').append(errorCode);
            }
            if (errorMessage != null) {
                d.append(" (").append(errorMessage).append(')');
            }
            return d.toString();
        }

        private static String abbreviate(String sha) {
            return sha == null ? "null" : sha.length() > 12 ? sha.substring(0, 12) + "…" : sha;
        }
    }
}
