package dev.sluice.worker;

import java.net.URI;
import java.time.Clock;
import java.util.Optional;

import dev.sluice.store.Jdbc;

/**
 * The other replicas on the store, as their rows in {@code workers} describe
 * them (ADR 0065): whether one is live (its lease has not lapsed) and where it
 * advertises its API. The only source of addresses a relayed read may go to.
 * On the embedded store there are no other replicas: every look-up is empty.
 */
public class Peers {

    /** What the store says of a worker. */
    public sealed interface Peer {

        /** Its lease holds, and it answers at {@code address}. */
        record Live(String id, URI address) implements Peer {}

        /** Its lease holds, but it advertises no address (a release before ADR 0065). */
        record Silent(String id) implements Peer {}

        /** No row, or its lease lapsed: what it ran on its engine and disk is out of reach. */
        record Gone(String id) implements Peer {}
    }

    private final Jdbc jdbc;
    private final Clock clock;
    private final boolean shared;

    /** @param shared whether other replicas may use this store (PostgreSQL); false for the embedded one */
    public Peers(Jdbc jdbc, Clock clock, boolean shared) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.shared = shared;
    }

    /** Whether a dispatch may be run by another worker than this one at all. */
    public boolean shared() {
        return shared;
    }

    /** The worker {@code id} as the store sees it now; empty on the embedded store. */
    public Optional<Peer> find(String id) {
        if (!shared) {
            return Optional.empty();
        }
        Optional<Peer> found = jdbc.one(
                "SELECT advertised_url FROM workers WHERE id = ? AND lease_until > ?",
                row -> peer(id, row.string("advertised_url")),
                id,
                clock.instant());
        return Optional.of(found.orElse(new Peer.Gone(id)));
    }

    private static Peer peer(String id, String address) {
        if (address == null) {
            return new Peer.Silent(id);
        }
        try {
            return new Peer.Live(id, Addresses.checked(URI.create(address)));
        } catch (IllegalArgumentException e) { // a row no release of ours writes: not to be followed
            return new Peer.Silent(id);
        }
    }
}
