package dev.sluice.logs;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerException;
import dev.sluice.container.ContainerLogs;
import dev.sluice.container.LogRetention;
import dev.sluice.record.DispatchResult;

/**
 * Where the runtime's copy of each of a dispatch's streams now begins (ADR
 * 0032): 0 when the log is proven whole, otherwise learned by counting what the
 * runtime still returns against what the process wrote. Rotation drops the
 * oldest bytes, so the difference is where the copy begins.
 */
public final class LogHolding {

    private static final Logger LOG = Logger.getLogger(LogHolding.class);

    /** What {@link #atFinish} takes for a log whose records nobody counted: its counts are the log's own. */
    public static final long UNKNOWN = -1;

    private final LogRetention retention;
    private final ContainerLogs logs;

    public LogHolding(LogRetention retention, ContainerLogs logs) {
        this.retention = retention;
        this.logs = logs;
    }

    /**
     * At the end of a dispatch whose process wrote these counts, after its
     * output ended (the log then changes no more). {@code jsonFileLogBound} is
     * at most how many bytes of {@code json-file} records both streams take,
     * counted as they streamed (ADR 0036), or {@link #UNKNOWN} when the counts
     * are the log's own (a result recovered from it). The log is read back only
     * when neither that bound nor the worst case rules rotation out. Null when
     * the worker cannot tell: the log could not be read, or the counts are the
     * log's own and it is too long to be proven whole.
     */
    public DispatchResult.AvailableFrom atFinish(
            String containerId, long stdoutWritten, long stderrWritten, long jsonFileLogBound) {
        long written = stdoutWritten + stderrWritten;
        if (jsonFileLogBound == UNKNOWN) {
            return provenWhole(written) ? DispatchResult.AvailableFrom.WHOLE : null;
        }
        if (!retention.possiblyRotated(written) || retention.recordsFit(jsonFileLogBound)) {
            return DispatchResult.AvailableFrom.WHOLE;
        }
        try {
            ContainerLogs.Held held = logs.held(containerId, Long.MAX_VALUE);
            return DispatchResult.AvailableFrom.of(stdoutWritten, stderrWritten, held.stdout(), held.stderr());
        } catch (ContainerException e) {
            LOG.warnf("could not count the log the runtime holds, so its start is unknown: %s", e.getMessage());
            return null;
        }
    }

    /**
     * For a log whose start no result gives (the dispatch still runs, or its
     * result could not tell): whole when the runtime returns too little for
     * anything to have been dropped, otherwise null.
     */
    DispatchResult.AvailableFrom probe(String containerId) {
        long bound = retention.provenWholeBytes();
        if (bound <= 0) {
            return null;
        }
        ContainerLogs.Held held = logs.held(containerId, bound);
        return held.complete() && provenWhole(held.total()) ? DispatchResult.AvailableFrom.WHOLE : null;
    }

    private boolean provenWhole(long returned) {
        return returned < retention.provenWholeBytes();
    }
}
