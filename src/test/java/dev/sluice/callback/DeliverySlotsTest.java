package dev.sluice.callback;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.junit.jupiter.api.Test;

/**
 * The callback senders' slots (ADR 0073): the worker's total, a tenant's
 * share of it, and a tenant's slots at one address, keyed by the address and
 * port connected to.
 */
class DeliverySlotsTest {

    private final DeliverySlots slots = new DeliverySlots(4, 2, 1);

    @Test
    void aTenantTakesItsShareOfTheSendersAndNoMore() {
        assertThat(slots.take("noisy")).isTrue();
        assertThat(slots.take("noisy")).isTrue();
        assertThat(slots.take("noisy")).isFalse();
        assertThat(slots.room("noisy")).isZero();
        assertThat(slots.room("quiet")).isEqualTo(2);
        assertThat(slots.free()).isEqualTo(2);

        slots.give("noisy");
        assertThat(slots.room("noisy")).isEqualTo(1);
        assertThat(slots.free()).isEqualTo(3);
    }

    @Test
    void anAddressIsOneLimitPerTenantWhateverNameReachedIt() throws Exception {
        InetSocketAddress byOneName =
                new InetSocketAddress(InetAddress.getByAddress("one.test", new byte[] {10, 0, 0, 5}), 443);
        InetSocketAddress byAnother =
                new InetSocketAddress(InetAddress.getByAddress("two.test", new byte[] {10, 0, 0, 5}), 443);
        InetSocketAddress otherPort = new InetSocketAddress(InetAddress.getByAddress(new byte[] {10, 0, 0, 5}), 8443);

        assertThat(slots.takeAddress("noisy", byOneName)).isTrue();
        assertThat(slots.takeAddress("noisy", byAnother)).isFalse();
        assertThat(slots.takeAddress("noisy", otherPort)).isTrue();
        assertThat(slots.takeAddress("quiet", byAnother))
                .as("another tenant's own limit")
                .isTrue();

        slots.giveAddress("noisy", byAnother);
        assertThat(slots.takeAddress("noisy", byOneName)).isTrue();
        slots.giveAddress("noisy", byOneName);
        slots.giveAddress("noisy", otherPort);
        slots.giveAddress("quiet", byOneName);
        assertThat(slots.addressesHeld())
                .as("nothing is kept for an address no attempt holds")
                .isZero();
    }
}
