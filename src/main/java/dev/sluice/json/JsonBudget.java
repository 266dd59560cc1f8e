package dev.sluice.json;

import java.util.List;
import java.util.function.IntToLongFunction;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * The bytes a JSON body may take, and the one way a body is made to fit them.
 * A policy says what its body is and in which order it gives things up; the
 * budget writes the body, measures what was written (an estimate decides only
 * where a cut starts), and asks for the next thing only while the body is
 * still over. Whatever a policy gives up it marks in the body it writes next
 * (an entry in {@code reductions}, a note in {@code omitted}, a mark at the
 * end of a text), so the mark counts against the budget like the rest.
 */
public final class JsonBudget {

    private final long max;

    public JsonBudget(long maxBytes) {
        this.max = maxBytes;
    }

    public long max() {
        return max;
    }

    public boolean fits(long size) {
        return size <= max;
    }

    /** This budget with {@code room} kept for what is added later. */
    public JsonBudget less(long room) {
        return new JsonBudget(max - room);
    }

    /** One thing a policy gives up, taken again while the body is over. */
    @FunctionalInterface
    public interface Reduction {

        /** Makes the next body smaller by at least about {@code over} bytes; false when nothing is left to take. */
        boolean take(long over);
    }

    /**
     * The body {@code write} writes, made smaller by the reductions in their
     * order, each taken for as long as the body is over and it takes
     * something: the last body written, over the budget only when every
     * reduction ran out.
     */
    public <T> T fit(Supplier<T> write, ToLongFunction<T> size, List<Reduction> order) {
        T body = write.get();
        long over = size.applyAsLong(body) - max;
        for (Reduction reduction : order) {
            while (over > 0 && reduction.take(over)) {
                body = write.get();
                over = size.applyAsLong(body) - max;
            }
        }
        return body;
    }

    /** How many of {@code count} items fit, dropped from the end: 0 when not even the body without them does. */
    public int most(int count, IntToLongFunction size) {
        int kept = count;
        while (kept > 0 && !fits(size.applyAsLong(kept))) {
            kept--;
        }
        return kept;
    }

    /** The first of the {@code forms} that fits, or null when none does. */
    public <T> T first(List<Supplier<T>> forms, ToLongFunction<T> size) {
        for (Supplier<T> form : forms) {
            T body = form.get();
            if (fits(size.applyAsLong(body))) {
                return body;
            }
        }
        return null;
    }

    /**
     * The longest start of {@code text}, at most {@code maxChars} characters
     * and ending with {@code mark} when cut, with which the body's
     * {@code size} fits; empty when not even the mark does. Found by halving,
     * each candidate measured as written, since a generator may escape what
     * an estimate would not.
     */
    public String longest(String text, int maxChars, String mark, ToLongFunction<String> size) {
        String clean = TextCut.wellFormed(text);
        int total = clean.codePointCount(0, clean.length());
        if (total <= maxChars && fits(size.applyAsLong(clean))) {
            return clean;
        }
        int low = 0; // characters kept before the mark
        int high = Math.min(total - 1, maxChars - mark.codePointCount(0, mark.length()));
        String best = "";
        while (low <= high) {
            int mid = (low + high) >>> 1;
            String candidate = clean.substring(0, clean.offsetByCodePoints(0, mid)) + mark;
            if (fits(size.applyAsLong(candidate))) {
                best = candidate;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return best;
    }
}
