package dev.sluice.worker;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.NotificationOptions;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import dev.sluice.concurrent.Threads;
import dev.sluice.concurrent.WarmUp;
import io.quarkus.runtime.StartupEvent;

/**
 * Starts the {@link WarmUp} once the worker has started, on a thread of its
 * own: start-up and readiness never wait for it, and a dispatch that arrives
 * meanwhile simply finds part of its way already taken. One line at INFO says
 * how it went.
 */
@Singleton
class WarmUpTrigger {

    private static final Logger LOG = Logger.getLogger(WarmUpTrigger.class);

    /** The whole warm-up's deadline: its store statements get what is left of it, later steps are skipped. */
    static final Duration WITHIN = Duration.ofSeconds(30);

    @Inject
    Event<WarmUp> warmUps;

    @Inject
    WorkerConfig config;

    @Inject
    Clock clock;

    /**
     * The last of the start-up observers, after the worker's own start (lease,
     * reconciliation) and the {@code @Startup} beans: the warm-up must not
     * compete with what is left of start-up on two vCPUs.
     */
    void atStart(@Observes @Priority(Integer.MAX_VALUE) StartupEvent event) {
        if (config.warmUp()) {
            start();
        }
    }

    private void start() {
        ExecutorService thread = Executors.newSingleThreadExecutor(Threads.named("warm-up-"));
        long started = System.nanoTime();
        warmUps.fireAsync(new WarmUp(clock, WITHIN), NotificationOptions.ofExecutor(thread))
                .whenComplete((warmUp, failure) -> {
                    long millis = (System.nanoTime() - started) / 1_000_000;
                    if (failure != null) {
                        LOG.infof("warm-up ended in %d ms: %s", millis, failure.getMessage());
                    } else {
                        LOG.infof("warm-up took %d ms: %s", millis, summary(warmUp));
                    }
                });
        // The observers run as one task, already queued: the thread ends with it.
        thread.shutdown();
    }

    private static String summary(WarmUp warmUp) {
        return warmUp.steps().stream()
                .map(s -> s.name() + " " + s.millis() + " ms" + (s.failure() == null ? "" : " (" + s.failure() + ")"))
                .collect(Collectors.joining(", "));
    }
}
