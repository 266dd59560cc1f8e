package dev.sluice.container.engine;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What an engine's version tells about known faults of it that the worker can steer clear of. */
public final class EngineVersions {

    /** What an engine's version says of its network controller's lock-order deadlock (moby/moby#46661). */
    public enum NetworkController {
        /** Before 20.10.27: containers of Docker's {@code none} network that exit together can wedge the engine. */
        DEADLOCKS,
        /** 20.10.27 or later (the fix of moby/moby#42545, in 23.0 and backported to 20.10.27). */
        FIXED,
        /** A version of no form the worker reads (a development build, an empty answer). */
        UNKNOWN
    }

    /**
     * Major, minor and an optional patch at the start, after an optional
     * {@code v}; anything after them ({@code +dfsg1}, {@code -ce},
     * {@code -rc.1}) is a packager's or a pre-release's, and does not change
     * the line the version belongs to.
     */
    private static final Pattern VERSION = Pattern.compile("^v?(\\d{1,9})\\.(\\d{1,9})(?:\\.(\\d{1,9}))?(?![\\d.])");

    private EngineVersions() {}

    /**
     * Judges the engine {@code version} as {@code /version} gives it, such as
     * {@code 20.10.24+dfsg1}, {@code 24.0.7} or {@code 27.3.1} (ADR 0047):
     * every engine before 20.10.27 has the deadlock, 20.10.27 and every later
     * line (23.0 and up; 21 and 22 were never released) has the fix.
     */
    public static NetworkController networkController(String version) {
        Matcher m = VERSION.matcher(version == null ? "" : version.strip());
        if (!m.find()) {
            return NetworkController.UNKNOWN;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        int patch = m.group(3) == null ? 0 : Integer.parseInt(m.group(3));
        boolean beforeFix = major != 20 ? major < 20 : minor != 10 ? minor < 10 : patch < 27;
        return beforeFix ? NetworkController.DEADLOCKS : NetworkController.FIXED;
    }

    /** Whether the engine {@code version} has the network controller's deadlock; an unknown form has not been shown to. */
    public static boolean hasNetworkControllerDeadlock(String version) {
        return networkController(version) == NetworkController.DEADLOCKS;
    }
}
