package dev.sluice.record;

/**
 * A request the worker cannot honour. The message is fixed text meant for the
 * client: it never carries a secret, a stack trace or a class name. The REST
 * edge maps the reason to a status and a problem type.
 */
public final class RequestRefused extends RuntimeException {

    public enum Reason {
        NOT_FOUND,
        ID_CONFLICT,
        IMAGE_NOT_ALLOWED,
        AT_CAPACITY,
        ENGINE_UNAVAILABLE,
        SHUTTING_DOWN,
        STORE_UNAVAILABLE,
        LOG_GONE,
        LOG_UNMASKABLE,
        LOG_START_UNKNOWN,
        INVALID_CURSOR,
        ARTIFACT_NOT_FOUND,
        ARTIFACT_GONE,
        ARTIFACT_ELSEWHERE,
        TOO_MANY_LOG_READS
    }

    private final Reason reason;

    public RequestRefused(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    static RequestRefused notFound(String id) {
        return new RequestRefused(Reason.NOT_FOUND, "no dispatch " + id);
    }

    public static RequestRefused storeUnavailable() {
        return new RequestRefused(Reason.STORE_UNAVAILABLE, "the dispatch store is not reachable");
    }
}
