package dev.sluice.events;

import java.nio.charset.StandardCharsets;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;

/**
 * A state a dispatch reached, as its stream shows it: event {@code state},
 * whose id is the state's rank (queued 1, starting 2, running 3, the end 4),
 * so a client that resumes with {@code Last-Event-ID} is shown only what
 * comes after what it saw; the end carries the dispatch's digest.
 *
 * @param digest the digest's JSON, for the end only ({@code null} before, or when it could not be read)
 */
record StateEvent(String dispatchId, Dispatch.Status status, byte[] digest) {

    /** The rank of the end: every terminal status has it. */
    static final int END = 4;

    int rank() {
        return switch (status) {
            case QUEUED -> 1;
            case STARTING -> 2;
            case RUNNING -> 3;
            default -> END;
        };
    }

    boolean terminal() {
        return status.terminal();
    }

    /** The event; {@code withId} for a stream of one dispatch, which can be resumed. */
    EventMessage message(boolean withId) {
        StringBuilder data = new StringBuilder(96)
                .append("{\"id\":")
                .append(Json.string(DispatchKey.idOf(dispatchId)))
                .append(",\"status\":\"")
                .append(status.wire())
                .append('"');
        if (terminal()) {
            data.append(",\"digest\":").append(digest == null ? "null" : new String(digest, StandardCharsets.UTF_8));
        }
        return new EventMessage(
                "state",
                withId ? Integer.toString(rank()) : null,
                data.append('}').toString());
    }
}
