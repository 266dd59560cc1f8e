package dev.sluice.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.sluice.testsupport.ExpectedStream;

/**
 * Results' streams held to what their processes printed, counted: how many
 * were short, how many had another digest, how many claimed a completeness
 * they did not have (the failure), how many honestly said they lost bytes, and
 * the witness states the results reported. Thread-safe: the submitters of a
 * round add to one tally.
 */
final class OutputTally {

    private int results;
    private int exact;
    private int shortCount;
    private int wrong;
    private int claimedComplete;
    private int honestIncomplete;
    private long bytesMissing;
    private final Map<String, Integer> witness = new LinkedHashMap<>();
    private final List<String> claimed = new ArrayList<>();
    private final List<String> incomplete = new ArrayList<>();

    OutputTally() {
        for (String state : List.of("complete", "recovered", "incomplete", "unwitnessed")) {
            witness.put(state, 0);
        }
    }

    /** Adds one result's stream; {@code what} names it in the lists of results that were not exact. */
    synchronized ExpectedStream.Verdict add(String what, ExpectedStream.Verdict v) {
        results++;
        exact += v.isExact() ? 1 : 0;
        shortCount += v.isShort() ? 1 : 0;
        wrong += v.isWrong() ? 1 : 0;
        if (v.isShort()) {
            bytesMissing += v.expected().bytes() - v.bytes();
        }
        witness.merge(v.witnessState(), 1, Integer::sum);
        if (v.claimsCompletenessFalsely()) {
            claimedComplete++;
            claimed.add(what + " " + v.describe());
        } else if (v.honestlyIncomplete()) {
            honestIncomplete++;
            incomplete.add(what + " " + v.describe());
        }
        return v;
    }

    synchronized void addAll(OutputTally other) {
        synchronized (other) {
            results += other.results;
            exact += other.exact;
            shortCount += other.shortCount;
            wrong += other.wrong;
            claimedComplete += other.claimedComplete;
            honestIncomplete += other.honestIncomplete;
            bytesMissing += other.bytesMissing;
            other.witness.forEach((state, n) -> witness.merge(state, n, Integer::sum));
            claimed.addAll(other.claimed);
            incomplete.addAll(other.incomplete);
        }
    }

    synchronized int results() {
        return results;
    }

    synchronized int exact() {
        return exact;
    }

    /** Digest bytes fewer than the process printed. */
    synchronized int shortCount() {
        return shortCount;
    }

    /** Digest SHA-256 not the stream's (or no digest), or the text returned whole not the stream. */
    synchronized int wrong() {
        return wrong;
    }

    /** Short or wrong, or miscounted by its witness, without saying it lost bytes: what fails a run. */
    synchronized int claimedComplete() {
        return claimedComplete;
    }

    /** Short or wrong, and saying so ({@code output_incomplete}, or an {@code incomplete} witness). */
    synchronized int honestIncomplete() {
        return honestIncomplete;
    }

    /** Bytes the short results lack, together. */
    synchronized long bytesMissing() {
        return bytesMissing;
    }

    synchronized Map<String, Integer> witnessStates() {
        return new LinkedHashMap<>(witness);
    }

    /** The results that claimed a completeness they did not have, each described. */
    synchronized List<String> claimedList() {
        return List.copyOf(claimed);
    }

    /** The results that honestly said they lost bytes, each described. */
    synchronized List<String> incompleteList() {
        return List.copyOf(incomplete);
    }

    /** Witness states as {@code complete 48, recovered 2}, those with none counted as {@code absent (not checked)}. */
    synchronized String witnessSummary() {
        String states = witness.entrySet().stream()
                .filter(e -> e.getValue() > 0 && !e.getKey().equals(ExpectedStream.Verdict.NO_WITNESS))
                .map(e -> e.getKey() + " " + e.getValue())
                .collect(Collectors.joining(", "));
        int absent = witness.getOrDefault(ExpectedStream.Verdict.NO_WITNESS, 0);
        String none = absent > 0 ? "absent " + absent + " (not checked)" : "";
        return states.isEmpty() ? (none.isEmpty() ? "–" : none) : none.isEmpty() ? states : states + ", " + none;
    }

    /** The results worth a line of their own: every false claim, and every honest loss. */
    synchronized String details() {
        StringBuilder d = new StringBuilder();
        claimed.forEach(c ->
                d.append("- **claimed complete but short/wrong**: ").append(c).append('\n'));
        incomplete.forEach(c -> d.append("- incomplete (said so): ").append(c).append('\n'));
        return d.toString();
    }
}
