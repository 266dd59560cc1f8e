package dev.sluice.output;

import java.nio.charset.StandardCharsets;

/**
 * The line that ends a stream whose bytes did not all reach the worker (ADR
 * 0045): appended after the text, so an agent reading it is told that the
 * text ends early, and how much is missing; or, when as many bytes or more
 * arrived but not the ones the process wrote, that the text is not its output. Like the truncation marker it
 * carries the dispatch's {@link MarkerNonce}; the stream's witness record,
 * not this line, is authoritative. A {@code jsonl} stream gets it as one JSON
 * record, so the text still parses line by line.
 */
final class LossMarker {

    private final String stream;
    private final String nonce;
    private final boolean jsonl;

    LossMarker(String stream, String nonce, boolean jsonl) {
        this.stream = stream;
        this.nonce = nonce;
        this.jsonl = jsonl;
    }

    /** The line to append to {@code text} for this witness, with its framing; empty unless bytes were lost. */
    byte[] line(StreamWitness witness) {
        if (witness == null || !witness.incomplete()) {
            return new byte[0];
        }
        String where = witness.lostAt() == null ? StreamWitness.UNKNOWN : witness.lostAt();
        if (jsonl) {
            return ("{\"sluice.lost\":{\"nonce\":\"" + nonce + "\",\"stream\":\"" + stream + "\",\"lostBytes\":"
                            + witness.lostBytes() + ",\"writtenBytes\":" + witness.writtenBytes()
                            + ",\"receivedBytes\":" + witness.receivedBytes() + ",\"lostAt\":\"" + where + "\"}}\n")
                    .getBytes(StandardCharsets.US_ASCII);
        }
        String place = switch (where) {
            case StreamWitness.END -> "at its end";
            case StreamWitness.MIDDLE -> "before its end";
            default -> "at a place the worker cannot tell";
        };
        if (witness.lostBytes() == 0) {
            // Nothing is missing by count, yet what arrived is not what the process wrote.
            return ("\n[... sluice " + nonce + ": " + witness.receivedBytes() + " bytes of " + stream
                            + " reached the worker, but they are not the " + witness.writtenBytes()
                            + " the process wrote; this text is not its output ...]\n")
                    .getBytes(StandardCharsets.UTF_8);
        }
        return ("\n[... sluice " + nonce + ": " + witness.lostBytes() + " of " + witness.writtenBytes() + " bytes of "
                        + stream + " did not reach the worker (" + witness.receivedBytes() + " did), lost " + place
                        + "; this text is incomplete ...]\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Room the line can ever take: what a collector gives up of its cap before it finishes. */
    int length(StreamWitness witness) {
        int line = line(witness).length;
        return line == 0 ? 0 : line + (jsonl ? 1 : 0);
    }

    /** {@code text} followed by the line; a jsonl line starts on a line of its own. */
    byte[] append(byte[] text, StreamWitness witness) {
        byte[] line = line(witness);
        if (line.length == 0) {
            return text;
        }
        boolean newline = jsonl && text.length > 0 && text[text.length - 1] != '\n';
        byte[] out = new byte[text.length + (newline ? 1 : 0) + line.length];
        System.arraycopy(text, 0, out, 0, text.length);
        if (newline) {
            out[text.length] = '\n';
        }
        System.arraycopy(line, 0, out, out.length - line.length, line.length);
        return out;
    }
}
