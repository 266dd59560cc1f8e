package dev.sluice.health;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.eclipse.microprofile.health.Startup;

import dev.sluice.store.Database;
import dev.sluice.worker.Reconciliation;
import dev.sluice.worker.Worker;

/**
 * Started once the store is migrated (the worker does not start otherwise) and
 * reconciliation has taken up what a previous instance of this worker left
 * (ADR 0067): until then a dispatch of that instance may be neither queued nor
 * followed. Readiness includes it, for load balancers that read only readiness.
 * While DOWN, {@code waitingFor} says what for, {@code problem} why the last
 * pass failed (the next one tries again).
 */
@Startup
@Readiness
@Singleton
public class StartedCheck implements HealthCheck {

    @Inject
    Database database;

    @Inject
    Reconciliation reconciliation;

    @Inject
    Worker worker;

    @Override
    public HealthCheckResponse call() {
        Reconciliation.Progress progress = reconciliation.progress();
        var response = HealthCheckResponse.named("started")
                .status(progress.done())
                .withData("store", database.kind())
                .withData("reconciliation", state(progress))
                .withData("attempts", progress.attempts());
        if (!progress.done()) {
            response.withData(
                    "waitingFor", "reconciliation of what a previous instance of worker " + worker.id() + " left");
        }
        if (progress.problem() != null) {
            response.withData("problem", progress.problem());
        }
        return response.build();
    }

    private static String state(Reconciliation.Progress progress) {
        if (progress.done()) {
            return "done";
        }
        if (progress.running()) {
            return "running";
        }
        return progress.problem() == null ? "not begun" : "failed, tried again at the next pass";
    }
}
