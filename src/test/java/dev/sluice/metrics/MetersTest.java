package dev.sluice.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;

import dev.sluice.callback.CallbackStore;
import dev.sluice.callback.DeliveryAttempted;
import dev.sluice.container.engine.EngineCall;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchAccepted;
import dev.sluice.record.DispatchFinished;
import dev.sluice.record.StoredDispatches;
import dev.sluice.record.WaitingDispatches;
import dev.sluice.run.DispatchLoad;
import dev.sluice.run.QueueWait;
import dev.sluice.store.Jdbc;
import dev.sluice.store.StoreException;
import dev.sluice.store.StoreMonitor;
import dev.sluice.store.StoreWrite;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.Scrape;
import dev.sluice.testsupport.TestStores;
import io.micrometer.prometheus.PrometheusConfig;
import io.micrometer.prometheus.PrometheusMeterRegistry;

/**
 * The meters as Prometheus reads them: names with their units, help texts,
 * histogram buckets, the series that exist before anything happened, and the
 * figures each announced fact moves.
 */
class MetersTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final DispatchFinished.Stream QUIET = new DispatchFinished.Stream(0, 0, false);

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final DispatchMeters dispatches = new DispatchMeters(registry);
    private final OutputMeters output = new OutputMeters(registry);
    private final CallbackMeters callbacks = new CallbackMeters(registry);
    private final EngineMeters engine = new EngineMeters(registry);
    private final StoreMeters store = new StoreMeters(registry);

    private double value(String series) {
        return Scrape.of(registry.scrape()).value(series);
    }

    @Test
    void everyTerminalStatusStreamAndDeliveryOutcomeIsThereBeforeAnythingHappens() {
        for (String status : List.of("succeeded", "failed", "timed_out", "cancelled", "error")) {
            assertThat(value("sluice_dispatches_finished_total{status=\"" + status + "\"}"))
                    .isZero();
            assertThat(value("sluice_dispatch_run_duration_seconds_count{status=\"" + status + "\"}"))
                    .isZero();
        }
        for (String stream : List.of("stdout", "stderr")) {
            assertThat(value("sluice_output_captured_bytes_total{stream=\"" + stream + "\"}"))
                    .isZero();
            assertThat(value("sluice_output_dropped_bytes_total{stream=\"" + stream + "\"}"))
                    .isZero();
            assertThat(value("sluice_output_truncations_total{stream=\"" + stream + "\"}"))
                    .isZero();
        }
        for (String outcome : List.of("delivered", "retry", "dead_letter")) {
            assertThat(value("sluice_callback_attempt_duration_seconds_count{outcome=\"" + outcome + "\"}"))
                    .isZero();
        }
        assertThat(value("sluice_callback_dead_letters_total{reason=\"gone\"}")).isZero();
        assertThat(value("sluice_callback_dead_letters_total{reason=\"exhausted\"}"))
                .isZero();
        assertThat(value("sluice_dispatches_accepted_total")).isZero();
        assertThat(value("sluice_dispatch_queue_wait_seconds_count")).isZero();
        assertThat(value("sluice_callback_outbox_pending")).isNaN();
    }

    @Test
    void everyMeterHasHelpTextAndHistogramsHaveTheirBuckets() {
        engine.called(new EngineCall("create", EngineCall.Outcome.OK, Duration.ofMillis(30)));
        store.wrote(new StoreWrite("store_result", Duration.ofMillis(3), false));
        callbacks.attempted(new DeliveryAttempted(DeliveryAttempted.Outcome.RETRY, "timeout", Duration.ofSeconds(15)));
        String scrape = registry.scrape();

        List<String> helps =
                scrape.lines().filter(l -> l.startsWith("# HELP sluice_")).toList();
        assertThat(helps).hasSizeGreaterThanOrEqualTo(16);
        assertThat(helps).allSatisfy(help -> assertThat(help.split(" ", 4)[3]).hasSizeGreaterThan(20));
        assertThat(scrape)
                .contains("# TYPE sluice_dispatch_queue_wait_seconds histogram")
                .contains("# TYPE sluice_dispatch_run_duration_seconds histogram")
                .contains("# TYPE sluice_callback_attempt_duration_seconds histogram")
                .contains("# TYPE sluice_engine_call_duration_seconds histogram")
                .contains("# TYPE sluice_store_write_duration_seconds histogram")
                .contains("# TYPE sluice_callback_attempt_failures_total counter");
        // A dozen buckets per series, not Micrometer's seventy.
        assertThat(scrape.lines().filter(l -> l.startsWith("sluice_engine_call_duration_seconds_bucket{")))
                .hasSize(13);
        assertThat(value(
                        "sluice_engine_call_duration_seconds_bucket{operation=\"create\",outcome=\"ok\",le=\"0.025\"}"))
                .isZero();
        assertThat(value("sluice_engine_call_duration_seconds_bucket{operation=\"create\",outcome=\"ok\",le=\"0.05\"}"))
                .isEqualTo(1);
    }

    @Test
    void aFinishedDispatchCountsItsStatusRunTimeAndWhatItsStreamsCameTo() {
        dispatches.accepted(new DispatchAccepted("d-1"));
        dispatches.waited(new QueueWait(Duration.ofSeconds(3)));
        DispatchFinished truncated = new DispatchFinished(
                "d-1",
                Dispatch.Status.SUCCEEDED,
                Duration.ofSeconds(42),
                new DispatchFinished.Stream(20_000, 17_000, true),
                new DispatchFinished.Stream(12, 0, false));
        DispatchFinished neverRan = new DispatchFinished("d-2", Dispatch.Status.CANCELLED, null, QUIET, QUIET);
        for (DispatchFinished event : List.of(truncated, neverRan)) {
            dispatches.finished(event);
            output.finished(event);
        }

        assertThat(value("sluice_dispatches_accepted_total")).isEqualTo(1);
        assertThat(value("sluice_dispatch_queue_wait_seconds_bucket{le=\"1.0\"}"))
                .isZero();
        assertThat(value("sluice_dispatch_queue_wait_seconds_bucket{le=\"5.0\"}"))
                .isEqualTo(1);
        assertThat(value("sluice_dispatches_finished_total{status=\"succeeded\"}"))
                .isEqualTo(1);
        assertThat(value("sluice_dispatches_finished_total{status=\"cancelled\"}"))
                .isEqualTo(1);
        assertThat(value("sluice_dispatch_run_duration_seconds_sum{status=\"succeeded\"}"))
                .isEqualTo(42);
        assertThat(value("sluice_dispatch_run_duration_seconds_count{status=\"cancelled\"}"))
                .isZero();
        assertThat(value("sluice_output_captured_bytes_total{stream=\"stdout\"}"))
                .isEqualTo(20_000);
        assertThat(value("sluice_output_dropped_bytes_total{stream=\"stdout\"}"))
                .isEqualTo(17_000);
        assertThat(value("sluice_output_truncations_total{stream=\"stdout\"}")).isEqualTo(1);
        assertThat(value("sluice_output_captured_bytes_total{stream=\"stderr\"}"))
                .isEqualTo(12);
        assertThat(value("sluice_output_truncations_total{stream=\"stderr\"}")).isZero();
    }

    @Test
    void theSchedulersCountsAreReadAtEachScrape() {
        int[] counts = {3, 7};
        dispatches.gauges(null, new DispatchLoad() {
            @Override
            public int running() {
                return counts[0];
            }

            @Override
            public int queued() {
                return counts[1];
            }
        });
        assertThat(value("sluice_dispatches_running")).isEqualTo(3);
        counts[1] = 0;
        assertThat(value("sluice_dispatches_queued")).isZero();
    }

    @Test
    void attemptsCountByOutcomeFailuresByReasonAndDeadLettersByWhy() {
        callbacks.attempted(new DeliveryAttempted(DeliveryAttempted.Outcome.RETRY, "http_5xx", Duration.ofMillis(80)));
        callbacks.attempted(new DeliveryAttempted(DeliveryAttempted.Outcome.DELIVERED, null, Duration.ofMillis(20)));
        callbacks.attempted(new DeliveryAttempted(DeliveryAttempted.Outcome.GONE, "http_4xx", Duration.ofMillis(5)));
        callbacks.attempted(
                new DeliveryAttempted(DeliveryAttempted.Outcome.EXHAUSTED, "connect", Duration.ofMillis(5)));

        assertThat(value("sluice_callback_attempt_duration_seconds_count{outcome=\"retry\"}"))
                .isEqualTo(1);
        assertThat(value("sluice_callback_attempt_duration_seconds_count{outcome=\"delivered\"}"))
                .isEqualTo(1);
        assertThat(value("sluice_callback_attempt_duration_seconds_count{outcome=\"dead_letter\"}"))
                .isEqualTo(2);
        assertThat(value("sluice_callback_dead_letters_total{reason=\"gone\"}")).isEqualTo(1);
        assertThat(value("sluice_callback_dead_letters_total{reason=\"exhausted\"}"))
                .isEqualTo(1);
        assertThat(value("sluice_callback_attempt_failures_total{reason=\"http_5xx\"}"))
                .isEqualTo(1);
        assertThat(value("sluice_callback_attempt_failures_total{reason=\"connect\"}"))
                .isEqualTo(1);
    }

    @Test
    void theOutboxIsCountedWhenAskedAndAFailedCountLeavesAGap() {
        Jdbc jdbc = TestStores.migrated(TestStores.h2());
        CallbackStore outbox = new CallbackStore(jdbc, () -> T0);
        StoredDispatches stored = new StoredDispatches(jdbc, outbox);
        stored.queued("d-1", "http://127.0.0.1:9/hook", "w", T0);
        stored.finish(StoredDispatches.result("d-1", Dispatch.Status.SUCCEEDED, "answer\n", T0));

        callbacks.countOutbox(outbox, Duration.ofSeconds(2));
        assertThat(value("sluice_callback_outbox_pending")).isEqualTo(1);

        CallbackStore broken = new CallbackStore(new Jdbc(TestStores.h2()), () -> T0); // no tables
        assertThatThrownBy(() -> callbacks.countOutbox(broken, Duration.ofSeconds(2)))
                .isInstanceOf(StoreException.class);
        assertThat(value("sluice_callback_outbox_pending")).isNaN();
    }

    @Test
    void theSharedQueueIsCountedPerTenantItsOldestWaitGrowsUntilTheNextCountAndAFailedCountLeavesAGap() {
        Jdbc jdbc = TestStores.migrated(TestStores.h2());
        StoredDispatches stored = new StoredDispatches(jdbc, StoredDispatches.NO_OUTBOX);
        MutableClock clock = new MutableClock(T0.plusSeconds(60));
        QueueMeters queue = new QueueMeters(registry, clock, true);
        assertThat(Scrape.of(registry.scrape()).names()).doesNotContain("sluice_queue_depth");

        stored.queued("acme.d-1", null, "w-1", T0.plusSeconds(10));
        stored.queued("acme.d-2", null, "w-2", T0.plusSeconds(20));
        queue.count(new WaitingDispatches(jdbc), Duration.ofSeconds(2));
        // The default tenant has its series though nothing of it waits, so that a sum is 0, not empty.
        assertThat(value("sluice_queue_depth{tenant=\"default\"}")).isZero();
        assertThat(value("sluice_queue_oldest_wait_seconds{tenant=\"default\"}"))
                .isZero();
        assertThat(value("sluice_queue_depth{tenant=\"acme\"}")).isEqualTo(2);
        assertThat(value("sluice_queue_oldest_wait_seconds{tenant=\"acme\"}")).isEqualTo(50);
        clock.advance(Duration.ofMillis(2500));
        assertThat(value("sluice_queue_oldest_wait_seconds{tenant=\"acme\"}")).isEqualTo(52.5);

        stored.queued("d-3", null, "w-1", T0.plusSeconds(70));
        stored.finish(StoredDispatches.result("acme.d-1", Dispatch.Status.CANCELLED, "", T0.plusSeconds(61)));
        stored.finish(StoredDispatches.result("acme.d-2", Dispatch.Status.CANCELLED, "", T0.plusSeconds(61)));
        queue.count(new WaitingDispatches(jdbc), Duration.ofSeconds(2));
        assertThat(value("sluice_queue_depth{tenant=\"acme\"}")).isZero();
        assertThat(value("sluice_queue_oldest_wait_seconds{tenant=\"acme\"}")).isZero();
        assertThat(value("sluice_queue_depth{tenant=\"default\"}")).isEqualTo(1);
        // Accepted by a worker whose clock runs ahead of this one's: no wait yet, never a negative one.
        assertThat(value("sluice_queue_oldest_wait_seconds{tenant=\"default\"}"))
                .isZero();

        WaitingDispatches broken = new WaitingDispatches(new Jdbc(TestStores.h2())); // no tables
        assertThatThrownBy(() -> queue.count(broken, Duration.ofSeconds(2))).isInstanceOf(StoreException.class);
        for (String tenant : List.of("default", "acme")) {
            assertThat(value("sluice_queue_depth{tenant=\"" + tenant + "\"}")).isNaN();
            assertThat(value("sluice_queue_oldest_wait_seconds{tenant=\"" + tenant + "\"}"))
                    .isNaN();
        }
    }

    /**
     * Without sluice.metrics.tenant-tag (the default) the queue is one series,
     * the whole of it, and the scrape names no tenant (ADR 0071).
     */
    @Test
    void withoutTheTenantTagTheQueueIsOneSeriesAndNoTenantIsNamed() {
        Jdbc jdbc = TestStores.migrated(TestStores.h2());
        StoredDispatches stored = new StoredDispatches(jdbc, StoredDispatches.NO_OUTBOX);
        MutableClock clock = new MutableClock(T0.plusSeconds(60));
        QueueMeters queue = new QueueMeters(registry, clock, false);

        stored.queued("acme-corp.d-1", null, "w-1", T0.plusSeconds(10));
        stored.queued("acme-corp.d-2", null, "w-2", T0.plusSeconds(20));
        stored.queued("globex.d-3", null, "w-1", T0.plusSeconds(5));
        stored.queued("d-4", null, "w-1", T0.plusSeconds(30));
        queue.count(new WaitingDispatches(jdbc), Duration.ofSeconds(2));

        assertThat(value("sluice_queue_depth")).isEqualTo(4);
        assertThat(value("sluice_queue_oldest_wait_seconds")).isEqualTo(55);
        String scrape = registry.scrape();
        assertThat(scrape).doesNotContain("tenant=").doesNotContain("acme-corp").doesNotContain("globex");
        assertThat(Scrape.of(scrape).names()).contains("sluice_queue_depth", "sluice_queue_oldest_wait_seconds");

        for (String id : List.of("acme-corp.d-1", "acme-corp.d-2", "globex.d-3", "d-4")) {
            stored.finish(StoredDispatches.result(id, Dispatch.Status.CANCELLED, "", T0.plusSeconds(61)));
        }
        queue.count(new WaitingDispatches(jdbc), Duration.ofSeconds(2));
        assertThat(value("sluice_queue_depth")).isZero();
        assertThat(value("sluice_queue_oldest_wait_seconds")).isZero();

        WaitingDispatches broken = new WaitingDispatches(new Jdbc(TestStores.h2())); // no tables
        assertThatThrownBy(() -> queue.count(broken, Duration.ofSeconds(2))).isInstanceOf(StoreException.class);
        assertThat(value("sluice_queue_depth")).isNaN();
        assertThat(value("sluice_queue_oldest_wait_seconds")).isNaN();
    }

    @Test
    void storeWritesAreTimedByOperationAndOutcomeAndTheStoresSilenceIsItsAge() {
        store.wrote(new StoreWrite("update_dispatches", Duration.ofMillis(2), false));
        store.wrote(new StoreWrite("update_dispatches", Duration.ofMillis(2), true));
        assertThat(value("sluice_store_write_duration_seconds_count{operation=\"update_dispatches\",outcome=\"ok\"}"))
                .isEqualTo(1);
        assertThat(value(
                        "sluice_store_write_duration_seconds_count{operation=\"update_dispatches\",outcome=\"error\"}"))
                .isEqualTo(1);

        MutableClock clock = new MutableClock(T0);
        DataSource ds = TestStores.h2();
        StoreMonitor monitor = new StoreMonitor(
                ds, true, Duration.ofSeconds(2), Duration.ofMinutes(2), ForkJoinPool.commonPool(), clock);
        monitor.probe();
        store.gauges(null, monitor, clock);
        clock.advance(Duration.ofSeconds(42));
        assertThat(value("sluice_store_last_answer_age_seconds")).isEqualTo(42);
        monitor.probe();
        assertThat(value("sluice_store_last_answer_age_seconds")).isZero();
    }

    @Test
    void onlyTheMetricsPackageImportsMicrometer() throws IOException {
        Path main = Path.of("src/main/java/dev/sluice");
        try (Stream<Path> walk = Files.walk(main)) {
            List<Path> sources =
                    walk.filter(p -> p.toString().endsWith(".java")).toList();
            assertThat(sources).hasSizeGreaterThan(100);
            assertThat(sources.stream()
                            .filter(p -> !p.startsWith(main.resolve("metrics")))
                            .filter(p -> read(p).contains("import io.micrometer.")))
                    .isEmpty();
        }
    }

    private static String read(Path source) {
        try {
            return Files.readString(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
