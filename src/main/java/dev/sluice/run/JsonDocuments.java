package dev.sluice.run;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerLogs;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.FormatOutcome;
import dev.sluice.output.JsonReducer;
import dev.sluice.output.OutputFormat;
import dev.sluice.output.SecretMasker;
import dev.sluice.record.DispatchSpec;

/**
 * The last step of a stream the dispatch asked to capture as {@code json}
 * (ADR 0031). While the process ran, the stream was captured as text; after
 * the exit, a document that fit is checked and returned as it is, and one that
 * did not is read back whole from the runtime's log, masked like the logs
 * endpoint serves it, and reduced. A document longer than
 * {@code sluice.output.max-json-document} is never read back: it stays text,
 * and the result says so.
 */
final class JsonDocuments {

    private static final Logger LOG = Logger.getLogger(JsonDocuments.class);

    /**
     * Copies of a document finishing it holds at its peak: reading it back
     * holds the read's buffer and the range cut from it; reducing holds the
     * document and its rewritten form.
     */
    private static final int COPIES = 3;

    private final ContainerLogs logs;
    private final long maxDocument;

    JsonDocuments(ContainerLogs logs, long maxDocument) {
        this.logs = logs;
        this.maxDocument = maxDocument;
    }

    /** Memory finishing the capture's json streams may take besides the collectors' own. */
    long memory(DispatchSpec spec, Capture capture) {
        long bytes = 0;
        if (spec.format(true) == OutputFormat.JSON && capture.bytesWritten(true) > spec.stdoutCap()) {
            bytes += Math.min(capture.bytesWritten(true), maxDocument) * COPIES;
        }
        if (spec.format(false) == OutputFormat.JSON && capture.bytesWritten(false) > spec.stderrCap()) {
            bytes += Math.min(capture.bytesWritten(false), maxDocument) * COPIES;
        }
        return bytes;
    }

    /** The stream as the dispatch gets it: unchanged unless it asked for json. */
    CapturedOutput finish(
            CapturedOutput asText,
            DispatchSpec spec,
            boolean stdout,
            String containerId,
            String nonce,
            SecretMasker masker) {
        if (spec.format(stdout) != OutputFormat.JSON) {
            return asText;
        }
        int cap = stdout ? spec.stdoutCap() : spec.stderrCap();
        if (!asText.truncated()) {
            return JsonReducer.reduce(asText, null, cap, nonce, spec.projection());
        }
        if (asText.originalBytes() > maxDocument) {
            return JsonReducer.asText(
                    asText,
                    FormatOutcome.DOCUMENT_TOO_LARGE,
                    "the stream is longer than sluice.output.max-json-document (" + maxDocument + " bytes)");
        }
        byte[] document;
        try {
            document = logs.read(containerId, stdout, 0, 0, (int) asText.originalBytes(), masker)
                    .bytes();
        } catch (ContainerException e) {
            LOG.warnf("the json document could not be read back from the runtime log: %s", e.getMessage());
            return JsonReducer.asText(
                    asText, FormatOutcome.LOG_UNAVAILABLE, "the runtime's log could not be read: " + e.getMessage());
        }
        if (document.length != asText.originalBytes()) {
            return JsonReducer.asText(
                    asText,
                    FormatOutcome.LOG_UNAVAILABLE,
                    "the runtime's log holds " + document.length + " of the stream's " + asText.originalBytes()
                            + " bytes");
        }
        return JsonReducer.reduce(asText, document, cap, nonce, spec.projection());
    }
}
