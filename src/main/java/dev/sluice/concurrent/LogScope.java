package dev.sluice.concurrent;

import org.jboss.logging.MDC;

/**
 * The dispatch a thread is working for, as its log lines name it: every line
 * logged inside a scope carries the id in the MDC under {@link #DISPATCH_ID}
 * (the text format shows it in brackets, JSON as {@code mdc.dispatchId}), so
 * an operator can follow one dispatch through the runner, the finisher,
 * callback delivery and reconciliation. Closing a scope puts back what was
 * there before, so scopes nest and a pooled thread never keeps an id past the
 * work it belonged to.
 */
public final class LogScope implements AutoCloseable {

    /** The MDC key, and so the field of JSON log lines (README, "Logs"). */
    public static final String DISPATCH_ID = "dispatchId";

    private final Object previous;

    private LogScope(Object previous) {
        this.previous = previous;
    }

    /** Lines logged on this thread until the scope is closed are about this dispatch. */
    public static LogScope dispatch(String id) {
        Object previous = MDC.get(DISPATCH_ID);
        MDC.put(DISPATCH_ID, id);
        return new LogScope(previous);
    }

    /** Work for a dispatch, to hand to a pool: it runs in the dispatch's scope, wherever it runs. */
    public static Runnable wrap(String id, Runnable work) {
        return () -> {
            try (LogScope scope = dispatch(id)) {
                work.run();
            }
        };
    }

    /** Work handed to another thread, in the scope of the dispatch this thread works for now, if any. */
    public static Runnable carried(Runnable work) {
        Object id = MDC.get(DISPATCH_ID);
        return id == null ? work : wrap(id.toString(), work);
    }

    @Override
    public void close() {
        if (previous == null) {
            MDC.remove(DISPATCH_ID);
        } else {
            MDC.put(DISPATCH_ID, previous);
        }
    }
}
