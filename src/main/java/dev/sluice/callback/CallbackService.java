package dev.sluice.callback;

import java.time.Clock;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;

/** What the API asks of callbacks: the delivery state of results, and redelivery. */
public class CallbackService {

    private final CallbackStore outbox;
    private final CallbackUrlPolicy urls;
    private final WebhookSigner signer;
    private final Clock clock;
    private final Runnable wake;

    CallbackService(CallbackStore outbox, CallbackUrlPolicy urls, WebhookSigner signer, Clock clock, Runnable wake) {
        this.outbox = outbox;
        this.urls = urls;
        this.signer = signer;
        this.clock = clock;
        this.wake = wake;
    }

    /** Why a dispatch may not name this callback URL, or empty when it may. */
    public Optional<String> refuse(String url) {
        if (!signer.canSign()) {
            return Optional.of(
                    "cannot be used: this worker has no callback signing secret (sluice.callback.signing-secrets)");
        }
        return urls.problem(url);
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
