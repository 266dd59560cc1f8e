package dev.sluice.store;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.concurrent.Executors;

import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.flywaydb.core.Flyway;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.concurrent.Threads;
import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.DataSource;
import io.quarkus.arc.InjectableInstance;
import io.quarkus.flyway.FlywayDataSource;
import io.quarkus.runtime.Startup;

class StoreProducer {

    private static final Logger LOG = Logger.getLogger(StoreProducer.class);

    /** H2's error code for a database file another process holds open (its file lock). */
    private static final int H2_DATABASE_IN_USE = 90020;

    static final String EMBEDDED_IN_USE = "refusing to start: the embedded store in %s is in use by another worker;"
            + " one worker per embedded store (ADR 0063). Several replicas share a PostgreSQL store:"
            + " set QUARKUS_DATASOURCE_JDBC_URL, or give this worker a data directory of its own (SLUICE_DATA_DIR)";

    /**
     * The default datasource is built for PostgreSQL and is only active when its
     * URL is set; otherwise the embedded H2 one serves. The schema is migrated
     * before anything else touches the store.
     */
    @Produces
    @Singleton
    @Startup
    Database database(
            InjectableInstance<AgroalDataSource> postgres,
            @DataSource("embedded") InjectableInstance<AgroalDataSource> embedded,
            InjectableInstance<Flyway> postgresFlyway,
            @FlywayDataSource("embedded") InjectableInstance<Flyway> embeddedFlyway,
            @ConfigProperty(name = "sluice.data-dir") String dataDir) {
        boolean usePostgres = postgres.getHandle().getBean().isActive();
        if (!usePostgres && !(dataDir.startsWith("/") || dataDir.startsWith("./") || dataDir.startsWith("../"))) {
            // H2 refuses paths that are only implicitly relative; say so in our words, naming the setting.
            throw new IllegalArgumentException("sluice.data-dir is " + dataDir
                    + ": use an absolute path, or one starting with ./ for a directory under the working directory");
        }
        Database database =
                usePostgres ? new Database(postgres.get(), "postgresql") : new Database(embedded.get(), "h2");
        try {
            (usePostgres ? postgresFlyway : embeddedFlyway).get().migrate();
        } catch (RuntimeException e) {
            if (!usePostgres && lockedByAnotherProcess(e)) {
                // Logged on a line of its own, as well as in the failed start's stack trace, for log shippers.
                String refusal = EMBEDDED_IN_USE.formatted(dataDir);
                LOG.error(refusal);
                throw new IllegalStateException(refusal, e);
            }
            throw e;
        }
        LOG.infof("dispatch store: %s", database.kind());
        return database;
    }

    private static boolean lockedByAnotherProcess(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getErrorCode() == H2_DATABASE_IN_USE) {
                return true;
            }
        }
        return false;
    }

    @Produces
    @Singleton
    Jdbc jdbc(Database database, Event<StoreWrite> writes) {
        return new Jdbc(database.dataSource(), writes::fire);
    }

    @Produces
    @Singleton
    StoreIdentity storeIdentity(Jdbc jdbc) {
        return StoreIdentity.of(jdbc);
    }

    /** PostgreSQL keeps result bodies in their rows, the embedded store in files beside it (ADR 0017). */
    @Produces
    @Singleton
    ResultBodies resultBodies(
            Database database, Jdbc jdbc, Clock clock, @ConfigProperty(name = "sluice.data-dir") String dataDir) {
        return database.kind().equals("h2")
                ? new ResultFiles(Path.of(dataDir, "results"), jdbc, clock)
                : ResultBodies.inRows();
    }

    /** Probes on a thread of their own, so a hung store holds a prober, never a caller. */
    @Produces
    @Singleton
    @Startup
    StoreMonitor storeMonitor(Database database, StoreConfig config, Clock clock) {
        StoreMonitor monitor = new StoreMonitor(
                database.dataSource(),
                database.kind().equals("h2"),
                config.probeTimeout(),
                config.stallTimeout(),
                Executors.newSingleThreadExecutor(Threads.named("store-probe-")),
                clock);
        // Asked once at start-up, so readiness need not wait for the first scheduled probe.
        monitor.probe();
        return monitor;
    }

    @Produces
    @Singleton
    JsonColumns jsonColumns(ObjectMapper json) {
        return new JsonColumns(json);
    }
}
