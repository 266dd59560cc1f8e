package dev.sluice.actions;

import java.util.List;
import java.util.Map;

/**
 * A request refused at the REST edge, carrying its problem detail and any
 * headers (Retry-After, WWW-Authenticate).
 */
public final class ProblemException extends RuntimeException {

    private final Problem problem;
    private final Map<String, String> headers;

    public ProblemException(
            int status,
            String type,
            String title,
            String detail,
            List<Problem.FieldError> errors,
            Map<String, String> headers) {
        super(detail, null, false, false);
        this.problem = new Problem(Problem.type(type), title, status, detail, null, errors);
        this.headers = headers;
    }

    /** A problem made elsewhere (the replica a read was relayed to, ADR 0065), passed on as it is. */
    public ProblemException(Problem problem, Map<String, String> headers) {
        super(problem.detail(), null, false, false);
        this.problem = problem;
        this.headers = headers;
    }

    public ProblemException(int status, String type, String title, String detail) {
        this(status, type, title, detail, null, Map.of());
    }

    public static ProblemException invalid(List<Problem.FieldError> errors) {
        return new ProblemException(
                422,
                "validation-failed",
                "The request is not valid",
                errors.size() == 1
                        ? errors.get(0).field() + ": " + errors.get(0).detail()
                        : errors.size() + " fields are not valid",
                errors,
                Map.of());
    }

    public Problem problem() {
        return problem;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
