package dev.sluice.dispatch;

import dev.sluice.container.OutputSink;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.MarkerNonce;
import dev.sluice.output.SecretMasker;
import dev.sluice.output.StreamCollector;

/**
 * A dispatch's two streams, each bounded by its own collector in the format
 * the dispatch asked for (ADR 0031). Both markers
 * carry one nonce, drawn here: the result built from this capture is the
 * dispatch's only one, so its nonce is the dispatch's (ADR 0025).
 */
final class Capture implements OutputSink {

    private final String nonce;
    private final StreamCollector stdout;
    private final StreamCollector stderr;

    Capture(String dispatchId, DispatchSpec spec, SecretMasker masker) {
        this.nonce = MarkerNonce.random();
        this.stdout = StreamCollector.of(
                spec.format(true), "stdout", spec.stdoutCap(), DispatchLinks.log(dispatchId, "stdout"), nonce, masker);
        this.stderr = StreamCollector.of(
                spec.format(false), "stderr", spec.stderrCap(), DispatchLinks.log(dispatchId, "stderr"), nonce, masker);
    }

    /** The nonce every marker of this capture carries. */
    String nonce() {
        return nonce;
    }

    @Override
    public void stdout(byte[] chunk, int offset, int count) {
        stdout.write(chunk, offset, count);
    }

    @Override
    public void stderr(byte[] chunk, int offset, int count) {
        stderr.write(chunk, offset, count);
    }

    /** Bytes the collectors hold now: at most the two caps. */
    long bytesHeld() {
        return stdout.bytesHeld() + stderr.bytesHeld();
    }

    long bytesWritten() {
        return stdout.bytesWritten() + stderr.bytesWritten();
    }

    long bytesWritten(boolean ofStdout) {
        return ofStdout ? stdout.bytesWritten() : stderr.bytesWritten();
    }

    CapturedOutput finishStdout() {
        return stdout.finish();
    }

    CapturedOutput finishStderr() {
        return stderr.finish();
    }
}
