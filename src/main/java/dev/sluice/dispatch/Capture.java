package dev.sluice.dispatch;

import dev.sluice.container.OutputSink;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.MarkerNonce;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.SecretMasker;

/**
 * A dispatch's two streams, each bounded by its own collector. Both markers
 * carry one nonce, drawn here: the result built from this capture is the
 * dispatch's only one, so its nonce is the dispatch's (ADR 0025).
 */
final class Capture implements OutputSink {

    private final OutputCollector stdout;
    private final OutputCollector stderr;

    Capture(String dispatchId, int stdoutCap, int stderrCap, SecretMasker masker) {
        String nonce = MarkerNonce.random();
        this.stdout = new OutputCollector("stdout", stdoutCap, DispatchLinks.log(dispatchId, "stdout"), nonce, masker);
        this.stderr = new OutputCollector("stderr", stderrCap, DispatchLinks.log(dispatchId, "stderr"), nonce, masker);
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

    long stdoutWritten() {
        return stdout.bytesWritten();
    }

    long stderrWritten() {
        return stderr.bytesWritten();
    }

    /** At most how many bytes of {@code json-file} records both streams take in the runtime's log. */
    long jsonFileLogBound() {
        return stdout.jsonFileLogBound() + stderr.jsonFileLogBound();
    }

    /** Both streams, their markers pointing at where the runtime's log of each now begins. */
    CapturedOutput finishStdout(DispatchResult.AvailableFrom from) {
        return stdout.finish(from == null ? 0 : from.stdout());
    }

    CapturedOutput finishStderr(DispatchResult.AvailableFrom from) {
        return stderr.finish(from == null ? 0 : from.stderr());
    }
}
