package dev.sluice.concurrent;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Thread factories for the worker's own pools. Every thread is a daemon, so a
 * pool that is never shut down cannot keep the process alive after Quarkus has
 * stopped, and every thread is named for its pool, so a thread dump says whose
 * work it is.
 */
public final class Threads {

    private Threads() {}

    /** Daemon threads named {@code prefix1}, {@code prefix2}, ... */
    public static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return work -> {
            Thread thread = new Thread(work, prefix + n.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
