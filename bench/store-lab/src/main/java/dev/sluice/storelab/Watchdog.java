package dev.sluice.storelab;

import java.io.IOException;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.MonitorInfo;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Watches every store call in flight. A call running longer than the limit is
 * a stall: the watchdog writes a full thread dump (with lock owners), hands
 * the dump's path to {@code onStall} (which records the variant as stalled),
 * and halts the JVM, since a thread stuck inside the store cannot be stopped
 * any other way (the worker could not be stopped by SIGTERM either).
 */
final class Watchdog {

    /** A call in flight. */
    record Op(String label, Thread thread, long startNanos) {}

    private final Map<Long, Op> inFlight = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private final long limitNanos;
    private final Path dumpFile;
    private final Consumer<String> onStall;
    private volatile long longestNanos;

    Watchdog(long limitSeconds, Path dumpFile, Consumer<String> onStall) {
        this.limitNanos = limitSeconds * 1_000_000_000L;
        this.dumpFile = dumpFile;
        this.onStall = onStall;
        Thread t = new Thread(this::watch, "watchdog");
        t.setDaemon(true);
        t.start();
    }

    /** Registers a call; close the returned handle when it returns. */
    AutoCloseable enter(String label) {
        long id = ids.incrementAndGet();
        inFlight.put(id, new Op(label, Thread.currentThread(), System.nanoTime()));
        return () -> {
            Op op = inFlight.remove(id);
            if (op != null) {
                long took = System.nanoTime() - op.startNanos();
                if (took > longestNanos) {
                    longestNanos = took;
                }
            }
        };
    }

    long longestMillis() {
        return longestNanos / 1_000_000;
    }

    private void watch() {
        while (true) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (Op op : inFlight.values()) {
                if (now - op.startNanos() > limitNanos) {
                    stall(op, now);
                    return;
                }
            }
        }
    }

    private void stall(Op op, long now) {
        StringBuilder sb = new StringBuilder();
        sb.append("STALL at ").append(Instant.now()).append(": '").append(op.label()).append("' on thread ")
                .append(op.thread().getName()).append(" has run ")
                .append((now - op.startNanos()) / 1_000_000).append(" ms\n");
        sb.append("calls in flight:\n");
        for (Op o : inFlight.values()) {
            sb.append("  ").append(o.thread().getName()).append(": ").append(o.label()).append(", ")
                    .append((now - o.startNanos()) / 1_000_000).append(" ms\n");
        }
        try {
            Class.forName("org.h2.engine.Engine");
            sb.append("\n").append(H2Probe.describe());
        } catch (ClassNotFoundException e) {
            // not H2
        }
        sb.append("\n").append(threadDump());
        try {
            Files.writeString(dumpFile, sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            System.err.println(sb);
        }
        System.err.println("STALL: " + op.label() + " on " + op.thread().getName() + "; dump in " + dumpFile);
        try {
            onStall.accept(dumpFile.toString());
        } finally {
            System.err.flush();
            System.out.flush();
            Runtime.getRuntime().halt(3);
        }
    }

    /** Every thread's full stack, with the locks held and waited for (what jcmd Thread.print shows). */
    static String threadDump() {
        StringBuilder sb = new StringBuilder();
        for (ThreadInfo ti : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            sb.append('"').append(ti.getThreadName()).append("\" #").append(ti.getThreadId()).append(' ')
                    .append(ti.getThreadState());
            if (ti.getLockName() != null) {
                sb.append(" on ").append(ti.getLockName());
            }
            if (ti.getLockOwnerName() != null) {
                sb.append(" owned by \"").append(ti.getLockOwnerName()).append("\" #").append(ti.getLockOwnerId());
            }
            sb.append('\n');
            StackTraceElement[] stack = ti.getStackTrace();
            for (int i = 0; i < stack.length; i++) {
                sb.append("\tat ").append(stack[i]).append('\n');
                for (MonitorInfo mi : ti.getLockedMonitors()) {
                    if (mi.getLockedStackDepth() == i) {
                        sb.append("\t- locked ").append(mi).append('\n');
                    }
                }
            }
            LockInfo[] syncs = ti.getLockedSynchronizers();
            if (syncs.length > 0) {
                sb.append("\tLocked synchronizers:\n");
                for (LockInfo li : syncs) {
                    sb.append("\t- ").append(li).append('\n');
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
