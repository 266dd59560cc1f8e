package dev.sluice.dispatch;

import dev.sluice.container.OutputSink;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.MarkerNonce;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.SecretMasker;

/**
 * A dispatch's two streams, each bounded by its own collector. Both markers
 * carry one nonce, drawn here: the result built from this capture is the
 * dispatch's only one, so its nonce is the dispatch's (ADR 0025). A watcher
 * (the idle timeout, the live tail) sees each chunk after the collectors; it
 * must return at once.
 */
final class Capture implements OutputSink {

    private final OutputCollector stdout;
    private final OutputCollector stderr;
    private final OutputSink watcher;
    private final String nonce;

    Capture(String dispatchId, int stdoutCap, int stderrCap, SecretMasker masker) {
        this(dispatchId, stdoutCap, stderrCap, masker, null);
    }

    Capture(String dispatchId, int stdoutCap, int stderrCap, SecretMasker masker, OutputSink watcher) {
        this.watcher = watcher;
        this.nonce = MarkerNonce.random();
        this.stdout = new OutputCollector("stdout", stdoutCap, DispatchLinks.log(dispatchId, "stdout"), nonce, masker);
        this.stderr = new OutputCollector("stderr", stderrCap, DispatchLinks.log(dispatchId, "stderr"), nonce, masker);
    }

    @Override
    public void stdout(byte[] chunk, int offset, int count) {
        stdout.write(chunk, offset, count);
        if (watcher != null) {
            watcher.stdout(chunk, offset, count);
        }
    }

    @Override
    public void stderr(byte[] chunk, int offset, int count) {
        stderr.write(chunk, offset, count);
        if (watcher != null) {
            watcher.stderr(chunk, offset, count);
        }
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

    /** The dispatch's marker nonce: the callback budget marks a whole stream it cuts with it too. */
    String nonce() {
        return nonce;
    }

    /** Both streams, their markers pointing at where the runtime's log of each now begins. */
    CapturedOutput finishStdout(DispatchResult.AvailableFrom from) {
        return stdout.finish(from == null ? 0 : from.stdout());
    }

    CapturedOutput finishStderr(DispatchResult.AvailableFrom from) {
        return stderr.finish(from == null ? 0 : from.stderr());
    }
}
