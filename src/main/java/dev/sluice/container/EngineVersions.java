package dev.sluice.container;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** What an engine's version tells about known faults of it that the worker can steer clear of. */
final class EngineVersions {

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    private EngineVersions() {}

    /**
     * Whether the engine {@code version} (as {@code /version} gives it, such as
     * {@code 20.10.24+dfsg1}) has the network controller's lock-order deadlock
     * of moby/moby#46661, fixed in 20.10.27 and 23.0 (ADR 0042): a 20.10
     * before 20.10.27. Other lines and unknown forms are not judged.
     */
    static boolean hasNetworkControllerDeadlock(String version) {
        Matcher m = VERSION.matcher(version == null ? "" : version.trim());
        if (!m.find()) {
            return false;
        }
        return m.group(1).equals("20") && m.group(2).equals("10") && Integer.parseInt(m.group(3)) < 27;
    }
}
