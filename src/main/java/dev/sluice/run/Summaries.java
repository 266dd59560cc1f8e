package dev.sluice.run;

import java.nio.charset.StandardCharsets;

import org.jboss.logging.Logger;

import dev.sluice.output.SecretMasker;
import dev.sluice.record.Ending;
import dev.sluice.record.SecretVault;
import dev.sluice.report.ReportStatus;
import dev.sluice.summary.Summarizer;
import dev.sluice.summary.WorkerSummary;

/**
 * Adds a generated summary to an ending when a summarizer is configured and
 * the output needs one: a stream was truncated, or the agent wrote no report
 * (ADR 0034). The summary is masked like the rest of the result. One that
 * cannot be made leaves the ending as it was, with the reason in the log:
 * the dispatch ends as it would have, at most the summarizer's timeout later.
 */
final class Summaries {

    private static final Logger LOG = Logger.getLogger(Summaries.class);

    private final Summarizer summarizer;
    private final SecretVault vault;

    Summaries(Summarizer summarizer, SecretVault vault) {
        this.summarizer = summarizer;
        this.vault = vault;
    }

    Ending add(Ending ending) {
        if (!summarizer.enabled() || !wanted(ending)) {
            return ending;
        }
        Ending.Output printed = ending.output();
        Summarizer.Outcome outcome = summarizer.summarize(
                printed.stdout().text().toString(), printed.stderr().text().toString());
        if (outcome.summary() == null) {
            LOG.warnf("no worker summary: %s", outcome.failure());
            return ending;
        }
        WorkerSummary summary = outcome.summary();
        return ending.withSummary(new WorkerSummary(
                masked(summary.text(), vault.maskerFor(ending.id())),
                summary.model(),
                summary.generatedBy(),
                summary.inputBytes()));
    }

    private static boolean wanted(Ending ending) {
        Ending.Output printed = ending.output();
        boolean output =
                !printed.stdout().text().isEmpty() || !printed.stderr().text().isEmpty();
        boolean cutOrUnreported = printed.stdout().truncated()
                || printed.stderr().truncated()
                || ending.handover().report().status() == ReportStatus.MISSING;
        return output && cutOrUnreported;
    }

    /** The model saw masked output only, but may still print a secret's value it guessed or was given. */
    private static String masked(String text, SecretMasker masker) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        masker.mask(bytes, 0, bytes.length, true, true);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
