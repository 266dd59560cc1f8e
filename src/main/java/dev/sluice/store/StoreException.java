package dev.sluice.store;

/** The store could not be read or written; the API answers 503 and nothing is half-done. */
public final class StoreException extends RuntimeException {

    public StoreException(String operation, Throwable cause) {
        super("store: " + operation + " failed", cause);
    }
}
