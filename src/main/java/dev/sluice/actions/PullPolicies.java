package dev.sluice.actions;

import java.util.Arrays;
import java.util.List;

import dev.sluice.record.PullPolicy;

/** A request's {@code imagePullPolicy}, narrowed within the operator's {@code sluice.images.pull-policy}. */
final class PullPolicies {

    private PullPolicies() {}

    /**
     * The policy a dispatch runs by: the one asked for, when it is one and the
     * operator allows it; the operator's when none is asked for. Otherwise
     * {@code null}, with the field named in {@code errors} (a 422).
     */
    static PullPolicy narrowed(String asked, PullPolicy operator, List<Problem.FieldError> errors) {
        if (asked == null) {
            return operator;
        }
        PullPolicy policy = PullPolicy.fromWire(asked).orElse(null);
        if (policy == null) {
            errors.add(Problem.FieldError.of(
                    "imagePullPolicy",
                    "must be one of "
                            + Arrays.stream(PullPolicy.values())
                                    .map(PullPolicy::wire)
                                    .toList()));
            return null;
        }
        if (!policy.within(operator)) {
            errors.add(Problem.FieldError.of(
                    "imagePullPolicy",
                    "asks for more than this worker allows: sluice.images.pull-policy is " + operator.wire()
                            + ", and a dispatch may only narrow it"));
            return null;
        }
        return policy;
    }
}
