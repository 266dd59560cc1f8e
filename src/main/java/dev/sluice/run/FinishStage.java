package dev.sluice.run;

import java.time.Clock;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.sluice.output.CapturedOutput;
import dev.sluice.output.SecretMasker;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.Ending;
import dev.sluice.record.SecretVault;

/**
 * The runner's last stage: builds the result of a run, from what was
 * collected or from why it could not run, and ends the dispatch with it
 * through the {@link Finisher}, the one way every flow ends a dispatch (it
 * stores the result with its outbox row and announces it). Error messages are
 * masked here, since an engine's message may quote what the dispatch gave it.
 */
@ApplicationScoped
class FinishStage {

    /** The runner's lines keep the runner's name, as before it was split into stages. */
    private static final Logger LOG = Logger.getLogger(DispatchRunner.class);

    private final Finisher finisher;
    private final FinishingBudget budget;
    private final JsonDocuments documents;
    private final AgentReports reports;
    private final SecretVault vault;
    private final Clock clock;

    @Inject
    FinishStage(
            Finisher finisher,
            FinishingBudget budget,
            JsonDocuments documents,
            AgentReports reports,
            SecretVault vault,
            Clock clock) {
        this.finisher = finisher;
        this.budget = budget;
        this.documents = documents;
        this.reports = reports;
        this.vault = vault;
        this.clock = clock;
    }

    /**
     * Builds the result from what was captured, and the agent's report, and
     * ends the dispatch with it, within the memory budget for results being
     * finished: the bounded texts, the result's JSON and its stored copy exist
     * only for this moment, and fifty dispatches that end together must not
     * need them all at once. The report file and the artifacts were read
     * before, outside the budget: they wait on the engine, and are bounded on
     * their own. A stream asked for as json is finished from the runtime's
     * log, within the budget ({@link JsonDocuments}).
     */
    void captured(CollectStage.Collected collected) {
        CollectStage.Ran ran = collected.ran();
        String id = ran.id();
        DispatchSpec spec = ran.spec();
        Capture capture = ran.capture();
        SecretMasker masker = vault.maskerFor(id);
        DispatchResult.AvailableFrom availableFrom = collected.availableFrom();
        CollectStage.Exit exit = collected.exit();
        long memory = capture.bytesHeld() * FinishingBudget.COPIES + documents.memory(spec, capture);
        budget.within(memory, () -> {
            CapturedOutput stdout = documents.finish(
                    capture.finishStdout(availableFrom), spec, true, ran.containerId(), capture.nonce(), masker);
            CapturedOutput stderr = documents.finish(
                    capture.finishStderr(availableFrom), spec, false, ran.containerId(), capture.nonce(), masker);
            return finisher.finish(Ending.of(id, spec)
                    .ended(exit.status(), exit.code(), exit.error())
                    .ran(ran.startedAt(), ran.finishedAt())
                    .under(
                            collected.exited() == null
                                    ? null
                                    : collected.exited().runtime())
                    .output(new Ending.Output(stdout, stderr, availableFrom, ran.recovered(), capture.nonce()))
                    .handover(reports.reading(collected.reportFile(), stdout.text(), masker), collected.kept())
                    .build()
                    .withImageDigest(ran.imageDigest()));
        });
    }

    /** Ends a dispatch that never ran as an error, of the image with {@code imageDigest} (null when none). */
    void withError(String id, DispatchSpec spec, DispatchResult.Error error, String imageDigest) {
        finisher.finish(withoutOutput(id, spec, error).withImageDigest(imageDigest));
    }

    /** Ends a dispatch stopped before its container started, with its stop's status. */
    void stopped(String id, DispatchSpec spec, Execution.StopReason stop) {
        finisher.finish(Ending.withoutOutput(id, spec, stop.status, null, clock.instant()));
    }

    /** Ends a dispatch as an error, logging rather than throwing when even that cannot be stored. */
    void withErrorQuietly(String id, DispatchSpec spec, DispatchResult.Error error) {
        Ending ending = withoutOutput(id, spec, error);
        try {
            finisher.finish(ending);
        } catch (RuntimeException e) {
            LOG.errorf(
                    "could not store its error result: %s",
                    vault.maskerFor(ending.id()).mask(e.getMessage()));
        }
    }

    /** Ends a dispatch the worker failed unexpectedly. */
    void failed(String id, DispatchSpec spec, RuntimeException e) {
        LOG.error("unexpected failure", vault.maskerFor(id).mask(e));
        withErrorQuietly(id, spec, Errors.WORKER_ERROR);
    }

    /** An error result; its message masked, since an engine's message may quote what the dispatch gave it. */
    private Ending withoutOutput(String id, DispatchSpec spec, DispatchResult.Error error) {
        DispatchResult.Error masked =
                new DispatchResult.Error(error.code(), vault.maskerFor(id).mask(error.message()));
        return Ending.withoutOutput(id, spec, Dispatch.Status.ERROR, masked, clock.instant());
    }
}
