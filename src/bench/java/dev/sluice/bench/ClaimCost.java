package dev.sluice.bench;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.sluice.record.DispatchQueue;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchStore;
import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.StoreFixtures;
import dev.sluice.testsupport.TestStores;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;

/**
 * What one claim from the store's queue costs on PostgreSQL (ADR 0063): a
 * backlog of queued dispatches over several tenants, emptied by workers
 * claiming at once as the scheduler does (the tenants waiting, then the oldest
 * row of the first with {@code FOR UPDATE SKIP LOCKED}). Prints each claim's
 * time at p50 and p99 and the claims per second, for each backlog and number
 * of claiming workers, over pooled connections as the worker has them. Run by {@code bench/run.sh claims [backlog] [tenants]};
 * needs scripts/postgres.sh.
 */
public final class ClaimCost {

    private static final DispatchSpec SPEC = StoreFixtures.specWithoutSecrets("img:1", null);

    public static void main(String[] args) throws Exception {
        int backlog = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int tenants = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        System.out.println("| backlog | tenants | claiming workers | claims/s | claim p50 | claim p99 |");
        System.out.println("| ---: | ---: | ---: | ---: | ---: | ---: |");
        for (int size : List.of(Math.max(1, backlog / 10), backlog)) {
            for (int workers : List.of(1, 3)) {
                run(size, tenants, workers);
            }
        }
    }

    /** Connections pooled as the worker pools them (Agroal): a claim never pays for a connection's set-up. */
    private static DataSource pool(int size) throws SQLException {
        return AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool.maxSize(size + 1)
                        .connectionFactoryConfiguration(
                                factory -> factory.jdbcUrl(TestStores.postgresUrl("sluice_fleet_test"))
                                        .principal(new NamePrincipal(TestStores.postgresUser()))
                                        .credential(new SimplePassword(TestStores.postgresPassword())))));
    }

    private static void run(int backlog, int tenants, int workers) throws Exception {
        Jdbc jdbc = TestStores.migratedEmpty(pool(workers));
        DispatchStore store = new DispatchStore(jdbc, TestStores.json(), TestStores.bodiesFor("postgresql", jdbc));
        Instant t0 = Instant.now();
        List<DispatchStore.NewDispatch> rows = new ArrayList<>();
        for (int i = 0; i < backlog; i++) {
            rows.add(
                    new DispatchStore.NewDispatch("t" + (i % tenants) + ".d-" + i, SPEC, "fp", "w0", t0.plusMillis(i)));
            if (rows.size() == 500 || i == backlog - 1) {
                store.insertAll(rows, tx -> {});
                rows.clear();
            }
        }
        List<Double> millis = Collections.synchronizedList(new ArrayList<>());
        ExecutorService threads = Executors.newFixedThreadPool(workers);
        long begun = System.nanoTime();
        List<Future<?>> claimers = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            DispatchQueue queue = new DispatchQueue(jdbc, "w" + w);
            claimers.add(threads.submit(() -> {
                while (true) {
                    long start = System.nanoTime();
                    Optional<DispatchQueue.Claimed> claimed = Optional.empty();
                    for (String tenant : queue.tenantsWaiting(false)) {
                        claimed = queue.claim(tenant, false);
                        if (claimed.isPresent()) {
                            break;
                        }
                    }
                    if (claimed.isEmpty()) {
                        return null;
                    }
                    millis.add((System.nanoTime() - start) / 1e6);
                }
            }));
        }
        for (Future<?> claimer : claimers) {
            claimer.get(10, TimeUnit.MINUTES);
        }
        threads.shutdown();
        double seconds = Duration.ofNanos(System.nanoTime() - begun).toMillis() / 1000.0;
        System.out.printf(
                Locale.ROOT,
                "| %d | %d | %d | %.0f | %.2f ms | %.2f ms |%n",
                backlog,
                tenants,
                workers,
                millis.size() / seconds,
                Measure.median(millis),
                Measure.percentile(millis, 99));
    }
}
