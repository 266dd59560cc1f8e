package dev.sluice.record;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.type.TypeReference;

import dev.sluice.container.ContainerReaper;
import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;
import dev.sluice.store.ResultBodies;
import dev.sluice.store.StoredBody;
import dev.sluice.worker.Reconciler;

/**
 * Dispatch records in the relational store (H2 or PostgreSQL, one schema):
 * recording a new dispatch, reading one, and listing them. Their state changes
 * are {@link DispatchTransitions}'.
 */
public class DispatchStore {

    private static final String RECORD_COLUMNS = "id, status, image, created_at, started_at, finished_at, metadata, "
            + "callback_url, summary, worker_id, container_id, has_secrets, fingerprint, attempt, trace_parent";

    /** Where a finished dispatch's result is: in the row, in a file the row names, or (older rows) in text. */
    private static final String RESULT_COLUMNS = "result_body, result_file, result_size, result";

    private static final TypeReference<Map<String, Object>> METADATA = new TypeReference<>() {};

    private final Jdbc jdbc;
    private final JsonColumns json;
    private final ResultBodies bodies;

    public DispatchStore(Jdbc jdbc, JsonColumns json, ResultBodies bodies) {
        this.jdbc = jdbc;
        this.json = json;
        this.bodies = bodies;
    }

    /**
     * A dispatch to record as queued; {@code traceparent} is the W3C context
     * of the span made when it was accepted (ADR 0069), or null.
     */
    public record NewDispatch(
            String id, DispatchSpec spec, String fingerprint, String workerId, Instant createdAt, String traceparent) {

        public NewDispatch(String id, DispatchSpec spec, String fingerprint, String workerId, Instant createdAt) {
            this(id, spec, fingerprint, workerId, createdAt, null);
        }
    }

    /** What a worker needs to run a dispatch: its request, and where its spans hang. */
    public record ToRun(DispatchSpec spec, String traceparent) {}

    /** One page of a listing, newest first; {@code nextAfter} is the cursor for the next page, or null. */
    public record Page(List<Dispatch> items, String nextAfter) {}

    /** What taking a dispatch over needs from its record (ADR 0010). */
    public record Held(
            DispatchSpec spec,
            Dispatch.Status status,
            boolean cancelRequested,
            Instant startedAt,
            String traceparent) {}

    /** Where a dispatch stands: its status, and when it finished (null while it runs). */
    public record Standing(Dispatch.Status status, Instant finishedAt) {}

    private static final String INSERT =
            "INSERT INTO dispatches (id, tenant, status, image, fingerprint, spec, has_secrets, worker_id, created_at, "
                    + "callback_url, metadata, pinned_to, trace_parent) VALUES (?, ?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /** Records a new queued dispatch; false when the id is already taken. */
    public boolean insert(NewDispatch d) {
        return jdbc.insertIfAbsent(INSERT, insertArgs(d));
    }

    /**
     * Records new queued dispatches, and what {@code alsoStore} writes, in one
     * transaction; when an id is already taken nothing is recorded and that id
     * is returned.
     */
    public Optional<String> insertAll(List<NewDispatch> all, Consumer<Jdbc.Tx> alsoStore) {
        List<String> ids = all.stream().map(NewDispatch::id).toList();
        return jdbc.transaction("insert dispatches", tx -> {
            Optional<String> taken = tx
                    .query(
                            "SELECT id FROM dispatches WHERE id IN (" + Jdbc.marks(ids.size()) + ")",
                            row -> row.string(1),
                            ids.toArray())
                    .stream()
                    .findFirst();
            if (taken.isPresent()) {
                return taken;
            }
            tx.batch(INSERT, all.stream().map(this::insertArgs).toList());
            alsoStore.accept(tx);
            return Optional.<String>empty();
        });
    }

    private Object[] insertArgs(NewDispatch d) {
        return new Object[] {
            d.id(),
            DispatchKey.tenantOf(d.id()),
            d.spec().image(),
            d.fingerprint(),
            json.write(d.spec()),
            d.spec().hasSecrets(),
            d.workerId(),
            d.createdAt(),
            d.spec().callbackUrl(),
            d.spec().metadata() == null ? null : json.write(d.spec().metadata()),
            // Only the worker that accepted it can run it: what it needs is there alone (ADR 0063).
            d.spec().runsOnlyWhereAccepted() ? d.workerId() : null,
            d.traceparent()
        };
    }

    public Optional<Dispatch> find(String id) {
        return jdbc.one(
                "SELECT " + RECORD_COLUMNS + ", " + RESULT_COLUMNS + " FROM dispatches WHERE id = ?",
                row -> record(row, true),
                id);
    }

