package dev.sluice.store;

import javax.sql.DataSource;

/**
 * The store's connection pool: PostgreSQL when {@code quarkus.datasource.jdbc.url}
 * is set, the embedded H2 file database otherwise (ADR 0006).
 *
 * @param kind {@code postgresql} or {@code h2}
 */
public record Database(DataSource dataSource, String kind) {}
