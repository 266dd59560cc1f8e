package dev.sluice.container;

import java.util.Set;

import dev.sluice.container.sandbox.ContainerConfig;

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
 *
 * <p>All of it holds for records as Docker's engine writes them with only the
 * rotation options; a log set up otherwise gets the answers of a driver we
 * cannot tell ({@link #forLog}, ADR 0049).
 */
public final class LogRetention {

    /** More than the largest record a driver writes: 16 KiB of output, each byte escaped to six, and its frame. */
    static final long RECORD_MARGIN = 128 << 10;

    /** What {@code /version} calls Docker's own engine, whose records were measured. */
    static final String DOCKER_ENGINE = "Engine";

    /**
     * The options that only rotate the log. Any other changes what a record
     * holds: {@code labels}, {@code labels-regex}, {@code env}, {@code env-regex}
     * and {@code tag} add {@code attrs} to every {@code json-file} record.
     */
    static final Set<String> ROTATION_OPTIONS = Set.of("max-size", "max-file", "compress");

    /** The answers for a log whose records nobody measured: it may always have rotated, and nothing proves it whole. */
    private static final LogRetention UNTOLD = new LogRetention("", -1, -1, -1);

    /** The driver the worker asks for, whose records the bounds below describe. */
    private final String driver;

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
        long fullFiles =
                (config.logMaxFiles() - 1L) * Math.max(0, config.logMaxSize().asLongValue() - RECORD_MARGIN);
        this.driver = config.logDriver();
        this.jsonFileBudget = config.logDriver().equals("json-file") ? budget : -1;
        this.safeBytes = worstExpansion == 0 ? -1 : budget / worstExpansion;
        this.provenWhole = worstExpansion == 0 ? -1 : fullFiles / worstExpansion;
    }

    private LogRetention(String driver, long jsonFileBudget, long safeBytes, long provenWhole) {
        this.driver = driver;
        this.jsonFileBudget = jsonFileBudget;
        this.safeBytes = safeBytes;
        this.provenWhole = provenWhole;
    }

    /**
     * These answers for a log its engine describes as set up the way they were
     * measured: by Docker's engine, with the driver asked for and no option but
     * rotation's. For any other (Podman writes other records under the name
     * {@code json-file}; a daemon's {@code log-opts} can add attributes to
     * every record) the answers of a driver we cannot tell: the log may always
     * have rotated and is read back to know.
     */
    public LogRetention forLog(LogSetup log) {
        boolean measured = log.engine().equals(DOCKER_ENGINE)
                && log.driver().equals(driver)
                && ROTATION_OPTIONS.containsAll(log.options());
        return measured ? this : UNTOLD;
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