    /** The validated request of a dispatch, without secret values, and the context of its spans. */
    public Optional<ToRun> toRun(String id) {
        return jdbc.one(
                "SELECT spec, trace_parent FROM dispatches WHERE id = ?",
                row -> new ToRun(json.read(row.string("spec"), DispatchSpec.class), row.string("trace_parent")),
                id);
    }

    /** What taking dispatch {@code id} over needs; empty when it has no record. */
    public Optional<Held> held(String id) {
        return jdbc.one(
                "SELECT spec, status, cancel_requested, started_at, trace_parent FROM dispatches WHERE id = ?",
                row -> new Held(
                        json.read(row.string("spec"), DispatchSpec.class),
                        Dispatch.Status.fromWire(row.string("status")),
                        row.bool("cancel_requested"),
                        row.instant("started_at"),
                        row.string("trace_parent")),
                id);
    }

    /**
     * The unfinished dispatches {@code workerId} holds, oldest first, but for
     * queued ones no one has claimed: those wait in the store's queue, where
     * nothing is to be taken up.
     */
    public List<Reconciler.Unfinished> unfinished(String workerId) {
        return jdbc.query(
                "SELECT id, status, container_id, has_secrets, created_at FROM dispatches WHERE worker_id = ? "
                        + "AND status NOT IN " + DispatchTransitions.TERMINAL
                        + " AND NOT (status = 'queued' AND claimed_by IS NULL) ORDER BY seq",
                row -> new Reconciler.Unfinished(
                        row.string("id"),
                        Dispatch.Status.fromWire(row.string("status")) == Dispatch.Status.RUNNING,
                        row.string("container_id"),
                        row.bool("has_secrets"),
                        row.instant("created_at")),
                workerId);
    }

    /**
     * Where each of the given dispatches stands, read in {@code tx} (a group's
     * round reads its members with the group locked); ids without a record
     * are absent.
     */
    public Map<String, Standing> standings(Jdbc.Tx tx, Collection<String> ids) {
        return standings(ids, (sql, args) -> tx.query(sql, DispatchStore::standing, args));
    }

    /** Where each of the given dispatches stands; ids without a record are absent. */
    public Map<String, Standing> standings(Collection<String> ids) {
        return standings(ids, (sql, args) -> jdbc.query(sql, DispatchStore::standing, args));
    }

    private static Map<String, Standing> standings(
            Collection<String> ids, BiFunction<String, Object[], List<Map.Entry<String, Standing>>> query) {
        Map<String, Standing> standings = new HashMap<>();
        List<String> distinct = ids.stream().distinct().toList();
        for (int from = 0; from < distinct.size(); from += 500) {
            List<String> batch = distinct.subList(from, Math.min(distinct.size(), from + 500));
            query.apply(
                            "SELECT id, status, finished_at FROM dispatches WHERE id IN (" + Jdbc.marks(batch.size())
                                    + ")",
                            batch.toArray())
                    .forEach(e -> standings.put(e.getKey(), e.getValue()));
        }
        return standings;
    }

    private static Map.Entry<String, Standing> standing(Jdbc.Row row) {
        return Map.entry(
                row.string("id"),
                new Standing(Dispatch.Status.fromWire(row.string("status")), row.instant("finished_at")));
    }

    /** The validated request of a dispatch, without secret values. */
    public Optional<DispatchSpec> spec(String id) {
        return jdbc.one(
                "SELECT spec FROM dispatches WHERE id = ?", row -> json.read(row.string(1), DispatchSpec.class), id);
    }

    /**
     * Newest first, of one tenant or (with {@code tenant} null) of all. {@code afterId}
     * continues after that dispatch; an unknown cursor gives an {@link IllegalArgumentException}.
     */
    public Page list(String tenant, Dispatch.Status status, int limit, String afterId) {
        StringBuilder sql = new StringBuilder("SELECT " + RECORD_COLUMNS + " FROM dispatches WHERE 1 = 1");
        List<Object> args = new ArrayList<>();
        if (tenant != null) {
            sql.append(" AND tenant = ?");
            args.add(tenant);
        }
        if (status != null) {
            sql.append(" AND status = ?");
            args.add(status.wire());
        }
        if (afterId != null) {
            sql.append(" AND seq < ?");
            args.add(jdbc.one("SELECT seq FROM dispatches WHERE id = ?", row -> row.number(1), afterId)
                    .orElseThrow(() -> new IllegalArgumentException("unknown cursor")));
        }
        sql.append(" ORDER BY seq DESC LIMIT ?");
        args.add(limit + 1);
        List<Dispatch> items = jdbc.query(sql.toString(), row -> record(row, false), args.toArray());
        if (items.size() <= limit) {
            return new Page(items, null);
        }
        List<Dispatch> page = items.subList(0, limit);
        return new Page(List.copyOf(page), page.get(limit - 1).id());
    }

