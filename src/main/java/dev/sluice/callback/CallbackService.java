package dev.sluice.callback;

import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import dev.sluice.outbound.CallbackUrlPolicy;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;

/** What the API asks of callbacks: the delivery state of results, and redelivery. */
public class CallbackService {

    private final CallbackStore outbox;
    private final CallbackUrlPolicy urls;
    private final TenantSigners signers;
    private final Clock clock;
    private final Runnable wake;

    CallbackService(CallbackStore outbox, CallbackUrlPolicy urls, TenantSigners signers, Clock clock, Runnable wake) {
        this.outbox = outbox;
        this.urls = urls;
        this.signers = signers;
        this.clock = clock;
        this.wake = wake;
    }

    /** Why a dispatch or group of {@code tenant} may not name this callback URL, or empty when it may. */
    public Optional<String> refuse(String tenant, String url) {
        if (!signers.serves(tenant)) {
            return Optional.of("cannot be used: no callback signing secret serves this tenant "
                    + "(sluice.tenants." + tenant + ".signing-secrets, or the worker's "
                    + CallbackConfig.SIGNING_SECRETS + ")");
        }
        return urls.problem(tenant, url);
    }

    public Optional<CallbackStore.State> state(String dispatchId) {
        return outbox.state(dispatchId);
    }

    public Map<String, CallbackStore.State> states(Collection<String> dispatchIds) {
        return outbox.states(dispatchIds);
    }

    /** Sends the stored result again, now, with the same webhook-id and body. */
    public void redeliver(Dispatch dispatch) {
        if (dispatch.callbackUrl() == null) {
            throw new CallbackRefused("dispatch " + DispatchKey.idOf(dispatch.id()) + " has no callback URL");
        }
        if (!dispatch.status().terminal()) {
            throw new CallbackRefused("dispatch " + DispatchKey.idOf(dispatch.id())
                    + " has no result yet; it is delivered when it finishes");
        }
        if (!outbox.redeliver(dispatch.id(), clock.instant())) {
            throw new CallbackRefused("dispatch " + DispatchKey.idOf(dispatch.id()) + " has no delivery to repeat");
        }
        wake.run();
    }
}
