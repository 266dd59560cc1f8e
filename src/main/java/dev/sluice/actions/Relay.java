package dev.sluice.actions;

import java.util.HashMap;
import java.util.Map;

/**
 * What a door passes on when a read is relayed to the replica running the
 * dispatch (ADR 0065): the headers the read takes, and never the caller's
 * credentials; the replicas sign the read themselves, for the dispatch's
 * tenant (ADR 0072). {@code forwarded} marks a request that is itself a
 * relay, signed by another replica: it is answered here, never relayed again.
 *
 * @param range       its {@code Range} header (artifacts), or null
 * @param lastEventId its {@code Last-Event-ID} header (event streams), or null
 * @param forwarded   whether another replica sent it
 */
public record Relay(String range, String lastEventId, boolean forwarded) {

    /** A read that is never relayed: answered from what this worker holds, as before ADR 0065. */
    public static final Relay NONE = new Relay(null, null, true);

    /** A read a client asked this worker for, to relay if another replica runs its dispatch. */
    public static final Relay ASKED = new Relay(null, null, false);

    Map<String, String> headers() {
        Map<String, String> headers = new HashMap<>();
        headers.put("Range", range);
        headers.put("Last-Event-ID", lastEventId);
        return headers;
    }

    /** The same relay resuming an event stream after the state with this id. */
    public Relay after(String eventId) {
        return new Relay(range, eventId, forwarded);
    }
}
