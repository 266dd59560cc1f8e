package dev.sluice.group;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import com.fasterxml.jackson.core.type.TypeReference;

import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchStore;
import dev.sluice.store.Jdbc;
import dev.sluice.store.JsonColumns;

/**
 * Groups in the dispatch store (V7): the group row and its member list. A
 * member's status is its dispatch's; {@code reported_in} says which batch
 * reported it ({@link GroupBatches#IN_FINAL} for the final callback).
 */
class GroupStore {

    private static final TypeReference<Map<String, Object>> METADATA = new TypeReference<>() {};

    /** A group to record with its members. */
    record NewGroup(
            String id, String callbackUrl, long maxDigestBytes, Map<String, Object> metadata, Instant createdAt) {}

    /** A group's row. */
    record Row(
            String id,
            String callbackUrl,
            long maxDigestBytes,
            long spentBytes,
            int batches,
            Map<String, Object> metadata,
            Instant createdAt) {}

    private final Jdbc jdbc;
    private final JsonColumns json;
    private final DispatchStore dispatches;

    GroupStore(Jdbc jdbc, JsonColumns json, DispatchStore dispatches) {
        this.jdbc = jdbc;
        this.json = json;
        this.dispatches = dispatches;
    }

    /**
     * Deletes the groups whose final callback was made before {@code before},
     * their member lists with them; the members' own records are reaped as
     * any dispatch's. Returns how many groups it deleted.
     */
    int reapFinished(Instant before) {
        return jdbc.update("DELETE FROM dispatch_groups WHERE status = 'finished' AND finished_at < ?", before);
    }

    /** Records a group and its members' order, in the transaction that records the member dispatches. */
    void insert(Jdbc.Tx tx, NewGroup group, List<String> memberIds) {
        tx.update(
                "INSERT INTO dispatch_groups (id, tenant, status, callback_url, max_digest_bytes, member_count, "
                        + "metadata, created_at) VALUES (?, ?, 'running', ?, ?, ?, ?, ?)",
                group.id(),
                DispatchKey.tenantOf(group.id()),
                group.callbackUrl(),
                group.maxDigestBytes(),
                memberIds.size(),
                group.metadata() == null ? null : json.write(group.metadata()),
                group.createdAt());
        tx.batch(
                "INSERT INTO dispatch_group_members (group_id, member_index, dispatch_id) VALUES (?, ?, ?)",
                IntStream.range(0, memberIds.size())
                        .mapToObj(i -> new Object[] {group.id(), i, memberIds.get(i)})
                        .toList());
    }

    Optional<Row> find(String id) {
        return jdbc.one(
                "SELECT id, callback_url, max_digest_bytes, spent_bytes, batches, metadata, created_at "
                        + "FROM dispatch_groups WHERE id = ?",
                this::row,
                id);
    }

    /** The members in request order; a member whose dispatch record is gone has a null status. */
    List<GroupBatches.Member> members(String id) {
        List<Listed> listed = jdbc.query(MEMBERS, GroupStore::listed, id);
        return members(listed, dispatches.standings(ids(listed)));
    }

    /** Groups whose final callback is not made yet, oldest first. */
    List<String> running(int limit) {
        return jdbc.query(
                "SELECT id FROM dispatch_groups WHERE status = 'running' ORDER BY created_at LIMIT ?",
                row -> row.string(1),
                limit);
    }

    /**
     * Runs one round for a group with its row locked, so that of two workers
     * sharing the store only one makes a batch; the messages are queued by
     * {@code queue} in the same transaction. False when the round changed
     * nothing (or the group is finished or gone).
     */
    boolean round(String id, Instant now, RoundWork work) {
        return jdbc.transaction("group round", tx -> {
            Optional<GroupBatches.Group> group = tx.one(
                    "SELECT id, callback_url, max_digest_bytes, spent_bytes, batches FROM dispatch_groups "
                            + "WHERE id = ? AND status = 'running' FOR UPDATE",
                    row -> new GroupBatches.Group(
                            row.string("id"),
                            row.string("callback_url"),
                            row.number("max_digest_bytes"),
                            row.number("spent_bytes"),
                            (int) row.number("batches")),
                    id);
            if (group.isEmpty()) {
                return false;
            }
            List<Listed> listed = tx.query(MEMBERS, GroupStore::listed, id);
            GroupBatches.Round round = work.round(group.get(), members(listed, dispatches.standings(tx, ids(listed))));
            if (!round.changes()) {
                return false;
            }
            tx.batch(
                    "UPDATE dispatch_group_members SET reported_in = ? WHERE group_id = ? AND dispatch_id = ?",
                    round.reported().entrySet().stream()
                            .map(e -> new Object[] {e.getValue(), id, e.getKey()})
                            .toList());
            tx.update(
                    "UPDATE dispatch_groups SET spent_bytes = ?, batches = ?, status = ?, finished_at = ? WHERE id = ?",
                    round.spentBytes(),
                    round.batches(),
                    round.finished() ? "finished" : "running",
                    round.finished() ? now : null,
                    id);
            work.queue(tx, group.get(), round.messages());
            return !round.messages().isEmpty();
        });
    }

    /** What a round does inside its transaction. */
    interface RoundWork {
        GroupBatches.Round round(GroupBatches.Group group, List<GroupBatches.Member> members);

        void queue(Jdbc.Tx tx, GroupBatches.Group group, List<GroupBatches.Message> messages);
    }

    /** A member as the group lists it: its dispatch, and the batch that reported it (null while none has). */
    private record Listed(String dispatchId, Integer reportedIn) {}

    private static final String MEMBERS =
            "SELECT dispatch_id, reported_in FROM dispatch_group_members " + "WHERE group_id = ? ORDER BY member_index";

    private static Listed listed(Jdbc.Row row) {
        return new Listed(row.string("dispatch_id"), row.integer("reported_in"));
    }

    private static List<String> ids(List<Listed> listed) {
        return listed.stream().map(Listed::dispatchId).toList();
    }

    /** Each member with where its dispatch stands, as the record has it; absent records give a null status. */
    private static List<GroupBatches.Member> members(
            List<Listed> listed, Map<String, DispatchStore.Standing> standings) {
        return listed.stream()
                .map(m -> {
                    DispatchStore.Standing standing = standings.get(m.dispatchId());
                    return new GroupBatches.Member(
                            m.dispatchId(),
                            standing == null ? null : standing.status(),
                            standing == null ? null : standing.finishedAt(),
                            m.reportedIn());
                })
                .toList();
    }

    private Row row(Jdbc.Row row) {
        return new Row(
                row.string("id"),
                row.string("callback_url"),
                row.number("max_digest_bytes"),
                row.number("spent_bytes"),
                (int) row.number("batches"),
                json.read(row.string("metadata"), METADATA),
                row.instant("created_at"));
    }
}
