package dev.sluice.actions;

import java.util.List;

/** Query parameters parsed by hand, so a bad one gets a 422 naming it rather than a bare 404. */
final class QueryParams {

    private QueryParams() {}

    static int intIn(String name, String value, int min, int max) {
        return (int) longIn(name, value, min, max);
    }

    static long longIn(String name, String value, long min, long max) {
        try {
            long n = Long.parseLong(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through to the problem below
        }
        throw ProblemException.invalid(
                List.of(Problem.FieldError.of(name, "must be an integer from " + min + " to " + max)));
    }
}
