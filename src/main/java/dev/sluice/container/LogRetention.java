package dev.sluice.container;

/**
 * Whether the runtime's log of a dispatch can have lost its oldest part to
 * rotation (ADR 0013, 0032). The log driver rotates files of {@code log-max-size}
 * and keeps {@code log-max-files}; nothing is dropped while the driver's records
 * stay within {@code (files - 1) x size}. Bytes of records per byte written
 * depend on line length: measured worst cases (one-byte lines) are 8.3 for
 * {@code local} and 71 for {@code json-file}; we use 9 and 72. For other drivers
 * we cannot tell, so we say rotation was possible.
 *
 * <p>The same bound read the other way proves a log whole: once anything was
 * dropped, the files left are {@code files - 1} full ones (each short of its
 * size by less than one record, at most 16 KiB escaped six times, so under
 * {@link #RECORD_MARGIN}) and the current one, so they hold at least
 * {@link #provenWholeBytes()} bytes of output. A log that returns fewer lost
 * nothing.
 */
public final class LogRetention {

    /** More than the largest record a driver writes: 16 KiB of output, each byte escaped to six, and its frame. */
    static final long RECORD_MARGIN = 128 << 10;

    /** Bytes of json-file records that cannot have rotated; -1 for other drivers. */
    private final long jsonFileBudget;

    private final long safeBytes;
    private final long provenWhole;

    public LogRetention(ContainerConfig config) {
        long budget = (config.logMaxFiles() - 1L) * config.logMaxSize().asLongValue();
        long worstExpansion = switch (config.logDriver()) {
            case "local" -> 9;
            case "json-file" -> 72;
            default -> 0;
        };
        this.jsonFileBudget = config.logDriver().equals("json-file") ? budget : -1;
        this.safeBytes = worstExpansion == 0 ? -1 : budget / worstExpansion;
        long fullFiles =
                (config.logMaxFiles() - 1L) * Math.max(0, config.logMaxSize().asLongValue() - RECORD_MARGIN);
        this.provenWhole = worstExpansion == 0 ? -1 : fullFiles / worstExpansion;
    }

    /** True when a dispatch that wrote this many bytes (both streams) may have had its log rotated. */
    public boolean possiblyRotated(long bytesWritten) {
        return bytesWritten > safeBytes;
    }

    /**
     * True when a {@code json-file} log of at most this many bytes of records
     * cannot have rotated: they fit in {@code (files - 1) x size} (ADR 0036).
     * Always false for other drivers, whose records this bound does not describe.
     */
    public boolean recordsFit(long jsonFileRecordBytes) {
        return jsonFileBudget >= 0 && jsonFileRecordBytes <= jsonFileBudget;
    }

    /** A log returning less output than this (both streams) lost nothing; -1 for drivers we cannot tell. */
    public long provenWholeBytes() {
        return provenWhole;
    }
}
