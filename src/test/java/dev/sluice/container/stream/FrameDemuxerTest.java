package dev.sluice.container.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

public class FrameDemuxerTest {

    /** Records what it is given, copying as the sink contract requires. */
    public static final class Recorder implements OutputSink {
        public final ByteArrayOutputStream out = new ByteArrayOutputStream();
        public final ByteArrayOutputStream err = new ByteArrayOutputStream();

        @Override
        public void stdout(byte[] chunk, int offset, int count) {
            out.write(chunk, offset, count);
        }

        @Override
        public void stderr(byte[] chunk, int offset, int count) {
            err.write(chunk, offset, count);
        }
    }

    private static void frame(ByteArrayOutputStream wire, int type, String payload) {
        byte[] p = payload.getBytes(StandardCharsets.UTF_8);
        wire.write(type);
        wire.write(0);
        wire.write(0);
        wire.write(0);
        wire.write(p.length >>> 24);
        wire.write(p.length >>> 16);
        wire.write(p.length >>> 8);
        wire.write(p.length);
        wire.write(p, 0, p.length);
    }

    private static byte[] sampleWire() {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        frame(wire, 1, "hello ");
        frame(wire, 2, "warn\n");
        frame(wire, 1, "");
        frame(wire, 1, "w\u00f6rld\n");
        frame(wire, 0, "echo\n");
        frame(wire, 2, "x".repeat(70_000));
        return wire.toByteArray();
    }

    @Test
    void framesCutAtEveryOffsetDemultiplexTheSame() {
        byte[] wire = sampleWire();
        for (int split = 0; split <= wire.length; split += (split < 200 || split > wire.length - 200) ? 1 : 997) {
            Recorder r = new Recorder();
            FrameDemuxer d = new FrameDemuxer(r);
            d.feed(wire, 0, split);
            d.feed(wire, split, wire.length - split);
            assertThat(r.out.toString(StandardCharsets.UTF_8))
                    .as("split %d", split)
                    .isEqualTo("hello w\u00f6rld\necho\n");
            assertThat(r.err.toString(StandardCharsets.UTF_8)).isEqualTo("warn\n" + "x".repeat(70_000));
            assertThat(d.atFrameBoundary()).isTrue();
        }
    }

    @Test
    void oneByteAtATimeWorks() {
        byte[] wire = sampleWire();
        Recorder r = new Recorder();
        FrameDemuxer d = new FrameDemuxer(r);
        for (int i = 0; i < wire.length; i++) {
            d.feed(wire, i, 1);
        }
        assertThat(r.out.toString(StandardCharsets.UTF_8)).isEqualTo("hello w\u00f6rld\necho\n");
        assertThat(r.err.size()).isEqualTo(70_005);
    }

    @Test
    void aStreamCutInsideAFrameIsNotAtABoundary() {
        byte[] wire = sampleWire();
        for (int cut : new int[] {3, 8 + 2, wire.length - 1}) {
            FrameDemuxer d = new FrameDemuxer(new Recorder());
            d.feed(wire, 0, cut);
            assertThat(d.atFrameBoundary()).as("cut at %d", cut).isFalse();
        }
    }

    @Test
    void aRawStreamGoesToStdout() {
        byte[] raw = "plain tty output\n".getBytes(StandardCharsets.UTF_8);
        Recorder r = new Recorder();
        FrameDemuxer d = new FrameDemuxer(r);
        d.feed(raw, 0, 5);
        d.feed(raw, 5, raw.length - 5);
        assertThat(r.out.toString(StandardCharsets.UTF_8)).isEqualTo("plain tty output\n");
        assertThat(d.atFrameBoundary()).isTrue();
    }

    @Test
    void engineErrorsAreKeptApartFromOutput() {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        frame(wire, 1, "ok\n");
        frame(wire, 3, "log driver failed");
        Recorder r = new Recorder();
        FrameDemuxer d = new FrameDemuxer(r);
        d.feed(wire.toByteArray(), 0, wire.size());
        assertThat(r.out.toString(StandardCharsets.UTF_8)).isEqualTo("ok\n");
        assertThat(d.engineError()).isEqualTo("log driver failed");
    }
}
