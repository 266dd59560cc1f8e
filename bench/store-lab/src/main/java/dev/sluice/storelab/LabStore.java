package dev.sluice.storelab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;

/**
 * The worker's statements (DispatchTransitions.finish, CallbackStore.enqueue,
 * claim and record, RecordReaper) against one variant, through an Agroal pool
 * configured as Quarkus configures the worker's (max 32, acquisition timeout 5 s).
 */
final class LabStore implements AutoCloseable {

    static final String TERMINAL = "('succeeded', 'failed', 'timed_out', 'cancelled', 'error')";

    /** What one finishing transaction spent where, in nanoseconds. */
    static final class Timings {
        long file;
        long acquire;
        long update;
        long insert;
        long commit;
    }

    /** A claimed delivery. */
    record Due(String dispatchId, String webhookId, String url, int roundAttempts) {}

    private final Variant variant;
    private final Path dir;
    private final AgroalDataSource ds;
    private final ResultFiles files;
    private final Watchdog watchdog;
    private final String url;

    LabStore(Variant variant, Path dir, int poolSize, Watchdog watchdog) throws Exception {
        this.variant = variant;
        this.dir = dir;
        this.watchdog = watchdog;
        this.files = variant.body() == Variant.Body.FILE ? new ResultFiles(dir.resolve("results")) : null;
        boolean h2 = variant.db() == Variant.Db.H2;
        this.url = h2
                ? "jdbc:h2:file:" + dir.resolve("sluice").toAbsolutePath()
                        + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;CACHE_SIZE=1024"
                : "jdbc:sqlite:" + dir.resolve("sluice.db").toAbsolutePath();
        AgroalDataSourceConfigurationSupplier cfg = new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(cp -> cp.maxSize(poolSize)
                        .minSize(0)
                        .initialSize(0)
                        .acquisitionTimeout(Duration.ofSeconds(5))
                        .connectionFactoryConfiguration(cf -> {
                            cf.jdbcUrl(url).connectionProviderClassName(h2 ? "org.h2.Driver" : "org.sqlite.JDBC");
                            if (h2) {
                                cf.principal(new NamePrincipal("sluice")).credential(new SimplePassword("sluice"));
                            } else {
                                cf.jdbcProperty("journal_mode", "WAL")
                                        .jdbcProperty("synchronous", variant.synchronous())
                                        .jdbcProperty("busy_timeout", "30000")
                                        .jdbcProperty("transaction_mode", "IMMEDIATE")
                                        .jdbcProperty("foreign_keys", "true");
                            }
                            return cf;
                        }));
        this.ds = AgroalDataSource.from(cfg);
    }

    String url() {
        return url;
    }

    ResultFiles files() {
        return files;
    }

    String driverVersion() throws SQLException {
        try (Connection c = ds.getConnection()) {
            var md = c.getMetaData();
            return md.getDatabaseProductName() + " " + md.getDatabaseProductVersion() + " (driver "
                    + md.getDriverName() + " " + md.getDriverVersion() + ")";
        }
    }

