package dev.sluice.run;

import java.time.Clock;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.Threads;
import dev.sluice.container.ContainerLogs;
import dev.sluice.container.ContainerReaper;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ContainerStopper;
import dev.sluice.container.engine.EngineMonitor;
import dev.sluice.container.sandbox.ContainerConfig;
import dev.sluice.image.ImagePolicy;
import dev.sluice.output.OutputLimits;
import dev.sluice.record.DispatchAccepted;
import dev.sluice.record.DispatchConfig;
import dev.sluice.record.DispatchFinished;
import dev.sluice.record.DispatchQueue;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.DispatchTransitions;
import dev.sluice.record.Outbox;
import dev.sluice.record.ResultBudget;
import dev.sluice.record.SecretVault;
import dev.sluice.report.ReportConfig;
import dev.sluice.store.Jdbc;
import dev.sluice.store.StoreIdentity;
import dev.sluice.summary.Summarizer;
import dev.sluice.trace.Tracing;
import dev.sluice.worker.Drain;
import dev.sluice.worker.Worker;
import dev.sluice.worker.WorkerConfig;
import io.smallrye.common.annotation.Identifier;

class RunProducer {

    /** One thread per running dispatch: it reads the stream and waits for the exit. */
    @Produces
    @Singleton
    @Identifier("dispatch-workers")
    ExecutorService workers() {
        return Executors.newCachedThreadPool(Threads.named("dispatch-"));
    }

    /** Timeouts, grace periods and other short timed tasks. */
    @Produces
    @Singleton
    @Identifier("dispatch-timer")
    ScheduledExecutorService timer() {
        return Executors.newScheduledThreadPool(2, Threads.named("dispatch-timer-"));
    }

    void close(@Disposes @Identifier("dispatch-workers") ExecutorService workers) {
        workers.shutdownNow();
    }

    void close(@Disposes @Identifier("dispatch-timer") ScheduledExecutorService timer) {
        timer.shutdownNow();
    }

    @Produces
    @Singleton
    ContainerStopper stopper(
            ContainerRuntime runtime,
            @Identifier("dispatch-timer") ScheduledExecutorService timer,
            DispatchConfig config) {
        return new ContainerStopper(runtime, timer, config.stopGrace());
    }

    @Produces
    @Singleton
    Finisher finisher(
            DispatchTransitions transitions,
            Outbox outbox,
            Event<DispatchFinished> finished,
            ResultBudget budget,
            Summarizer summarizer,
            SecretVault vault,
            Tracing tracing) {
        return new Finisher(transitions, outbox, finished::fire, budget, new Summaries(summarizer, vault), tracing);
    }

    /** The report file is read up to {@code sluice.report.max-size}. */
    @Produces
    @Singleton
    AgentReports agentReports(ContainerRuntime runtime, ReportConfig config) {
        return new AgentReports(runtime, (int) config.maxSize().asLongValue());
    }

    @Produces
    @Singleton
    JsonDocuments jsonDocuments(ContainerLogs logs, OutputLimits limits) {
        return new JsonDocuments(logs, limits.maxJsonDocument());
    }

    @Produces
    @Singleton
    FinishingBudget finishingBudget(DispatchConfig config) {
        return new FinishingBudget(config.finishMemory().asLongValue());
    }

    /** The store's queue as this worker claims from it (ADR 0063). */
    @Produces
    @Singleton
    DispatchQueue queue(Jdbc jdbc, Worker worker) {
        return new DispatchQueue(jdbc, worker.id());
    }

    /** The drain is asked lazily: it watches this scheduler's dispatches in flight. */
    @Produces
    @Singleton
    DispatchScheduler scheduler(
            DispatchConfig config,
            TenantsConfig tenants,
            DispatchQueue queue,
            @Identifier("dispatch-workers") ExecutorService workers,
            DispatchRunner runner,
            EngineMonitor engine,
            Provider<Drain> drain,
            ContainerStopper stopper,
            @Identifier("dispatch-timer") ScheduledExecutorService timer,
            Clock clock,
            Event<QueueWait> waits) {
        return new DispatchScheduler(
                DispatchScheduler.Capacity.of(config, tenants),
                queue,
                workers,
                runner,
                engine::available,
                () -> drain.get().draining(),
                id -> new Execution(id, stopper::stop, timer),
                waits::fire,
                clock);
    }

    @Produces
    @Singleton
    DispatchIntake intake(
            DispatchStore store,
            DispatchScheduler scheduler,
            SecretVault vault,
            ImagePolicy images,
            EngineMonitor engine,
            Drain drain,
            Clock clock,
            Worker worker,
            Event<DispatchAccepted> accepted,
            Tracing tracing) {
        return new DispatchIntake(
                store,
                scheduler,
                vault,
                images,
                engine::available,
                drain::draining,
                clock,
                worker.id(),
                accepted::fire,
                tracing);
    }

    @Produces
    @Singleton
    ContainerReaper containerReaper(
            ContainerRuntime runtime,
            DispatchStore store,
            StoreIdentity identity,
            ContainerConfig containers,
            WorkerConfig worker) {
        return new ContainerReaper(
                runtime, store::endings, ContainerReaper.Retention.of(containers, worker.orphanGrace()), identity.id());
    }
}
