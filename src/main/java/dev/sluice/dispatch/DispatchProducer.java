package dev.sluice.dispatch;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.sluice.container.ContainerConfig;
import dev.sluice.container.ContainerLogs;
import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.EngineMonitor;
import dev.sluice.container.LogRetention;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.common.annotation.Identifier;

class DispatchProducer {

    /** Millisecond ticks: what the store keeps, so a time read back equals the one written. */
    @Produces
    @Singleton
    Clock clock() {
        return Clock.tick(Clock.systemUTC(), Duration.ofMillis(1));
    }

    @Produces
    @Singleton
    Worker worker(WorkerConfig config) {
        return Worker.from(config);
    }

    @Produces
    @Singleton
    SecretVault secretVault() {
        return new SecretVault();
    }

    @Produces
    @Singleton
    ImagePolicy imagePolicy(ImagesConfig config) {
        return new ImagePolicy(config.allowed());
    }

    /** One thread per running dispatch: it reads the stream and waits for the exit. */
    @Produces
    @Singleton
    @Identifier("dispatch-workers")
    ExecutorService workers() {
        return Executors.newCachedThreadPool(named("dispatch-"));
    }

    /** Timeouts, grace periods and other short timed tasks. */
    @Produces
    @Singleton
    @Identifier("dispatch-timer")
    ScheduledExecutorService timer() {
        return Executors.newScheduledThreadPool(2, named("dispatch-timer-"));
    }

    void close(@Disposes @Identifier("dispatch-workers") ExecutorService workers) {
        workers.shutdownNow();
    }

    void close(@Disposes @Identifier("dispatch-timer") ScheduledExecutorService timer) {
        timer.shutdownNow();
    }

    @Produces
    @Singleton
    DispatchRunner runner(ContainerRuntime runtime, ContainerLogs logs, DispatchStore store, SecretVault vault,
            ContainerConfig containerConfig, @Identifier("dispatch-timer") ScheduledExecutorService timer, Clock clock,
            Worker worker,
            DispatchConfig config, DispatchEvents events) {
        return new DispatchRunner(runtime, logs, store, vault, new LogRetention(containerConfig), timer, clock,
                worker.id(), config.stopGrace().toMillis(), events::finished);
    }

    @Produces
    @Singleton
    DispatchScheduler scheduler(DispatchConfig config, @Identifier("dispatch-workers") ExecutorService workers,
            DispatchRunner runner, EngineMonitor engine, Clock clock, MeterRegistry metrics) {
        DispatchScheduler scheduler = new DispatchScheduler(config.maxRunning(), config.maxQueued(),
                config.maxQueueWait(), workers, runner, engine::available, clock);
        metrics.gauge("sluice.dispatches.running", scheduler, DispatchScheduler::running);
        metrics.gauge("sluice.dispatches.queued", scheduler, DispatchScheduler::queued);
        return scheduler;
    }

    @Produces
    @Singleton
    DispatchService service(DispatchStore store, DispatchScheduler scheduler, SecretVault vault, ImagePolicy images,
            EngineMonitor engine, ContainerRuntime runtime, ContainerLogs logs,
            @Identifier("dispatch-timer") ScheduledExecutorService timer,
            Clock clock, Worker worker, DispatchConfig config, DispatchEvents events, Drain drain) {
        return new DispatchService(store, scheduler, vault, images, engine, runtime, logs, timer, clock, worker.id(),
                config.stopGrace().toMillis(), events::finished, events::accepted, drain::draining);
    }

    @Produces
    @Singleton
    RecordReaper recordReaper(DispatchStore store, DispatchConfig config) {
        return new RecordReaper(store, config.recordRetention());
    }

    @Produces
    @Singleton
    Reaper reaper(ContainerRuntime runtime, DispatchStore store, ContainerConfig containers, WorkerConfig worker) {
        return new Reaper(runtime, store, containers.retention(), worker.orphanGrace());
    }

    @Produces
    @Singleton
    WorkerLease lease(Database database, Worker worker, WorkerConfig config, Clock clock) {
        return new WorkerLease(database.dataSource(), worker.id(), config.lease(), clock);
    }

    @Produces
    @Singleton
    Reconciler reconciler(DispatchStore store, DispatchScheduler scheduler, DispatchRunner runner,
            ContainerRuntime runtime, @Identifier("dispatch-timer") ScheduledExecutorService timer, Clock clock,
            Worker worker, DispatchConfig config, DispatchEvents events) {
        return new Reconciler(store, scheduler, runner, runtime, timer, clock, worker.id(),
                config.stopGrace().toMillis(), events::finished);
    }

    static ThreadFactory named(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
