package dev.sluice.summary;

/**
 * Makes a {@link WorkerSummary} of a dispatch's kept output (ADR 0034). An
 * implementation never throws and returns within its own deadline: a summary
 * that cannot be made is an outcome with the reason, never a failed dispatch.
 */
public interface Summarizer {

    /** The summarizer of a worker that has none configured. */
    Summarizer OFF = new Summarizer() {
        @Override
        public boolean enabled() {
            return false;
        }

        @Override
        public Outcome summarize(String stdout, String stderr) {
            return Outcome.failed("no summarizer is configured");
        }
    };

    boolean enabled();

    /** A summary of the two kept streams, or why there is none. */
    Outcome summarize(String stdout, String stderr);

    /** A summary, or the reason there is none (for the worker's log). */
    record Outcome(WorkerSummary summary, String failure) {

        public static Outcome of(WorkerSummary summary) {
            return new Outcome(summary, null);
        }

        public static Outcome failed(String why) {
            return new Outcome(null, why);
        }
    }
}
