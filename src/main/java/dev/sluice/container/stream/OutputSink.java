package dev.sluice.container.stream;

/**
 * Receives a container's output, demultiplexed. Called from one reader thread;
 * the chunk is only valid until the call returns.
 */
public interface OutputSink {

    void stdout(byte[] chunk, int offset, int count);

    void stderr(byte[] chunk, int offset, int count);

    /** Both sinks, {@code a} first; either may be {@code null}, and then the other alone (or {@code null}). */
    static OutputSink both(OutputSink a, OutputSink b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return new OutputSink() {
            @Override
            public void stdout(byte[] chunk, int offset, int count) {
                a.stdout(chunk, offset, count);
                b.stdout(chunk, offset, count);
            }

            @Override
            public void stderr(byte[] chunk, int offset, int count) {
                a.stderr(chunk, offset, count);
                b.stderr(chunk, offset, count);
            }
        };
    }
}
