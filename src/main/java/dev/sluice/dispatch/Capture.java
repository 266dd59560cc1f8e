package dev.sluice.dispatch;

import dev.sluice.container.OutputSink;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.OutputCollector;
import dev.sluice.output.SecretMasker;

/** A dispatch's two streams, each bounded by its own collector. */
final class Capture implements OutputSink {

    private final OutputCollector stdout;
    private final OutputCollector stderr;

    Capture(String dispatchId, int stdoutCap, int stderrCap) {
        this.stdout = new OutputCollector("stdout", stdoutCap, DispatchLinks.log(dispatchId, "stdout"));
        this.stderr = new OutputCollector("stderr", stderrCap, DispatchLinks.log(dispatchId, "stderr"));
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

    CapturedOutput finishStdout(SecretMasker masker) {
        return stdout.finish(masker);
    }

    CapturedOutput finishStderr(SecretMasker masker) {
        return stderr.finish(masker);
    }
}
