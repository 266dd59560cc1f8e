package dev.sluice.container.stream;

import java.nio.charset.StandardCharsets;

/**
 * Splits Docker's multiplexed stream ({@code Tty=false}) into stdout and
 * stderr. Each frame is an 8-byte header {@code [type, 0, 0, 0, size (uint32 BE)]}
 * and {@code size} bytes of payload; frames arrive cut at arbitrary offsets.
 * Payload is handed on in place, without copying. Type 0 (stdin echo) counts as
 * stdout, as Docker's own {@code stdcopy} does; type 3 is an error the engine
 * reports about the stream. A header of any other type means the engine sent a
 * raw stream, which then all goes to stdout.
 */
final class FrameDemuxer {

    private static final int HEADER = 8;
    private static final int STDIN = 0;
    private static final int STDOUT = 1;
    private static final int STDERR = 2;
    private static final int SYSTEM_ERROR = 3;
    private static final int MAX_ENGINE_ERROR = 4096;

    private final OutputSink sink;
    private final byte[] header = new byte[HEADER];
    private int headerFill;
    private long payloadLeft;
    private int type;
    private boolean raw;
    private final StringBuilder engineError = new StringBuilder();

    FrameDemuxer(OutputSink sink) {
        this.sink = sink;
    }

    void feed(byte[] bytes, int offset, int count) {
        int pos = offset;
        int end = offset + count;
        while (pos < end) {
            if (raw) {
                sink.stdout(bytes, pos, end - pos);
                return;
            }
            if (payloadLeft == 0) {
                pos = readHeader(bytes, pos, end);
                continue;
            }
            int n = (int) Math.min(payloadLeft, end - pos);
            deliver(bytes, pos, n);
            payloadLeft -= n;
            pos += n;
        }
    }

    private int readHeader(byte[] bytes, int pos, int end) {
        if (headerFill == 0 && !isFrameType(bytes[pos])) {
            raw = true;
            return pos;
        }
        int n = Math.min(HEADER - headerFill, end - pos);
        System.arraycopy(bytes, pos, header, headerFill, n);
        headerFill += n;
        if (headerFill == HEADER) {
            headerFill = 0;
            type = header[0];
            payloadLeft = ((header[4] & 0xFFL) << 24)
                    | ((header[5] & 0xFF) << 16)
                    | ((header[6] & 0xFF) << 8)
                    | (header[7] & 0xFF);
        }
        return pos + n;
    }

    private static boolean isFrameType(byte b) {
        return b >= STDIN && b <= SYSTEM_ERROR;
    }

    private void deliver(byte[] bytes, int offset, int count) {
        switch (type) {
            case STDERR -> sink.stderr(bytes, offset, count);
            case SYSTEM_ERROR ->
                engineError.append(new String(
                        bytes,
                        offset,
                        Math.min(count, MAX_ENGINE_ERROR - engineError.length()),
                        StandardCharsets.UTF_8));
            default -> sink.stdout(bytes, offset, count);
        }
    }

    /** Whether the stream so far ended on a frame boundary: a stream cut mid-frame does not. */
    boolean atFrameBoundary() {
        return raw || (headerFill == 0 && payloadLeft == 0);
    }

    /** What the engine reported on the stream itself, if anything. */
    String engineError() {
        return engineError.toString();
    }
}
