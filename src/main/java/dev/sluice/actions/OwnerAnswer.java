package dev.sluice.actions;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

import dev.sluice.worker.PeerReads;

/**
 * What the replica running a dispatch answered to a read relayed to it
 * (ADR 0065): its status, the headers a read passes on (lower case), and its
 * body, to be streamed and closed.
 */
public final class OwnerAnswer implements Closeable {

    private final PeerReads.Answer.Served served;

    OwnerAnswer(PeerReads.Answer.Served served) {
        this.served = served;
    }

    public int status() {
        return served.status();
    }

    public Map<String, String> headers() {
        return served.headers();
    }

    public InputStream body() {
        return served.body();
    }

    @Override
    public void close() throws IOException {
        served.close();
    }
}
