package dev.sluice.testsupport;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An executor that runs nothing until the test says so, on the test's own
 * thread: work that would run concurrently is started and finished in an
 * order the test chooses.
 */
public final class ManualExecutor extends AbstractExecutorService {

    private final Deque<Runnable> pending = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable command) {
        pending.addLast(command);
    }

    public synchronized int pending() {
        return pending.size();
    }

    /** Runs the oldest task; false when there is none. */
    public boolean runNext() {
        Runnable next;
        synchronized (this) {
            next = pending.pollFirst();
        }
        if (next == null) {
            return false;
        }
        next.run();
        return true;
    }

    /** Runs tasks, those they submit included, until none is left. */
    public void runAll() {
        while (runNext()) {
            // keep going
        }
    }

    @Override
    public void shutdown() {}

    @Override
    public List<Runnable> shutdownNow() {
        return new ArrayList<>();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }
}