    /** The stored result, exactly as it was written: the body of every callback attempt. */
    public Optional<StoredResult> storedResult(String id) {
        return jdbc.one("SELECT " + RESULT_COLUMNS + " FROM dispatches WHERE id = ?", this::result, id)
                .flatMap(Optional::ofNullable);
    }

    /** The digest of a dispatch (docs/api.md, section 7.6); empty for an unknown id. */
    public Optional<byte[]> digest(String id) {
        return jdbc.one(
                "SELECT id, status, summary, digest, " + RESULT_COLUMNS + " FROM dispatches WHERE id = ?",
                this::digest,
                id);
    }

    /**
     * What a callback attempt sends, and whether it goes gzip-compressed; specs
     * stored before the encoding existed have none and send the body as it is.
     */
    public record CallbackBody(StoredBody body, DispatchSpec.CallbackEncoding encoding, String traceparent) {

        public boolean gzip() {
            return encoding == DispatchSpec.CallbackEncoding.GZIP;
        }
    }

    /**
     * What a callback attempt sends: the stored result, or the stored digest
     * when the dispatch asked for {@code callbackMode: digest}, in the encoding
     * it asked for; empty before the dispatch finished, or when its record is gone.
     */
    public Optional<CallbackBody> callbackBody(String id) {
        return jdbc.one(
                        "SELECT id, status, spec, summary, digest, trace_parent, " + RESULT_COLUMNS
                                + " FROM dispatches WHERE id = ?",
                        row -> {
                            StoredResult result = result(row);
                            if (result == null) {
                                return null;
                            }
                            DispatchSpec spec = json.read(row.string("spec"), DispatchSpec.class);
                            StoredBody body = spec.sendsDigest() ? StoredBody.of(digest(row)) : result.body();
                            return new CallbackBody(body, spec.callbackEncoding(), row.string("trace_parent"));
                        },
                        id)
                .flatMap(Optional::ofNullable);
    }

    /** The stored digest; made from the record before the dispatch finished, and from the result for older rows. */
    private byte[] digest(Jdbc.Row row) {
        String stored = row.string("digest");
        if (stored != null) {
            return stored.getBytes(StandardCharsets.UTF_8);
        }
        Dispatch.Status status = Dispatch.Status.fromWire(row.string("status"));
        StoredResult result = status.terminal() ? result(row) : null;
        if (result == null) {
            return DispatchDigest.unfinished(row.string("id"), status);
        }
        DispatchSummary summary = json.read(row.string("summary"), DispatchSummary.class);
        return DispatchDigest.of(
                json.read(result.json(), DispatchResult.class), summary.stdoutBytes(), summary.stderrBytes());
    }

    /** The result a row names, wherever the store keeps it; {@code null} before the dispatch finished. */
    private StoredResult result(Jdbc.Row row) {
        return bodies.read(
                        row.string("result_file"),
                        row.bytes("result_body"),
                        row.longOrNull("result_size"),
                        row.string("result"))
                .map(StoredResult::new)
                .orElse(null);
    }

    /** How the given dispatches ended, for the container reaper; ids without a record are absent. */
    public Map<String, ContainerReaper.Ending> endings(Collection<String> ids) {
        Map<String, ContainerReaper.Ending> endings = new HashMap<>();
        List<String> distinct = ids.stream().distinct().toList();
        for (int from = 0; from < distinct.size(); from += 500) {
            List<String> batch = distinct.subList(from, Math.min(distinct.size(), from + 500));
            jdbc.query(
                            "SELECT id, status, finished_at, summary FROM dispatches WHERE id IN ("
                                    + Jdbc.marks(batch.size()) + ")",
                            row -> Map.entry(row.string(1), ending(row)),
                            batch.toArray())
                    .forEach(e -> endings.put(e.getKey(), e.getValue()));
        }
        return endings;
    }

    private ContainerReaper.Ending ending(Jdbc.Row row) {
        DispatchSummary summary = json.read(row.string(4), DispatchSummary.class);
        return new ContainerReaper.Ending(
                Dispatch.Status.fromWire(row.string(2)).terminal(),
                row.instant(3),
                summary == null ? 0 : summary.stdoutBytes() + summary.stderrBytes());
    }

    private Dispatch record(Jdbc.Row row, boolean withResult) {
        return new Dispatch(
                row.string("id"),
                Dispatch.Status.fromWire(row.string("status")),
                row.string("image"),
                row.instant("created_at"),
                row.instant("started_at"),
                row.instant("finished_at"),
                json.read(row.string("metadata"), METADATA),
                row.string("callback_url"),
                withResult ? result(row) : null,
                json.read(row.string("summary"), DispatchSummary.class),
                row.string("worker_id"),
                row.string("container_id"),
                row.bool("has_secrets"),
                row.string("fingerprint"),
                (int) row.number("attempt"),
                row.string("trace_parent"));
    }
}
