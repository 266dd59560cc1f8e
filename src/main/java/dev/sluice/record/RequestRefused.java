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
        /** The caller's tenant runs and has queued as much as its limits allow (ADR 0057). */
        TENANT_AT_CAPACITY,
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
        TOO_MANY_LOG_READS,
        /** The caller's tenant, or the worker, has as many MCP waits held as its bound allows (ADR 0073). */
        TOO_MANY_WAITS,
        /** The caller's tenant, or the worker, has as many reads relayed to other replicas as allowed (ADR 0073). */
        TOO_MANY_RELAYED_READS,
        /** The caller's tenant, or the worker, keeps as many workspace bytes as allowed (ADR 0073). */
        WORKSPACES_FULL
    }

    private final Reason reason;

    public RequestRefused(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    /**
     * No dispatch has this key. The message names the id its tenant knows, so
     * that a name of another tenant's dispatch is told exactly what an unknown one is.
     */
    static RequestRefused notFound(String key) {
        return notFoundByName(DispatchKey.idOf(key));
    }

    /** No dispatch by the name a client gave. */
    public static RequestRefused notFoundByName(String name) {
        return new RequestRefused(Reason.NOT_FOUND, "no dispatch " + name);
    }

    public static RequestRefused storeUnavailable() {
        return new RequestRefused(Reason.STORE_UNAVAILABLE, "the dispatch store is not reachable");
    }
}
