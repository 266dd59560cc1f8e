package dev.sluice.health;

import java.util.Optional;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

import dev.sluice.run.SchedulerWatch;
import dev.sluice.store.StoreMonitor;
import dev.sluice.worker.Worker;

/**
 * Alive while the worker answers HTTP and its dispatch scheduler is not
 * wedged ({@link SchedulerWatch}): a wedged scheduler starts nothing more, and
 * only a restart mends it. Independent of the engine and of PostgreSQL: a
 * restart fixes neither, and a restart loop would lose the dispatches this
 * worker is streaming. (An embedded store that stalled is the other
 * exception, {@link StoreStallCheck}.)
 */
@Liveness
@Singleton
public class WorkerLivenessCheck implements HealthCheck {

    @Inject
    Worker worker;

    @Inject
    SchedulerWatch scheduler;

    @Inject
    StoreMonitor store;

    @Override
    public HealthCheckResponse call() {
        Optional<String> wedged = scheduler.wedged(store.last().answering());
        var response = HealthCheckResponse.named("worker")
                .status(wedged.isEmpty())
                .withData("id", worker.id())
                .withData("scheduler", wedged.isEmpty() ? "not wedged" : "wedged");
        wedged.ifPresent(problem -> response.withData("problem", problem));
        return response.build();
    }
}
