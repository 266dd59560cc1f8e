package dev.sluice.callback;

/**
 * A callback request the worker cannot honour: there is no result to deliver
 * again. The message is fixed text for the client; the REST edge maps it to a
 * problem detail.
 */
public final class CallbackRefused extends RuntimeException {

    public CallbackRefused(String message) {
        super(message, null, false, false);
    }
}
