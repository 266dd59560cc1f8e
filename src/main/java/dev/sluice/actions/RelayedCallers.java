package dev.sluice.actions;

import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.worker.RelaySignatures;

/**
 * Who a read relayed by another replica is for (ADR 0072): the tenant its
 * signature names, when the signature is one of this store's replicas'.
 */
@Singleton
public class RelayedCallers {

    /** The header a relayed read carries its signature in. */
    public static final String HEADER = RelaySignatures.HEADER;

    /** The header a relay without a signature carries: refused, as a relay signed wrongly is. */
    public static final String UNSIGNED = RelaySignatures.UNSIGNED;

    private static final Logger LOG = Logger.getLogger(RelayedCallers.class);

    private final RelaySignatures signatures;

    @Inject
    RelayedCallers(RelaySignatures signatures) {
        this.signatures = signatures;
    }

    /** The caller a {@code method} read of {@code target} signed with {@code signature} acts as; empty when refused. */
    public Optional<Caller> caller(String signature, String method, String target) {
        RelaySignatures.Verdict verdict = signatures.verify(signature, method, target);
        if (verdict instanceof RelaySignatures.Verdict.Accepted accepted) {
            return Optional.of(new Caller(accepted.tenant(), false));
        }
        LOG.debugf("a relayed read was refused: %s", ((RelaySignatures.Verdict.Refused) verdict).why());
        return Optional.empty();
    }
}
