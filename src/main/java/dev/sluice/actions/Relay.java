package dev.sluice.actions;

import java.util.HashMap;
import java.util.Map;

/**
 * What a door passes on when a read is relayed to the replica running the
 * dispatch (ADR 0065): the caller's own credentials, so that replica applies
 * the same tenant check, and the headers the read takes. {@code forwarded}
 * marks a request that is itself a relay: it is answered here, never relayed
 * again. The credentials never appear in {@link #toString()}.
 *
 * @param authorization the request's {@code Authorization} header, or null
 * @param range         its {@code Range} header (artifacts), or null
 * @param lastEventId   its {@code Last-Event-ID} header (event streams), or null
 * @param forwarded     whether another replica sent it
 */
public record Relay(String authorization, String range, String lastEventId, boolean forwarded) {

    /** A read that is never relayed: answered from what this worker holds, as before ADR 0065. */
    public static final Relay NONE = new Relay(null, null, null, true);

    /** A read a client asked this worker for with these credentials (its {@code Authorization}), to relay as is. */
    public static Relay asked(String authorization) {
        return new Relay(authorization, null, null, false);
    }

    Map<String, String> headers() {
        Map<String, String> headers = new HashMap<>();
        headers.put("Authorization", authorization);
        headers.put("Range", range);
        headers.put("Last-Event-ID", lastEventId);
        return headers;
    }

    /** The same relay resuming an event stream after the state with this id. */
    public Relay after(String eventId) {
        return new Relay(authorization, range, eventId, forwarded);
    }

    @Override
    public String toString() {
        return "Relay[forwarded=" + forwarded + "]";
    }
}
