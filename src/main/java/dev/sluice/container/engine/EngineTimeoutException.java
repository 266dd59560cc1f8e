package dev.sluice.container.engine;

import java.io.InterruptedIOException;
import java.time.Duration;

/** A call to the engine that ran past its deadline; its connection was closed (ADR 0016). */
public final class EngineTimeoutException extends InterruptedIOException {

    EngineTimeoutException(Duration timeout) {
        super("the Docker engine did not answer within " + readable(timeout));
    }

    /** {@code 30 s}, or {@code 1500 ms} when it is not whole seconds. */
    public static String readable(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
