package dev.sluice.run;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.container.sandbox.NetworkModes;
import dev.sluice.record.DispatchConfig;
import io.quarkus.runtime.Startup;

/**
 * Refuses to start a worker whose {@code sluice.dispatch.allowed-networks}
 * lists a network a dispatch would share with the engine's host or another
 * container (ADR 0071): a request may name any network on that list, so one
 * such entry opens the host to every tenant. It runs right after the
 * exposure check, so a refused worker migrates no store and calls no engine.
 */
@Startup(Integer.MIN_VALUE + 1)
@Singleton
class NetworkCheck {

    private static final Logger LOG = Logger.getLogger(NetworkCheck.class);

    @Inject
    NetworkCheck(DispatchConfig dispatch) {
        NetworkModes.refusal("sluice.dispatch.allowed-networks", dispatch.allowedNetworks())
                .ifPresent(refusal -> {
                    // Logged on a line of its own, as well as in the failed start's stack trace, for log shippers.
                    LOG.error(refusal);
                    throw new IllegalStateException(refusal);
                });
    }
}
