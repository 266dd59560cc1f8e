package dev.sluice.container.engine;

import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;

/**
 * A call to the engine that failed, classified so the dispatch can record a
 * stable error code. The message is the engine's own short text, never a
 * stack trace; it may name the image, never an environment value.
 */
public final class ContainerException extends RuntimeException {

    /** Why a call failed; {@link #code()} is what results and problem details show. */
    public enum Reason {
        IMAGE_NOT_FOUND("image_not_found"),
        /** The engine could not pull the image (ADR 0059); the message starts with the words of an {@code image.PullFailure}. */
        IMAGE_PULL_FAILED("image_pull_failed"),
        NOT_FOUND("container_not_found"),
        CONFLICT("container_conflict"),
        ENGINE_UNAVAILABLE("docker_unavailable"),
        RUNTIME_UNAVAILABLE("runtime_unavailable"),
        ENGINE_ERROR("docker_error");

        private final String code;

        Reason(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private final Reason reason;
    private final boolean timedOut;

    public ContainerException(Reason reason, String message) {
        this(reason, message, false);
    }

    private ContainerException(Reason reason, String message, boolean timedOut) {
        super(message, null, false, false);
        this.reason = reason;
        this.timedOut = timedOut;
    }

    public Reason reason() {
        return reason;
    }

    /**
     * True when the engine did not answer within the call's deadline (ADR
     * 0016); the reason is then {@code ENGINE_UNAVAILABLE}. The request was
     * sent, so the engine may still carry it out: a timed-out create must not
     * be repeated blindly.
     */
    public boolean timedOut() {
        return timedOut;
    }

    /** Whether the engine refused a create for naming a runtime it has not registered. */
    public static boolean unknownRuntime(RuntimeException e) {
        return e instanceof DockerException d
                && d.getHttpStatus() == 400
                && d.getMessage() != null
                && d.getMessage().contains("Unknown runtime specified");
    }

    /** A call that ran past its deadline, or {@code null} when {@code e} is something else. */
    private static ContainerException timeout(String call, Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof EngineTimeoutException timeout) {
                return new ContainerException(Reason.ENGINE_UNAVAILABLE, call + ": " + timeout.getMessage(), true);
            }
        }
        return null;
    }

    public static ContainerException from(String call, RuntimeException e) {
        if (e instanceof ContainerException ce) {
            return ce;
        }
        if (e instanceof NotFoundException) {
            return new ContainerException(Reason.NOT_FOUND, call + ": " + engineMessage(e));
        }
        if (e instanceof ConflictException) {
            return new ContainerException(Reason.CONFLICT, call + ": " + engineMessage(e));
        }
        ContainerException timeout = timeout(call, e);
        if (timeout != null) {
            return timeout;
        }
        if (e instanceof DockerException de) {
            return new ContainerException(
                    Reason.ENGINE_ERROR, call + ": engine answered " + de.getHttpStatus() + ": " + engineMessage(e));
        }
        // The transport wraps connection failures (refused, no socket, closed under us) in plain runtime exceptions.
        return new ContainerException(
                Reason.ENGINE_UNAVAILABLE, call + ": Docker engine unreachable (" + rootMessage(e) + ")");
    }

    public static ContainerException fromStatus(String call, int status, String body) {
        Reason reason = switch (status) {
            case 404 -> Reason.NOT_FOUND;
            case 409 -> Reason.CONFLICT;
            default -> Reason.ENGINE_ERROR;
        };
        return new ContainerException(reason, call + ": engine answered " + status + ": " + trim(body));
    }

    /** Docker's error bodies are {@code {"message":"..."}}; keep the message only. */
    public static String engineMessage(RuntimeException e) {
        String text = String.valueOf(e.getMessage());
        int start = text.indexOf("\"message\":\"");
        if (start >= 0) {
            int from = start + 11;
            int end = text.indexOf('"', from);
            return trim(end > from ? text.substring(from, end) : text.substring(from));
        }
        return trim(text);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return trim(message == null ? "no detail" : message);
    }

    private static String trim(String text) {
        String oneLine = text.strip().replaceAll("\\s+", " ");
        return oneLine.length() > 300 ? oneLine.substring(0, 300) + "..." : oneLine;
    }
}
