package dev.sluice.logs;

/**
 * A log range that starts before the first byte the runtime still holds: log
 * rotation dropped it (ADR 0032). It names where the held copy begins, so a
 * client can read on from there.
 */
public final class LogRotated extends RuntimeException {

    private final long availableFrom;

    LogRotated(long offset, long availableFrom) {
        super(
                "offset " + offset + " was rotated out of the runtime's log; the first byte it still holds is "
                        + availableFrom,
                null,
                false,
                false);
        this.availableFrom = availableFrom;
    }

    public long availableFrom() {
        return availableFrom;
    }
}
