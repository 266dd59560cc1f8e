package dev.sluice.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

import javax.sql.DataSource;

/**
 * The store's one way to the database, so that no feature touches JDBC itself:
 * statements with plain parameters, rows read through {@link Row}, and
 * transactions that either commit whole or roll back. Times travel as UTC
 * offsets, so the JVM's time zone never shifts them. Every failure becomes a
 * {@link StoreException} naming the statement. Every write is announced as a
 * {@link StoreWrite}, with how long it took.
 */
public final class Jdbc {

    /** SQLSTATE of a unique-key violation, the same on H2 and PostgreSQL. */
    private static final String UNIQUE_VIOLATION = "23505";

    private final DataSource dataSource;
    private final Consumer<StoreWrite> writes;
    /** Seconds a statement may run before the driver cancels it (JDBC's query timeout); 0 for no limit. */
    private final int statementTimeout;

    /** A store whose writes are announced to nobody. */
    public Jdbc(DataSource dataSource) {
        this(dataSource, write -> {});
    }

    public Jdbc(DataSource dataSource, Consumer<StoreWrite> writes) {
        this(dataSource, writes, 0);
    }

    private Jdbc(DataSource dataSource, Consumer<StoreWrite> writes, int statementTimeout) {
        this.dataSource = dataSource;
        this.writes = writes;
        this.statementTimeout = statementTimeout;
    }

