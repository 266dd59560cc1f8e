package dev.sluice.worker;

import java.util.Locale;

import org.jboss.logging.Logger;

/**
 * Named moments in a dispatch's life where the chaos test kills the worker,
 * to prove nothing is lost whichever step a crash interrupts (ADR 0010).
 * Inert unless {@code sluice.chaos.halt-at} (or {@code SLUICE_CHAOS_HALT_AT})
 * names one: the process then halts there, with no shutdown hooks, as SIGKILL
 * would leave it. For testing only.
 */
public enum CrashPoint {
    /** The dispatch is accepted and recorded; no container exists yet. */
    AFTER_ACCEPT,
    /** The container is created and recorded; it has not started. */
    AFTER_CREATE,
    /** The container runs and its output streams. */
    MID_RUN,
    /** The container exited; its result is not stored yet. */
    AFTER_EXIT,
    /** The result is stored; its callback has not been attempted. */
    AFTER_STORE,
    /** A callback was sent; its outcome is not recorded yet. */
    DURING_DELIVERY;

    private static final CrashPoint ARMED = armed();

    private static CrashPoint armed() {
        String value = System.getProperty("sluice.chaos.halt-at", System.getenv("SLUICE_CHAOS_HALT_AT"));
        if (value == null || value.isBlank()) {
            return null;
        }
        CrashPoint point =
                CrashPoint.valueOf(value.strip().toUpperCase(Locale.ROOT).replace('-', '_'));
        Logger.getLogger(CrashPoint.class).warnf("CHAOS: this worker halts when any dispatch reaches %s", point);
        return point;
    }

    public void reached() {
        if (this == ARMED) {
            Runtime.getRuntime().halt(137);
        }
    }
}