    void migrate() throws Exception {
        String file = variant.db() == Variant.Db.H2 ? "/schema/h2.sql" : "/schema/sqlite.sql";
        String sql;
        try (InputStream in = Objects.requireNonNull(LabStore.class.getResourceAsStream(file))) {
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        sql = sql.replace("${RESULT_TYPE}", switch (variant.body()) {
            case BLOB -> "BLOB";
            case CLOB -> "CLOB";
            case TEXT, FILE -> "TEXT";
        });
        String code = sql.lines()
                .filter(l -> !l.strip().startsWith("--"))
                .reduce("", (a, b) -> a + "\n" + b);
        try (Connection c = ds.getConnection();
                Statement s = c.createStatement()) {
            for (String stmt : code.split(";")) {
                String body = stmt.strip();
                if (!body.isEmpty()) {
                    s.execute(body);
                }
            }
        }
    }

    /** A time as the column takes it: an OffsetDateTime in UTC for H2 (as Jdbc.bind), epoch ms for SQLite. */
    private Object time(Instant t) {
        if (t == null) {
            return null;
        }
        return variant.db() == Variant.Db.H2 ? t.atOffset(ZoneOffset.UTC) : (Object) t.toEpochMilli();
    }

    /**
     * A pooled connection whose close (the pool resets autocommit there, which
     * in H2 is one more commit) is watched like any statement.
     */
    private Connection acquire() throws SQLException {
        Connection c;
        try (AutoCloseable w = watchdog.enter("pool acquire")) {
            c = ds.getConnection();
        } catch (SQLException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return (Connection) java.lang.reflect.Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    try (AutoCloseable w = method.getName().equals("close")
                            ? watchdog.enter("connection close (pool reset)")
                            : null) {
                        return method.invoke(c, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private int exec(PreparedStatement ps, String label) throws SQLException {
        try (AutoCloseable w = watchdog.enter(label)) {
            return ps.executeUpdate();
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void commit(Connection c, String label) throws SQLException {
        try (AutoCloseable w = watchdog.enter(label)) {
            c.commit();
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Starts a transaction (SQLite: BEGIN IMMEDIATE, which waits for the write lock). */
    private void begin(Connection c) throws SQLException {
        try (AutoCloseable w = watchdog.enter("begin")) {
            c.setAutoCommit(false);
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Back to autocommit, as Jdbc.transaction does in its finally (H2 commits again there). */
    private void end(Connection c) throws SQLException {
        try (AutoCloseable w = watchdog.enter("setAutoCommit(true)")) {
            c.setAutoCommit(true);
        } catch (SQLException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void rollbackQuietly(Connection c, Exception e) {
        try {
            c.rollback();
        } catch (SQLException r) {
            e.addSuppressed(r);
        }
    }

    /** Queued rows for a round, as DispatchStore.insert writes them, already running. */
    void insertRunning(List<String> ids, Instant now) throws SQLException {
        try (Connection c = acquire()) {
            begin(c);
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO dispatches (id, status, image, fingerprint, spec, has_secrets, worker_id, created_at, "
                            + "started_at, callback_url, metadata) VALUES (?, 'running', ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (String id : ids) {
                    ps.setString(1, id);
                    ps.setString(2, "sluice-agent:test");
                    ps.setString(3, "f".repeat(64));
                    ps.setString(4, "{\"image\":\"sluice-agent:test\",\"command\":[\"sh\",\"-c\",\"run\"]}");
                    ps.setBoolean(5, false);
                    ps.setString(6, "lab-worker");
                    ps.setObject(7, time(now));
                    ps.setObject(8, time(now));
                    ps.setString(9, "http://receiver.invalid/hook");
                    ps.setString(10, "{\"task\":\"lab\"}");
                    ps.addBatch();
                }
                try (AutoCloseable w = watchdog.enter("insert round rows")) {
                    ps.executeBatch();
                } catch (SQLException | RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                commit(c, "commit round rows");
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c, e);
                throw e;
            } finally {
                end(c);
            }
        }
    }

    /**
     * DispatchTransitions.finish: the terminal state and result, and the outbox
     * row, in one transaction. For the file variants the body is written (and
     * made durable) first, then the row that names it is committed.
     */
    void finish(String id, String text, byte[] utf8, Instant finishedAt, Timings t) throws Exception {
        String file = null;
        if (files != null) {
            long f0 = System.nanoTime();
            try (AutoCloseable w = watchdog.enter("write result file")) {
                file = files.write(id, utf8);
            }
            t.file = System.nanoTime() - f0;
        }
        long a0 = System.nanoTime();
        try (Connection c = acquire()) {
            t.acquire = System.nanoTime() - a0;
            begin(c);
            try {
                long u0 = System.nanoTime();
                String sql = files != null
                        ? "UPDATE dispatches SET status = ?, result_file = ?, result_bytes = ?, summary = ?, "
                                + "finished_at = ?, started_at = COALESCE(started_at, ?) WHERE id = ? AND status NOT IN "
                                + TERMINAL
                        : "UPDATE dispatches SET status = ?, result = ?, summary = ?, finished_at = ?, "
                                + "started_at = COALESCE(started_at, ?) WHERE id = ? AND status NOT IN " + TERMINAL;
                int updated;
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    int i = 1;
                    ps.setString(i++, "succeeded");
                    if (files != null) {
                        ps.setString(i++, file);
                        ps.setLong(i++, utf8.length);
                    } else if (variant.body() == Variant.Body.TEXT || variant.body() == Variant.Body.CLOB) {
                        ps.setObject(i++, text); // as ResultColumn.value: the JSON as a String
                    } else {
                        ps.setBytes(i++, utf8);
                    }
                    ps.setString(i++, "{\"status\":\"succeeded\",\"exitCode\":0,\"durationMs\":60000}");
                    ps.setObject(i++, time(finishedAt));
                    ps.setObject(i++, time(finishedAt));
                    ps.setString(i, id);
                    updated = exec(ps, "update result " + id);
                }
                t.update = System.nanoTime() - u0;
                if (updated != 1) {
                    throw new IllegalStateException("conditional update changed " + updated + " rows for " + id);
                }
                long i0 = System.nanoTime();
                try (PreparedStatement ps = c.prepareStatement(
                        "INSERT INTO callbacks (dispatch_id, webhook_id, url, state, next_attempt_at, created_at) "
                                + "SELECT id, ?, callback_url, 'pending', ?, ? FROM dispatches WHERE id = ? "
                                + "AND callback_url IS NOT NULL")) {
                    ps.setString(1, "msg_" + id);
                    ps.setObject(2, time(finishedAt));
                    ps.setObject(3, time(finishedAt));
                    ps.setString(4, id);
                    exec(ps, "insert outbox " + id);
                }
                t.insert = System.nanoTime() - i0;
                long c0 = System.nanoTime();
                commit(c, "commit result " + id);
                t.commit = System.nanoTime() - c0;
            } catch (Exception e) {
                rollbackQuietly(c, e);
                throw e;
            } finally {
                end(c);
            }
        }
    }

    /**
     * CallbackStore.claim. H2: the due rows FOR UPDATE SKIP LOCKED, then a batch
     * update. SQLite has no row locks: the transaction begins IMMEDIATE (the
     * database's one write lock), so a plain SELECT then UPDATE claims the rows.
     */
    List<Due> claim(Instant now, int limit, String worker, Instant leaseUntil) throws SQLException {
        String lock = variant.db() == Variant.Db.H2 ? " FOR UPDATE SKIP LOCKED" : "";
        try (Connection c = acquire()) {
            begin(c);
            try {
                List<Due> due = new ArrayList<>();
                try (PreparedStatement ps = c.prepareStatement(
                        "SELECT dispatch_id, webhook_id, url, round_attempts FROM callbacks WHERE state = 'pending' "
                                + "AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?) "
                                + "ORDER BY next_attempt_at LIMIT ?" + lock)) {
                    ps.setObject(1, time(now));
                    ps.setObject(2, time(now));
                    ps.setInt(3, limit);
                    try (AutoCloseable w = watchdog.enter("claim select");
                            ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            due.add(new Due(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4)));
                        }
                    } catch (SQLException | RuntimeException e) {
                        throw e;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
                if (!due.isEmpty()) {
                    try (PreparedStatement ps = c.prepareStatement(
                            "UPDATE callbacks SET claimed_by = ?, claimed_until = ? WHERE dispatch_id = ?")) {
                        for (Due d : due) {
                            ps.setString(1, worker);
                            ps.setObject(2, time(leaseUntil));
                            ps.setString(3, d.dispatchId());
                            ps.addBatch();
                        }
                        try (AutoCloseable w = watchdog.enter("claim update")) {
                            ps.executeBatch();
                        } catch (SQLException | RuntimeException e) {
                            throw e;
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
                commit(c, "commit claim");
                return due;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c, e);
                throw e;
            } finally {
                end(c);
            }
        }
    }

    /** CallbackStore.record for a 2xx: delivered, claim released, attempt kept. */
    boolean markDelivered(String id, String worker, Instant at, long durationMs) throws SQLException {
        try (Connection c = acquire()) {
            begin(c);
            try {
                int updated;
                try (PreparedStatement ps = c.prepareStatement(
                        "UPDATE callbacks SET attempts = attempts + 1, round_attempts = round_attempts + 1, "
                                + "state = 'delivered', next_attempt_at = NULL, last_attempt_at = ?, last_status = 200, "
                                + "last_error = NULL, delivered_at = ?, claimed_by = NULL, claimed_until = NULL "
                                + "WHERE dispatch_id = ? AND claimed_by = ?")) {
                    ps.setObject(1, time(at));
                    ps.setObject(2, time(at));
                    ps.setString(3, id);
                    ps.setString(4, worker);
                    updated = exec(ps, "record delivered " + id);
                }
                if (updated > 0) {
                    try (PreparedStatement ps = c.prepareStatement(
                            "INSERT INTO callback_attempts (dispatch_id, attempt, at, status, error, duration_ms) "
                                    + "SELECT dispatch_id, attempts, ?, 200, NULL, ? FROM callbacks WHERE dispatch_id = ?")) {
                        ps.setObject(1, time(at));
                        ps.setLong(2, durationMs);
                        ps.setString(3, id);
                        exec(ps, "insert attempt " + id);
                    }
                }
                commit(c, "commit delivered");
                return updated > 0;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c, e);
                throw e;
            } finally {
                end(c);
            }
        }
    }

    /** How a stored body is read and written out. */
    enum ReadMethod {
        /** the path before ADR 0017: getString, then the UTF-8 bytes */
        STRING,
        /** getCharacterStream, encoded to UTF-8 through a small buffer */
        CHARACTER_STREAM,
        /** getBinaryStream (for an H2 CLOB: the stored UTF-8 bytes) */
        BINARY_STREAM,
        /** getBytes: the whole body as one array */
        BYTES,
        /** the file, through one 8 KiB buffer */
        FILE_STREAM,
        /** the file, with FileChannel.transferTo */
        FILE_TRANSFER
    }

    List<ReadMethod> readMethods() {
        return switch (variant.body()) {
            case TEXT, CLOB -> List.of(ReadMethod.STRING, ReadMethod.CHARACTER_STREAM, ReadMethod.BINARY_STREAM);
            case BLOB -> List.of(ReadMethod.BYTES, ReadMethod.BINARY_STREAM);
            case FILE -> List.of(ReadMethod.FILE_STREAM, ReadMethod.FILE_TRANSFER);
        };
    }

    ReadMethod deliveryReadMethod() {
        return switch (variant.body()) {
            case TEXT, CLOB -> ReadMethod.CHARACTER_STREAM;
            case BLOB -> ReadMethod.BINARY_STREAM;
            case FILE -> ReadMethod.FILE_STREAM;
        };
    }

    /** Reads the stored body of {@code id} and writes it to {@code out}; returns the bytes written. */
    long readBody(String id, ReadMethod method, OutputStream out) throws Exception {
        String column = files != null ? "result_file" : "result";
        String fileName = null;
        long n = 0;
        try (Connection c = acquire();
                PreparedStatement ps = c.prepareStatement("SELECT " + column + " FROM dispatches WHERE id = ?")) {
            ps.setString(1, id);
            try (AutoCloseable w = watchdog.enter("read result " + id);
                    ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no row " + id);
                }
                byte[] buffer = new byte[8192];
                switch (method) {
                    case STRING -> {
                        byte[] b = rs.getString(1).getBytes(StandardCharsets.UTF_8);
                        out.write(b);
                        n = b.length;
                    }
                    case BYTES -> {
                        byte[] b = rs.getBytes(1);
                        out.write(b);
                        n = b.length;
                    }
                    case CHARACTER_STREAM -> {
                        CountingOutputStream counting = new CountingOutputStream(out);
                        char[] cbuf = new char[4096];
                        try (Reader r = rs.getCharacterStream(1)) {
                            Writer wr = new OutputStreamWriter(counting, StandardCharsets.UTF_8);
                            int k;
                            while ((k = r.read(cbuf)) >= 0) {
                                wr.write(cbuf, 0, k);
                            }
                            wr.flush();
                        }
                        n = counting.count;
                    }
                    case BINARY_STREAM -> {
                        try (InputStream in = rs.getBinaryStream(1)) {
                            int k;
                            while ((k = in.read(buffer)) >= 0) {
                                out.write(buffer, 0, k);
                                n += k;
                            }
                        }
                    }
                    case FILE_STREAM, FILE_TRANSFER -> fileName = rs.getString(1);
                }
            }
        }
        if (fileName != null) {
            try (AutoCloseable w = watchdog.enter("read file " + id)) {
                n = method == ReadMethod.FILE_TRANSFER
                        ? files.transferTo(fileName, out)
                        : files.copyTo(fileName, out, new byte[8192]);
            }
        }
        return n;
    }

    /** RecordReaper: one autocommitted DELETE per record (the outbox rows cascade), then the files. */
    int reap(List<String> ids) throws Exception {
        int deleted = 0;
        for (String id : ids) {
            String file = null;
            try (Connection c = acquire()) {
                if (files != null) {
                    try (PreparedStatement ps = c.prepareStatement("SELECT result_file FROM dispatches WHERE id = ?")) {
                        ps.setString(1, id);
                        try (ResultSet rs = ps.executeQuery()) {
                            file = rs.next() ? rs.getString(1) : null;
                        }
                    }
                }
                try (PreparedStatement ps = c.prepareStatement(
                        "DELETE FROM dispatches WHERE id = ? AND status IN " + TERMINAL)) {
                    ps.setString(1, id);
                    deleted += exec(ps, "reap " + id);
                }
            }
            if (file != null) {
                files.delete(file);
            }
        }
        return deleted;
    }

    /** Checkpoint or nothing: what the store holds on disk while open. */
    Path dir() {
        return dir;
    }

    @Override
    public void close() {
        ds.close();
    }

    /** Counts what passes through. */
    static final class CountingOutputStream extends OutputStream {
        private final OutputStream out;
        long count;

        CountingOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