    /**
     * The same store, with every statement cancelled once it has run for
     * {@code timeout} (in whole seconds, at least one: JDBC counts no finer).
     */
    public Jdbc bounded(Duration timeout) {
        return new Jdbc(dataSource, writes, (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toSeconds())));
    }

    /** Maps the current row of a query. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(Row row);
    }

    /** Work on one connection inside a transaction. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Tx tx);
    }

    /** Every row the query returns. */
    public <T> List<T> query(String sql, RowMapper<T> mapper, Object... args) {
        return onConnection(sql, c -> new Tx(c, statementTimeout).query(sql, mapper, args));
    }

    /** The first row the query returns, if any. */
    public <T> Optional<T> one(String sql, RowMapper<T> mapper, Object... args) {
        return onConnection(sql, c -> new Tx(c, statementTimeout).one(sql, mapper, args));
    }

    /** One statement, auto-committed; returns the rows it changed. */
    public int update(String sql, Object... args) {
        return timed(
                StoreWrite.ofStatement(sql),
                () -> onConnection(sql, c -> new Tx(c, statementTimeout).update(sql, args)));
    }

    /** An insert that may meet an existing key: false then, and nothing changed. */
    public boolean insertIfAbsent(String sql, Object... args) {
        return timed(StoreWrite.ofStatement(sql), () -> {
            try (Connection c = dataSource.getConnection();
                    PreparedStatement ps = prepare(c, sql, statementTimeout)) {
                bind(ps, args);
                ps.executeUpdate();
                return true;
            } catch (SQLException e) {
                if (UNIQUE_VIOLATION.equals(e.getSQLState())) {
                    return false;
                }
                throw new StoreException(describe(sql), e);
            }
        });
    }

    /** Runs {@code work} in a transaction: committed when it returns, rolled back when it throws. */
    public <T> T transaction(String operation, Work<T> work) {
        return timed(StoreWrite.ofTransaction(operation), () -> inTransaction(operation, work));
    }

    private <T> T inTransaction(String operation, Work<T> work) {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(new Tx(c, statementTimeout));
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException(operation, e);
        }
    }

    /** {@code ?, ?, ?} for an {@code IN} list of {@code n} values. */
    public static String marks(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }

    /** Statements on one connection: the transaction's, or a single statement's. */
    public static final class Tx {

        private final Connection connection;
        private final int statementTimeout;

        private Tx(Connection connection, int statementTimeout) {
            this.connection = connection;
            this.statementTimeout = statementTimeout;
        }

        public <T> List<T> query(String sql, RowMapper<T> mapper, Object... args) {
            try (PreparedStatement ps = prepare(connection, sql, statementTimeout)) {
                bind(ps, args);
                List<T> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    Row row = new Row(rs, sql);
                    while (rs.next()) {
                        rows.add(mapper.map(row));
                    }
                }
                return rows;
            } catch (SQLException e) {
                throw new StoreException(describe(sql), e);
            }
        }

        public <T> Optional<T> one(String sql, RowMapper<T> mapper, Object... args) {
            try (PreparedStatement ps = prepare(connection, sql, statementTimeout)) {
                bind(ps, args);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.ofNullable(mapper.map(new Row(rs, sql))) : Optional.empty();
                }
            } catch (SQLException e) {
                throw new StoreException(describe(sql), e);
            }
        }

        public int update(String sql, Object... args) {
            try (PreparedStatement ps = prepare(connection, sql, statementTimeout)) {
                bind(ps, args);
                return ps.executeUpdate();
            } catch (SQLException e) {
                throw new StoreException(describe(sql), e);
            }
        }

        /** The same statement once per argument list, sent as one batch. */
        public void batch(String sql, Collection<Object[]> argLists) {
            try (PreparedStatement ps = prepare(connection, sql, statementTimeout)) {
                for (Object[] args : argLists) {
                    bind(ps, args);
                    ps.addBatch();
                }
                ps.executeBatch();
            } catch (SQLException e) {
                throw new StoreException(describe(sql), e);
            }
        }
    }

    /** The current row of a result, read by column name or position. */
    public static final class Row {

        private final ResultSet rs;
        private final String sql;

        private Row(ResultSet rs, String sql) {
            this.rs = rs;
            this.sql = sql;
        }

        public String string(String column) {
            return read(() -> rs.getString(column));
        }

        public String string(int column) {
            return read(() -> rs.getString(column));
        }

        public long number(String column) {
            return read(() -> rs.getLong(column));
        }

        public long number(int column) {
            return read(() -> rs.getLong(column));
        }

        public byte[] bytes(String column) {
            return read(() -> rs.getBytes(column));
        }

        /** A long column that may be NULL. */
        public Long longOrNull(String column) {
            return read(() -> {
                long value = rs.getLong(column);
                return rs.wasNull() ? null : value;
            });
        }

        /** An integer column that may be NULL. */
        public Integer integer(String column) {
            return read(() -> {
                int value = rs.getInt(column);
                return rs.wasNull() ? null : value;
            });
        }

        public boolean bool(String column) {
            return read(() -> rs.getBoolean(column));
        }

        public Instant instant(String column) {
            return read(() -> toInstant(rs.getObject(column, OffsetDateTime.class)));
        }

        public Instant instant(int column) {
            return read(() -> toInstant(rs.getObject(column, OffsetDateTime.class)));
        }

        private static Instant toInstant(OffsetDateTime t) {
            return t == null ? null : t.toInstant();
        }

        private <T> T read(Column<T> column) {
            try {
                return column.get();
            } catch (SQLException e) {
                throw new StoreException(describe(sql), e);
            }
        }

        @FunctionalInterface
        private interface Column<T> {
            T get() throws SQLException;
        }
    }

    /** Runs a write and announces it, whether it committed or failed. */
    private <T> T timed(String operation, Supplier<T> write) {
        long start = System.nanoTime();
        boolean failed = true;
        try {
            T result = write.get();
            failed = false;
            return result;
        } finally {
            writes.accept(new StoreWrite(operation, Duration.ofNanos(System.nanoTime() - start), failed));
        }
    }

    @FunctionalInterface
    private interface OnConnection<T> {
        T run(Connection c);
    }

    private <T> T onConnection(String sql, OnConnection<T> work) {
        try (Connection c = dataSource.getConnection()) {
            return work.run(c);
        } catch (SQLException e) {
            throw new StoreException(describe(sql), e);
        }
    }

    private static PreparedStatement prepare(Connection c, String sql, int timeout) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        if (timeout > 0) {
            try {
                ps.setQueryTimeout(timeout);
            } catch (SQLException e) {
                ps.close();
                throw e;
            }
        }
        return ps;
    }

    private static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            Object arg = args[i];
            ps.setObject(i + 1, arg instanceof Instant instant ? instant.atOffset(ZoneOffset.UTC) : arg);
        }
    }

    /** The statement's first words, enough to tell in a log which one failed. */
    private static String describe(String sql) {
        String oneLine = sql.strip().replaceAll("\\s+", " ");
        return oneLine.length() <= 60 ? oneLine : oneLine.substring(0, 60) + "...";
    }
}
