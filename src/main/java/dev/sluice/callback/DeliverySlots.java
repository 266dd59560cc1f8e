package dev.sluice.callback;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

import dev.sluice.concurrent.SharedPool;

/**
 * The callback senders' slots (ADR 0073): {@code sluice.callback.max-concurrent}
 * deliveries at once, at most {@code max-concurrent-per-tenant} of one
 * tenant's, and at most {@code max-per-host} of one tenant's to one receiving
 * address. The address is the one the attempt connects to, after its name was
 * resolved and checked: many names for one address share its limit, and one
 * tenant's slow receiver never holds a slot another tenant needs. A delivery
 * that finds no slot waits in the outbox for a later round.
 */
final class DeliverySlots {

    private final SharedPool tenants;
    private final int perAddress;
    private final Map<String, Integer> addresses = new HashMap<>();

    DeliverySlots(int total, int perTenant, int perAddress) {
        this.tenants = new SharedPool(total, perTenant);
        this.perAddress = perAddress;
    }

    /** Slots free now, every tenant's together. */
    int free() {
        return (int) (tenants.total() - tenants.inUse());
    }

    /** Slots {@code tenant} could take now. */
    long room(String tenant) {
        return tenants.room(tenant);
    }

    /** A sender's slot for one delivery of {@code tenant}'s; false when its share or the total is taken. */
    boolean take(String tenant) {
        return tenants.take(tenant, 1) == SharedPool.Taken.TAKEN;
    }

    void give(String tenant) {
        tenants.give(tenant, 1);
    }

    /** One of {@code tenant}'s slots at {@code address}; false when it holds {@code max-per-host} there. */
    synchronized boolean takeAddress(String tenant, InetSocketAddress address) {
        String key = key(tenant, address);
        int held = addresses.getOrDefault(key, 0);
        if (held >= perAddress) {
            return false;
        }
        addresses.put(key, held + 1);
        return true;
    }

    synchronized void giveAddress(String tenant, InetSocketAddress address) {
        addresses.computeIfPresent(key(tenant, address), (k, held) -> held <= 1 ? null : held - 1);
    }

    /** Addresses some tenant holds a slot at now; none is remembered once its last attempt ends. */
    synchronized int addressesHeld() {
        return addresses.size();
    }

    private static String key(String tenant, InetSocketAddress address) {
        return tenant + " " + address.getAddress().getHostAddress() + " " + address.getPort();
    }
}
