package dev.sluice.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.Test;

/** A name's lookup answers within its deadline, or the name is taken as unknown. */
class SystemLookupTest {

    @Test
    void aResolverThatNeverAnswersLeavesTheNameUnknown() {
        CountDownLatch never = new CountDownLatch(1);
        assertThatThrownBy(() -> SystemLookup.within("slow.example", Duration.ofMillis(200), host -> {
                    try {
                        never.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt(); // cancelled past the deadline
                    }
                    return new InetAddress[0];
                }))
                .isInstanceOf(UnknownHostException.class)
                .hasMessageContaining("slow.example")
                .hasMessageContaining("no answer");
    }

    @Test
    void anAnswerOrAnUnknownNameComesThroughAsTheResolverGaveIt() throws Exception {
        InetAddress loopback = InetAddress.getByAddress("quick.example", new byte[] {127, 0, 0, 1});
        assertThat(SystemLookup.within("quick.example", Duration.ofSeconds(5), host -> new InetAddress[] {loopback}))
                .containsExactly(loopback);
        assertThatThrownBy(() -> SystemLookup.within("gone.example", Duration.ofSeconds(5), host -> {
                    throw new UnknownHostException(host);
                }))
                .isInstanceOf(UnknownHostException.class)
                .hasMessage("gone.example");
    }
}
