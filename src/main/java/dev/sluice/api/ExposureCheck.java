package dev.sluice.api;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.sluice.actions.ApiConfig;
import io.quarkus.runtime.Startup;

/**
 * Refuses to start a worker that would serve the API to anyone who reaches it
 * by accident, and warns at every start of one that does so on purpose
 * (ADR 0053). It lives in the REST door because where the HTTP server listens
 * ({@code quarkus.http.host}) is the doors' setting, one that nothing below
 * them knows; the MCP door shares the same server and port. It runs before
 * every other start-up step, so a refused worker migrates no store, starts no
 * job and calls no engine.
 */
@Startup(Integer.MIN_VALUE)
@Singleton
class ExposureCheck {

    private static final Logger LOG = Logger.getLogger(ExposureCheck.class);

    @Inject
    ExposureCheck(@ConfigProperty(name = "quarkus.http.host") String host, ApiConfig config) {
        switch (Exposure.of(host, config)) {
            case REFUSED -> {
                // Logged on a line of its own, as well as in the failed start's stack trace, for log shippers.
                String refusal = Exposure.REFUSAL.formatted(host);
                LOG.error(refusal);
                throw new IllegalStateException(refusal);
            }
            case ANONYMOUS -> LOG.warnf(Exposure.WARNING, host);
            case TOKENS, LOOPBACK -> {}
        }
    }
}
