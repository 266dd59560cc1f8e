package dev.sluice.container;

/**
 * Receives a container's output, demultiplexed. Called from one reader thread;
 * the chunk is only valid until the call returns.
 */
public interface OutputSink {

    void stdout(byte[] chunk, int offset, int count);

    void stderr(byte[] chunk, int offset, int count);
}
