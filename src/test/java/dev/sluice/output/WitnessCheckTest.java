package dev.sluice.output;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Digests;

/**
 * Every way what reached the worker can differ from what the witness in the
 * container counted (ADR 0045), and what the result then says.
 */
class WitnessCheckTest {

    private static final String LOG = "/v1/dispatches/d-1/logs/stdout";
    private static final String NONCE = "Zx3-q_8Lw0Ab";
    private static final int TAIL = 1024;

    /** A stream of numbered lines, as a process might print. */
    private static byte[] stream(int length) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; text.length() < length; i++) {
            text.append("line ").append(i).append(" of the agent's output\n");
        }
        return text.substring(0, length).getBytes(StandardCharsets.UTF_8);
    }

    private static OutputCollector collector(int cap, SecretMasker masker) {
        return new OutputCollector("stdout", cap, LOG, NONCE, masker);
    }

    private static OutputCollector received(byte[] bytes, int length) {
        OutputCollector c = collector(1 << 20, SecretMasker.NONE);
        c.write(bytes, 0, length);
        return c;
    }

    /** The witness's copy of the stream's last {@link #TAIL} bytes, counting how often it is read. */
    private static Supplier<WitnessCheck.Tail> tailOf(byte[] written, AtomicInteger reads) {
        return () -> {
            reads.incrementAndGet();
            return WitnessCheck.Tail.of(
                    Arrays.copyOfRange(written, Math.max(0, written.length - TAIL), written.length));
        };
    }

    private static StreamWitness check(OutputCollector c, byte[] written, AtomicInteger reads) {
        return WitnessCheck.check(
                c, written.length, Digests.sha256(written), TAIL, tailSha256(written), tailOf(written, reads));
    }

    /** The SHA-256 of the stream's last {@link #TAIL} bytes, as the witness's record gives it. */
    private static String tailSha256(byte[] written) {
        return Digests.sha256(Arrays.copyOfRange(written, Math.max(0, written.length - TAIL), written.length));
    }

    @Test
    void aStreamThatArrivedWholeIsCompleteAndTheTailIsNeverRead() {
        byte[] written = stream(5000);
        OutputCollector c = received(written, written.length);
        AtomicInteger reads = new AtomicInteger();

        StreamWitness w = check(c, written, reads);
        CapturedOutput out = c.finish(0, w);

        assertThat(w).isEqualTo(StreamWitness.complete(5000));
        assertThat(reads).hasValue(0);
        assertThat(out.text().bytes()).isEqualTo(written);
        assertThat(out.digest().covers()).isEqualTo(StreamDigest.STREAM);
        assertThat(out.witness()).isSameAs(w);
    }

    @Test
    void anEndTheEngineDroppedIsRestoredFromTheWitnessAndTheResultIsExact() {
        byte[] written = stream(5000);
        OutputCollector c = received(written, 5000 - 700);
        AtomicInteger reads = new AtomicInteger();

        StreamWitness w = check(c, written, reads);
        CapturedOutput out = c.finish(0, w);

        assertThat(w.state()).isEqualTo(StreamWitness.RECOVERED);
        assertThat(w.writtenBytes()).isEqualTo(5000);
        assertThat(w.receivedBytes()).isEqualTo(4300);
        assertThat(w.recoveredBytes()).isEqualTo(700);
        assertThat(w.lostBytes()).isZero();
        assertThat(reads).hasValue(1);
        assertThat(out.text().bytes()).isEqualTo(written);
        assertThat(out.digest()).isEqualTo(new StreamDigest(Digests.sha256(written), 5000, Digests.lines(written)));
        assertThat(out.overflow()).isNull();
    }

    @Test
    void anEndLargerThanTheWitnessKeepsIsReportedLostWithoutReadingTheTail() {
        byte[] written = stream(5000);
        OutputCollector c = received(written, 5000 - TAIL - 1);
        AtomicInteger reads = new AtomicInteger();

        StreamWitness w = check(c, written, reads);
        CapturedOutput out = c.finish(0, w);

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(w.lostBytes()).isEqualTo(TAIL + 1);
        assertThat(w.lostAt()).isEqualTo(StreamWitness.UNKNOWN);
        assertThat(reads).hasValue(0);
        String text = new String(out.text().bytes(), StandardCharsets.UTF_8);
        assertThat(text).startsWith(new String(written, 0, 5000 - TAIL - 1, StandardCharsets.UTF_8));
        assertThat(text)
                .endsWith("\n[... sluice " + NONCE + ": " + (TAIL + 1) + " of 5000 bytes of stdout did not reach "
                        + "the worker (" + (5000 - TAIL - 1) + " did), lost at a place the worker cannot tell; this "
                        + "text is incomplete ...]\n");
        assertThat(out.digest().covers()).isEqualTo(StreamDigest.RECEIVED);
        assertThat(out.digest().bytes()).isEqualTo(5000 - TAIL - 1);
        assertThat(out.digest().sha256()).isEqualTo(Digests.sha256(Arrays.copyOf(written, 5000 - TAIL - 1)));
    }

    @Test
    void bytesLostBeforeTheEndAreReportedAsSuchAndNothingIsRestored() {
        byte[] written = stream(5000);
        OutputCollector c = collector(1 << 20, SecretMasker.NONE);
        c.write(written, 0, 1000);
        c.write(written, 1300, 3700); // 300 bytes lost in the middle
        AtomicInteger reads = new AtomicInteger();

        StreamWitness w = check(c, written, reads);
        CapturedOutput out = c.finish(0, w);

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(w.lostAt()).isEqualTo(StreamWitness.MIDDLE);
        assertThat(w.lostBytes()).isEqualTo(300);
        assertThat(reads).hasValue(1);
        assertThat(out.digest().bytes()).isEqualTo(4700); // the tail was not written in
        assertThat(new String(out.text().bytes(), StandardCharsets.UTF_8))
                .contains("300 of 5000 bytes of stdout did not reach the worker (4700 did), lost before its end");
    }

    @Test
    void asManyBytesButOtherOnesAreNotComplete() {
        byte[] written = stream(5000);
        byte[] altered = written.clone();
        altered[42] = 'X';
        OutputCollector c = received(altered, altered.length);

        StreamWitness w = check(c, written, new AtomicInteger());

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(w.lostBytes()).isZero();
        assertThat(w.lostAt()).isEqualTo(StreamWitness.UNKNOWN);
        assertThat(w.detail()).contains("not the same ones");
    }

    @Test
    void moreBytesThanTheProcessWroteAreNotComplete() {
        byte[] written = stream(5000);
        byte[] more = stream(5100);
        OutputCollector c = received(more, more.length);

        StreamWitness w = check(c, written, new AtomicInteger());

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(w.detail()).contains("100 more bytes reached the worker");
    }

    @Test
    void aTailThatCannotBeReadLeavesTheStreamIncomplete() {
        byte[] written = stream(5000);
        OutputCollector c = received(written, 4000);

        StreamWitness w = WitnessCheck.check(
                c,
                5000,
                Digests.sha256(written),
                TAIL,
                tailSha256(written),
                () -> WitnessCheck.Tail.unreadable("archive: 500"));

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(w.lostBytes()).isEqualTo(1000);
        assertThat(w.detail()).contains("archive: 500");
    }

    @Test
    void aTailShorterThanWhatIsMissingLeavesTheStreamIncomplete() {
        byte[] written = stream(5000);
        OutputCollector c = received(written, 4000);

        StreamWitness w = WitnessCheck.check(
                c,
                5000,
                Digests.sha256(written),
                TAIL,
                tailSha256(written),
                () -> WitnessCheck.Tail.of(Arrays.copyOfRange(written, 4500, 5000)));

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(w.detail()).contains("fewer bytes than are missing");
        assertThat(c.bytesWritten()).isEqualTo(4000);
    }

    @Test
    void aForgedTailThatDoesNotHashToTheWitnessIsNotRestored() {
        byte[] written = stream(5000);
        OutputCollector c = received(written, 4500);
        byte[] forged = Arrays.copyOfRange(written, 5000 - TAIL, 5000);
        forged[forged.length - 1] ^= 1;

        StreamWitness w = WitnessCheck.check(
                c, 5000, Digests.sha256(written), TAIL, tailSha256(written), () -> WitnessCheck.Tail.of(forged));

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(w.detail()).contains("it is not the copy the witness wrote");
        assertThat(c.bytesWritten()).isEqualTo(4500);
    }

    @Test
    void aForgedTailWithItsOwnDigestStillDoesNotHashToTheWholeStream() {
        byte[] written = stream(5000);
        OutputCollector c = received(written, 4500);
        byte[] forged = Arrays.copyOfRange(written, 5000 - TAIL, 5000);
        forged[forged.length - 1] ^= 1;

        // A record that vouched for the forged tail's digest: the whole stream's digest still refuses it.
        StreamWitness w = WitnessCheck.check(
                c, 5000, Digests.sha256(written), TAIL, Digests.sha256(forged), () -> WitnessCheck.Tail.of(forged));

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(w.lostAt()).isEqualTo(StreamWitness.MIDDLE);
        assertThat(c.bytesWritten()).isEqualTo(4500);
    }

    @Test
    void withSecretsTheWitnessIsCheckedAgainstTheBytesAsWrittenAndTheRestoredEndIsMasked() {
        byte[] written =
                ("start\n" + "x".repeat(3000) + "\nthe key is hunter2-hunter2\n").getBytes(StandardCharsets.UTF_8);
        SecretMasker masker = new SecretMasker(List.of("hunter2-hunter2"), 8);
        OutputCollector c = collector(1 << 20, masker);
        c.write(written, 0, written.length - 20);

        StreamWitness w = check(c, written, new AtomicInteger());
        CapturedOutput out = c.finish(0, w);

        assertThat(w.state()).isEqualTo(StreamWitness.RECOVERED);
        String text = new String(out.text().bytes(), StandardCharsets.UTF_8);
        assertThat(text).endsWith("the key is ***************\n").doesNotContain("hunter2");
        byte[] masked = text.getBytes(StandardCharsets.UTF_8);
        assertThat(out.digest().sha256()).isEqualTo(Digests.sha256(masked));
    }

    @Test
    void theLossMarkerFitsTheCapOfAStreamThatWouldOtherwiseFit() {
        int cap = 2048;
        byte[] written = stream(cap + 5000);
        OutputCollector c = collector(cap, SecretMasker.NONE);
        c.write(written, 0, cap - 10); // what arrived fits the cap exactly, all but ten bytes

        StreamWitness w = check(c, written, new AtomicInteger());
        CapturedOutput out = c.finish(0, w);

        assertThat(w.state()).isEqualTo(StreamWitness.INCOMPLETE);
        assertThat(out.text().length()).isLessThanOrEqualTo(cap);
        assertThat(out.overflow()).isNotNull();
        assertThat(out.overflow().keptBytes()).isEqualTo(out.text().length());
        assertThat(new String(out.text().bytes(), StandardCharsets.UTF_8)).endsWith("this text is incomplete ...]\n");
    }

    @Test
    void aJsonLinesStreamGetsItsLossAsARecordSoEveryLineStillParses() throws Exception {
        byte[] written = "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n".repeat(200).getBytes(StandardCharsets.UTF_8);
        StreamCollector c = StreamCollector.of(OutputFormat.JSONL, "stdout", 1 << 20, LOG, NONCE, SecretMasker.NONE);
        c.write(written, 0, written.length - TAIL - 8); // whole records arrived

        StreamWitness w = WitnessCheck.check(
                c,
                written.length,
                Digests.sha256(written),
                TAIL,
                tailSha256(written),
                () -> WitnessCheck.Tail.unreadable("unused"));
        CapturedOutput out = c.finish(0, w);

        ObjectMapper json = new ObjectMapper();
        String[] lines = new String(out.text().bytes(), StandardCharsets.UTF_8).split("\n");
        for (String line : lines) {
            if (!line.isEmpty() && line.startsWith("{")) {
                json.readTree(line);
            }
        }
        var last = json.readTree(lines[lines.length - 1]).get("sluice.lost");
        assertThat(last.get("nonce").asText()).isEqualTo(NONCE);
        assertThat(last.get("lostBytes").asLong()).isEqualTo(TAIL + 8);
        assertThat(last.get("writtenBytes").asLong()).isEqualTo(written.length);
    }
}
