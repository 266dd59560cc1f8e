package dev.sluice.record;

import java.util.ArrayList;
import java.util.List;

/**
 * Which attempt of a dispatch runs, and how the earlier ones ended (ADR 0066):
 * a dispatch whose request allowed more than one attempt goes back to the
 * queue when its worker is lost while it runs, and its result says so.
 */
public record Attempts(int attempt, List<DispatchResult.EarlierAttempt> earlier) {

    /** A dispatch's first attempt, as every dispatch's is until its worker is lost. */
    public static final Attempts FIRST = new Attempts(1, List.of());

    public Attempts {
        earlier = earlier == null ? List.of() : List.copyOf(earlier);
    }

    /** The attempt after this one, which ended as {@code ended} says. */
    public Attempts next(DispatchResult.EarlierAttempt ended) {
        List<DispatchResult.EarlierAttempt> all = new ArrayList<>(earlier);
        all.add(ended);
        return new Attempts(attempt + 1, all);
    }
}
