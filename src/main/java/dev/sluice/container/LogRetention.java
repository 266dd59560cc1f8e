package dev.sluice.container;

/**
 * Whether the runtime's log of a dispatch may have lost its oldest part to
 * rotation (ADR 0013). The log driver rotates files of {@code log-max-size} and
 * keeps {@code log-max-files}; nothing is dropped while the bytes on disk stay
 * within {@code (files - 1) x size}. Bytes on disk per byte written depend on
 * line length: measured worst cases (one-byte lines) are 8.3 for {@code local}
 * and 71 for {@code json-file}; we use 9 and 72. For other drivers we cannot
 * tell, so we say rotation was possible.
 */
public final class LogRetention {

    private final long safeBytes;

    public LogRetention(ContainerConfig config) {
        long budget = (config.logMaxFiles() - 1L) * config.logMaxSize().asLongValue();
        long worstExpansion = switch (config.logDriver()) {
            case "local" -> 9;
            case "json-file" -> 72;
            default -> 0;
        };
        this.safeBytes = worstExpansion == 0 ? -1 : budget / worstExpansion;
    }

    /** True when a dispatch that wrote this many bytes (both streams) may have had its log rotated. */
    public boolean possiblyRotated(long bytesWritten) {
        return bytesWritten > safeBytes;
    }
}
