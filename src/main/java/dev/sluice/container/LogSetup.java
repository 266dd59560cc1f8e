package dev.sluice.container;

import java.util.Set;

/**
 * A container's log as its engine describes it: what the records the worker
 * counts and measures (ADR 0032, 0036) depend on, and a deployment can change
 * behind the driver's name (ADR 0049).
 *
 * @param engine  the name of the engine's own component in {@code /version}: {@code Engine} for
 *                Docker's, {@code Podman Engine} for Podman's compatible API; empty when it names none
 * @param driver  the log driver the engine applies, as its inspection names it; empty when it names
 *                one the client does not know
 * @param options the names of the driver's options, the engine's own defaults merged in
 */
public record LogSetup(String engine, String driver, Set<String> options) {

    public LogSetup {
        options = Set.copyOf(options);
    }
}
