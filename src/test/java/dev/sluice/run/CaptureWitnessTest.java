package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.OutFile;
import dev.sluice.container.files.WitnessRecord;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.SecretMasker;
import dev.sluice.output.StreamDigest;
import dev.sluice.output.StreamWitness;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.testsupport.Digests;
import dev.sluice.testsupport.StoreFixtures;

/**
 * A dispatch's capture against its witness (ADR 0045), with the engine's
 * stream scripted: it ends early, as Engine 20.10's does when its copy is
 * behind at the exit, while the witness's record (in the form the witness
 * program writes it) says the process wrote more.
 */
class CaptureWitnessTest {

    private static final int TAIL = 256 * 1024;

    private static final DispatchSpec SPEC = StoreFixtures.spec("sluice-agent:test", null);

    private static byte[] printed(int length) {
        byte[] line = "load line 0123456789 abcdefghij\n".getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = line[i % line.length];
        }
        return out;
    }

    /** The record the witness leaves, as the worker reads it once it is authenticated (WitnessRecordTest). */
    private static WitnessRecord record(byte[] stdout, byte[] stderr) {
        return new WitnessRecord(stream(stdout), stream(stderr), 0, "timeout", null, null);
    }

    private static WitnessRecord.Stream stream(byte[] bytes) {
        return new WitnessRecord.Stream(
                bytes.length, Digests.sha256(bytes), Math.min(bytes.length, TAIL), Digests.sha256(tail(bytes)));
    }

    private static byte[] tail(byte[] bytes) {
        return Arrays.copyOfRange(bytes, Math.max(0, bytes.length - TAIL), bytes.length);
    }

    /** The witness's tail files, counting reads. */
    private static Function<Boolean, OutFile> tails(byte[] stdout, byte[] stderr, AtomicInteger reads) {
        return ofStdout -> {
            reads.incrementAndGet();
            return OutFile.found(tail(ofStdout ? stdout : stderr));
        };
    }

    private static Capture capture() {
        return new Capture("d-1", SPEC, SecretMasker.NONE);
    }

    @Test
    void aStreamTheEngineCutShortIsRestoredAndTheResultIsTheWholeStream() {
        byte[] stdout = printed(4 << 20);
        byte[] stderr = "warming up\n".getBytes(StandardCharsets.US_ASCII);
        Capture capture = capture();
        // The engine delivered all but the last 40 KiB of stdout, in 64 KiB frames, then closed.
        int delivered = stdout.length - 40 * 1024;
        for (int at = 0; at < delivered; at += 65536) {
            capture.stdout(stdout, at, Math.min(65536, delivered - at));
        }
        capture.stderr(stderr, 0, stderr.length);
        AtomicInteger reads = new AtomicInteger();

        capture.witness(record(stdout, stderr), tails(stdout, stderr, reads));
        CapturedOutput out = capture.finishStdout(DispatchResult.AvailableFrom.WHOLE);
        CapturedOutput err = capture.finishStderr(DispatchResult.AvailableFrom.WHOLE);

        assertThat(capture.incomplete()).isFalse();
        assertThat(out.witness().state()).isEqualTo(StreamWitness.RECOVERED);
        assertThat(out.witness().recoveredBytes()).isEqualTo(40 * 1024);
        assertThat(out.text().bytes()).hasSize(stdout.length).isEqualTo(stdout);
        assertThat(out.digest())
                .isEqualTo(new StreamDigest(Digests.sha256(stdout), stdout.length, Digests.lines(stdout)));
        assertThat(err.witness()).isEqualTo(StreamWitness.complete(stderr.length));
        assertThat(reads).hasValue(1); // only the short stream's tail
    }

    @Test
    void aStreamCutShortByMoreThanTheWitnessKeepsIsReportedIncomplete() {
        byte[] stdout = printed(4 << 20);
        Capture capture = capture();
        int delivered = stdout.length - TAIL - 4096;
        capture.stdout(stdout, 0, delivered);

        capture.witness(record(stdout, new byte[0]), tails(stdout, new byte[0], new AtomicInteger()));
        CapturedOutput out = capture.finishStdout(DispatchResult.AvailableFrom.WHOLE);

        assertThat(capture.incomplete()).isTrue();
        assertThat(out.witness().state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(out.witness().lostBytes()).isEqualTo(TAIL + 4096);
        assertThat(out.witness().writtenBytes()).isEqualTo(stdout.length);
        assertThat(out.witness().receivedBytes()).isEqualTo(delivered);
        assertThat(out.digest().covers()).isEqualTo(StreamDigest.RECEIVED);
        assertThat(out.digest().bytes()).isEqualTo(delivered);
        assertThat(out.text().length()).isLessThanOrEqualTo(SPEC.stdoutCap());
        assertThat(new String(out.text().bytes(), StandardCharsets.UTF_8))
                .endsWith("did not reach the worker (" + delivered + " did), lost at a place the worker cannot "
                        + "tell; this text is incomplete ...]\n");
        assertThat(Errors.outputIncomplete("exited 0", out.witness(), null).message())
                .isEqualTo("the process exited 0, but stdout is incomplete: "
                        + out.witness().detail());
    }

    @Test
    void withoutARecordEveryStreamIsUnwitnessedAndSaysWhy() {
        byte[] stdout = printed(1000);
        Capture capture = capture();
        capture.stdout(stdout, 0, stdout.length);

        capture.witness(WitnessRecord.unusable(StreamWitness.OFF, "the witness is turned off"), ofStdout -> {
            throw new AssertionError("no tail is read without a record");
        });
        CapturedOutput out = capture.finishStdout(DispatchResult.AvailableFrom.WHOLE);

        assertThat(capture.incomplete()).isFalse();
        assertThat(out.witness())
                .isEqualTo(StreamWitness.unwitnessed(1000, StreamWitness.OFF, "the witness is turned off"));
        assertThat(out.text().bytes()).isEqualTo(stdout);
        assertThat(out.digest().covers()).isEqualTo(StreamDigest.STREAM);
    }
}
