package dev.sluice.run;

import java.util.function.Function;

import dev.sluice.container.engine.OutFile;
import dev.sluice.container.files.WitnessRecord;
import dev.sluice.container.stream.OutputSink;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.MarkerNonce;
import dev.sluice.output.SecretMasker;
import dev.sluice.output.StreamCollector;
import dev.sluice.output.StreamWitness;
import dev.sluice.output.WitnessCheck;
import dev.sluice.record.DispatchLinks;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;

/**
 * A dispatch's two streams, each bounded by its own collector in the format
 * the dispatch asked for (ADR 0031). Both markers
 * carry one nonce, drawn here: the result built from this capture is the
 * dispatch's only one, so its nonce is the dispatch's (ADR 0025). A watcher
 * (the idle timeout, the live tail) sees each chunk after the collectors; it
 * must return at once. Before the streams are finished they are set against
 * what the witness in the container counted (ADR 0045).
 */
final class Capture implements OutputSink {

    private final String nonce;
    private final StreamCollector stdout;
    private final StreamCollector stderr;
    private final OutputSink watcher;
    private StreamWitness stdoutWitness;
    private StreamWitness stderrWitness;

    Capture(String dispatchId, DispatchSpec spec, SecretMasker masker) {
        this(dispatchId, spec, masker, null);
    }

    Capture(String dispatchId, DispatchSpec spec, SecretMasker masker, OutputSink watcher) {
        this.watcher = watcher;
        this.nonce = MarkerNonce.random();
        this.stdout = StreamCollector.of(
                spec.format(true), "stdout", spec.stdoutCap(), DispatchLinks.log(dispatchId, "stdout"), nonce, masker);
        this.stderr = StreamCollector.of(
                spec.format(false), "stderr", spec.stderrCap(), DispatchLinks.log(dispatchId, "stderr"), nonce, masker);
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

    /** The dispatch's marker nonce: every marker of this capture carries it, and the callback budget's too. */
    String nonce() {
        return nonce;
    }

    /** Bytes the collectors hold now: at most the two caps. */
    long bytesHeld() {
        return stdout.bytesHeld() + stderr.bytesHeld();
    }

    long bytesWritten(boolean ofStdout) {
        return ofStdout ? stdout.bytesWritten() : stderr.bytesWritten();
    }

    /** At most how many bytes of {@code json-file} records both streams take in the runtime's log. */
    long jsonFileLogBound() {
        return stdout.jsonFileLogBound() + stderr.jsonFileLogBound();
    }

    /**
     * Sets both streams against the witness's record, once the output has
     * ended: an end the engine dropped and the witness's copy proves is
     * restored into the collector ({@link WitnessCheck}); without a record,
     * each stream is unwitnessed, saying why.
     *
     * @param tails reads the witness's copy of a stream's end ({@code true} for stdout)
     */
    void witness(WitnessRecord record, Function<Boolean, OutFile> tails) {
        stdoutWitness = judge(stdout, record, true, tails);
        stderrWitness = judge(stderr, record, false, tails);
    }

    private static StreamWitness judge(
            StreamCollector collector, WitnessRecord record, boolean ofStdout, Function<Boolean, OutFile> tails) {
        if (!record.present()) {
            return StreamWitness.unwitnessed(collector.bytesWritten(), record.reason(), record.detail());
        }
        WitnessRecord.Stream seen = record.stream(ofStdout);
        return WitnessCheck.check(collector, seen.bytes(), seen.sha256(), seen.tailBytes(), seen.tailSha256(), () -> {
            OutFile tail = tails.apply(ofStdout);
            return tail.state() == OutFile.State.FOUND
                    ? WitnessCheck.Tail.of(tail.bytes())
                    : WitnessCheck.Tail.unreadable(
                            tail.problem() != null ? tail.problem() : "the witness left no copy of the end");
        });
    }

    /** Whether the witness showed bytes missing from either stream. */
    boolean incomplete() {
        return stdoutWitness != null && stdoutWitness.incomplete()
                || stderrWitness != null && stderrWitness.incomplete();
    }

    StreamWitness witness(boolean ofStdout) {
        return ofStdout ? stdoutWitness : stderrWitness;
    }

    /** Both streams, their markers pointing at where the runtime's log of each now begins. */
    CapturedOutput finishStdout(DispatchResult.AvailableFrom from) {
        return stdout.finish(from == null ? 0 : from.stdout(), stdoutWitness);
    }

    CapturedOutput finishStderr(DispatchResult.AvailableFrom from) {
        return stderr.finish(from == null ? 0 : from.stderr(), stderrWitness);
    }
}
