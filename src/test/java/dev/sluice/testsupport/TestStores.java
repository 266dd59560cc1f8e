package dev.sluice.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;
import dev.sluice.store.ResultBodies;
import dev.sluice.store.ResultFiles;

/**
 * Stores for tests that use them without the worker around them: a fresh
 * embedded H2 database, or the test PostgreSQL server (scripts/postgres.sh
 * starts one), migrated by the worker's own migrations.
 */
public final class TestStores {

    private TestStores() {}

    /** A fresh in-memory H2 database, not yet migrated. */
    public static DataSource h2() {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:mem:test-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        return ds;
    }

    /** An H2 database in a file, which several pools can share as several workers would. */
    public static DataSource h2File(Path file) {
        JdbcDataSource ds = new JdbcDataSource();
        ds.setURL("jdbc:h2:file:" + file + ";DB_CLOSE_ON_EXIT=FALSE");
        return ds;
    }

    /** The JDBC URL of a test database; {@code database} names one of those scripts/postgres.sh creates. */
    public static String postgresUrl(String database) {
        return "jdbc:postgresql://" + System.getenv().getOrDefault("SLUICE_TEST_POSTGRES_HOST", "localhost:5432") + "/"
                + database;
    }

    public static String postgresUser() {
        return System.getenv().getOrDefault("SLUICE_TEST_POSTGRES_USER", "sluice");
    }

    public static String postgresPassword() {
        return System.getenv().getOrDefault("SLUICE_TEST_POSTGRES_PASSWORD", "sluice");
    }

    /** A test database on the PostgreSQL server. */
    public static DataSource postgres(String database) {
        PGSimpleDataSource ds = new PGSimpleDataSource();
        ds.setURL(postgresUrl(database));
        ds.setUser(postgresUser());
        ds.setPassword(postgresPassword());
        return ds;
    }

    /** The default test database on the PostgreSQL server. */
    public static DataSource postgres() {
        return postgres("sluice_test");
    }

    /** Empties the database and migrates it to the current schema. */
    public static Jdbc migratedEmpty(DataSource ds) {
        Flyway flyway = Flyway.configure()
                .dataSource(ds)
                .locations("classpath:db/migration")
                .cleanDisabled(false)
                .load();
        flyway.clean();
        flyway.migrate();
        return new Jdbc(ds);
    }

    /** Migrates the database to the current schema, keeping what it holds. */
    public static Jdbc migrated(DataSource ds) {
        Flyway.configure()
                .dataSource(ds)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        return new Jdbc(ds);
    }

    /** Result bodies in files, as the embedded store keeps them, in a fresh directory under target/. */
    public static ResultBodies resultFiles(Jdbc jdbc) {
        try {
            Path dir = Files.createTempDirectory(Path.of("target"), "results-");
            return new ResultFiles(dir, jdbc, Clock.systemUTC());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Result bodies where each database keeps them: files beside H2, rows in PostgreSQL (ADR 0017). */
    public static ResultBodies bodiesFor(String kind, Jdbc jdbc) {
        return kind.equals("h2") ? resultFiles(jdbc) : ResultBodies.inRows();
    }

    /** JSON columns as the worker writes them. */
    public static JsonColumns json() {
        return new JsonColumns(StoreFixtures.json());
    }
}
