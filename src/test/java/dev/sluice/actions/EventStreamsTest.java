package dev.sluice.actions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.sluice.events.EventHub;
import dev.sluice.events.EventsConfig;
import dev.sluice.testsupport.OpenSink;
import io.quarkus.runtime.configuration.MemorySize;

/**
 * The streams a door opens through actions are bounded as the events feature
 * counts them, and refused as the API says (docs/api.md, section 2.12): 429
 * {@code too-many-streams} with {@code Retry-After}, naming the bound reached.
 */
class EventStreamsTest {

    /** Three streams on the worker, two per tenant. */
    private final EventStreams streams =
            new EventStreams(new EventHub(settings(3, 2), null), 3, Duration.ofMillis(2500));

    @Test
    void aTenantPastItsShareIsRefusedWithTheTenantsBound() {
        Caller alpha = new Caller("alpha", false);
        streams.followAll(alpha, null, new OpenSink());
        streams.followAll(alpha, null, new OpenSink());

        ProblemException refused =
                catchThrowableOfType(ProblemException.class, () -> streams.followAll(alpha, null, new OpenSink()));

        assertThat(refused.problem().status()).isEqualTo(429);
        assertThat(refused.problem().type()).isEqualTo("urn:problem-type:sluice:too-many-streams");
        assertThat(refused.problem().title()).isEqualTo("Too many event streams");
        assertThat(refused.problem().detail())
                .isEqualTo("as many event streams of this tenant are open as"
                        + " sluice.events.max-subscribers-per-tenant allows; try again later");
        assertThat(refused.headers()).containsExactlyEntriesOf(Map.of("Retry-After", "2"));
    }

    @Test
    void aStreamPastTheWorkersBoundIsRefusedWithTheWorkersBound() {
        streams.followAll(new Caller("alpha", false), null, new OpenSink());
        streams.followAll(new Caller("beta", false), null, new OpenSink());
        streams.followAll(new Caller("gamma", false), null, new OpenSink());

        ProblemException refused = catchThrowableOfType(
                ProblemException.class, () -> streams.followAll(new Caller("delta", false), null, new OpenSink()));

        assertThat(refused.problem().status()).isEqualTo(429);
        assertThat(refused.problem().detail())
                .isEqualTo("the worker has as many event streams open as sluice.events.max-subscribers allows;"
                        + " try again later");
        assertThat(refused.headers()).containsEntry("Retry-After", "2");
        assertThat(streams.full().problem()).isEqualTo(refused.problem());
        assertThat(streams.maxStreams()).isEqualTo(3);
    }

    private static EventsConfig settings(int max, int perTenant) {
        return new EventsConfig() {
            @Override
            public MemorySize maxRate() {
                return new MemorySize(BigInteger.valueOf(1 << 20));
            }

            @Override
            public MemorySize subscriberBuffer() {
                return new MemorySize(BigInteger.valueOf(1 << 16));
            }

            @Override
            public int maxSubscribers() {
                return max;
            }

            @Override
            public int maxSubscribersPerTenant() {
                return perTenant;
            }

            @Override
            public Duration flushInterval() {
                return Duration.ofSeconds(1);
            }
        };
    }
}
