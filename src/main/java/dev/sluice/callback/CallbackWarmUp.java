package dev.sluice.callback;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Threads;
import dev.sluice.concurrent.WarmUp;
import dev.sluice.outbound.AddressPolicy;
import dev.sluice.outbound.GuardedDnsResolver;
import dev.sluice.record.DispatchKey;
import dev.sluice.store.Jdbc;

/**
 * A delivery's way, taken once after start without sending anything: the
 * delivery state of a dispatch that does not exist, a body signed as every
 * attempt signs it, and a POST through a client of the same make whose
 * resolver refuses every address, so it stops before any connection is tried.
 */
@Singleton
class CallbackWarmUp {

    private static final byte[] BODY =
            "{\"dispatchId\":\"warm-up\",\"status\":\"succeeded\"}".getBytes(StandardCharsets.UTF_8);
    /** A documentation address (RFC 5737) that a policy allowing nothing refuses. */
    private static final URI NOWHERE = URI.create("http://192.0.2.1/warm-up");

    @Inject
    Jdbc jdbc;

    @Inject
    TenantSigners signers;

    @Inject
    Clock clock;

    void warmUp(@ObservesAsync @Priority(WarmUp.CALLBACK) WarmUp warmUp) {
        warmUp.step("callback", () -> {
            String id = warmUp.unknownId();
            CallbackStore outbox = new CallbackStore(jdbc.bounded(warmUp.timeLeft()), clock::instant);
            if (outbox.state(id).isPresent()) {
                throw new IllegalStateException("a delivery of a dispatch that cannot exist was found");
            }
            long timestamp = clock.instant().getEpochSecond();
            WebhookSigner signer = signers.of(DispatchKey.DEFAULT_TENANT);
            Map<String, String> headers = Map.of(
                    "webhook-id", CallbackStore.webhookId(id),
                    "webhook-timestamp", Long.toString(timestamp),
                    "webhook-signature",
                            signer.canSign() ? signer.sign(CallbackStore.webhookId(id), timestamp, BODY) : "");
            CallbackClient.Attempt attempt = postNowhere(headers);
            if (attempt.failure() != CallbackClient.Failure.REFUSED_ADDRESS) {
                throw new IllegalStateException("a POST to " + NOWHERE + " was not refused: " + attempt);
            }
        });
    }

    private static CallbackClient.Attempt postNowhere(Map<String, String> headers) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(Threads.named("callback-warm-up-"));
        GuardedDnsResolver refusing = new GuardedDnsResolver(new AddressPolicy(List.of()), host -> {
            throw new UnknownHostException(host);
        });
        Duration second = Duration.ofSeconds(1);
        try (CallbackClient client = new CallbackClient(refusing, second, second, 1, 1, timer)) {
            return client.post(
                    NOWHERE,
                    headers,
                    new CallbackClient.Body(BODY.length, () -> new ByteArrayInputStream(BODY), false));
        } catch (IOException e) {
            throw new IllegalStateException("closing the warm-up's client: " + e.getMessage());
        } finally {
            timer.shutdownNow();
        }
    }
}
