package dev.sluice.logs;

import java.util.Set;

import org.jboss.logging.Logger;

import dev.sluice.container.ContainerLogs;
import dev.sluice.container.LogRetention;
import dev.sluice.container.LogSetup;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.record.DispatchResult;

/**
 * Where the runtime's copy of each of a dispatch's streams now begins (ADR
 * 0032): 0 when the log is proven whole, otherwise learned by counting what the
 * runtime still returns against what the process wrote. Rotation drops the
 * oldest bytes, so the difference is where the copy begins. Each answer that
 * spares the count rests on the records the worker measured, so it is given
 * only for a log its engine describes as set up that way (ADR 0049).
 */
public final class LogHolding {

    private static final Logger LOG = Logger.getLogger(LogHolding.class);

    /** What {@link #atFinish} takes for a log whose records nobody counted: its counts are the log's own. */
    public static final long UNKNOWN = -1;

    /** A log its engine did not describe: no engine, no driver, so nothing the worker measured. */
    private static final LogSetup UNDESCRIBED = new LogSetup("", "", Set.of());

    private final LogRetention retention;
    private final ContainerLogs logs;
    private volatile boolean saidUnmeasured;

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
     * when neither that bound nor the worst case rules rotation out, or when
     * the engine describes a log set up otherwise than the one they assume.
     * Null when the worker cannot tell: the log could not be read, or the
     * counts are the log's own and it is too long to be proven whole.
     */
    public DispatchResult.AvailableFrom atFinish(
            String containerId, long stdoutWritten, long stderrWritten, long jsonFileLogBound) {
        long written = stdoutWritten + stderrWritten;
        LogRetention described = describedAtFinish(containerId);
        if (jsonFileLogBound == UNKNOWN) {
            return provenWhole(described, written) ? DispatchResult.AvailableFrom.WHOLE : null;
        }
        if (!described.possiblyRotated(written) || described.recordsFit(jsonFileLogBound)) {
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

    /** What can be told of this container's log; nothing, when the engine will not describe it. */
    private LogRetention describedAtFinish(String containerId) {
        try {
            return described(logs.setup(containerId));
        } catch (ContainerException e) {
            LOG.warnf("could not learn how the runtime's log is set up, so it is read back: %s", e.getMessage());
            return retention.forLog(UNDESCRIBED);
        }
    }

    private LogRetention described(LogSetup setup) {
        LogRetention described = retention.forLog(setup);
        if (described != retention && !saidUnmeasured) {
            saidUnmeasured = true; // once: the setup is the engine's, the same for every container it logs
            LOG.warnf(
                    "the engine logs containers otherwise than the worker measured (engine %s, driver %s, options"
                            + " %s): every finished dispatch's log is read back to place logs.availableFrom (ADR 0049)",
                    setup.engine(), setup.driver(), setup.options());
        }
        return described;
    }

    /**
     * For a log whose start no result gives (the dispatch still runs, or its
     * result could not tell): whole when the runtime returns too little for
     * anything to have been dropped, otherwise null.
     */
    DispatchResult.AvailableFrom probe(String containerId) {
        LogRetention described = described(logs.setup(containerId));
        long bound = described.provenWholeBytes();
        if (bound <= 0) {
            return null;
        }
        ContainerLogs.Held held = logs.held(containerId, bound);
        return held.complete() && provenWhole(described, held.total()) ? DispatchResult.AvailableFrom.WHOLE : null;
    }

    private static boolean provenWhole(LogRetention retention, long returned) {
        return returned < retention.provenWholeBytes();
    }
}
