package dev.sluice.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.callback.CallbackStore;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchStore;
import dev.sluice.record.StoredDispatches;
import dev.sluice.store.Jdbc;
import dev.sluice.store.ResultBodies;
import dev.sluice.store.ResultFiles;
import dev.sluice.testsupport.StoreFixtures;
import dev.sluice.testsupport.TestStores;

/**
 * A group in the store, on both databases the worker supports (ADR 0028):
 * recorded with its members in one transaction or not at all, and, across a
 * restart (a new connection pool over the same database), still there with
 * its members, its reported completions and its queued callbacks, so the
 * next worker goes on where the last stopped without repeating a member.
 */
class GroupStoreIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final String URL = "https://parent.example/hooks";

    /** The database, and how to open it again as a restarted worker would. */
    static Stream<Arguments> stores() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "groups-h2-");
        Path file = dir.resolve("store");
        Supplier<DataSource> h2 = () -> TestStores.h2File(file);
        Supplier<DataSource> postgres = () -> TestStores.postgres("sluice_groups_test");
        return Stream.of(Arguments.of("h2", h2, dir), Arguments.of("postgresql", postgres, dir));
    }

    /** One worker's view of the store. */
    private record Worker(
            Jdbc jdbc, GroupStore groups, StoredDispatches dispatches, CallbackStore outbox, GroupQueries queries) {

        GroupBatcher batcher(Instant now) {
            return new GroupBatcher(
                    groups,
                    new GroupBatches(Duration.ofSeconds(2)),
                    outbox,
                    id -> dispatches.store().digest(id).orElseThrow(),
                    Clock.fixed(now, ZoneOffset.UTC),
                    queued -> {});
        }
    }

    private static Worker start(String kind, Jdbc jdbc, Path dir) {
        ResultBodies bodies = kind.equals("h2")
                ? new ResultFiles(dir.resolve("results"), jdbc, Clock.systemUTC())
                : ResultBodies.inRows();
        CallbackStore outbox = new CallbackStore(jdbc, () -> T0);
        StoredDispatches dispatches = new StoredDispatches(jdbc, StoredDispatches.NO_OUTBOX, bodies);
        GroupStore groups = new GroupStore(jdbc, TestStores.json(), dispatches.store());
        return new Worker(jdbc, groups, dispatches, outbox, new GroupQueries(groups, dispatches.store()));
    }

    private static List<DispatchStore.NewDispatch> members(String... ids) {
        List<DispatchStore.NewDispatch> members = new ArrayList<>();
        for (String id : ids) {
            members.add(new DispatchStore.NewDispatch(id, StoreFixtures.spec("img:1", null), "fp", "w1", T0));
        }
        return members;
    }

    private static void insert(Worker w, String groupId, List<DispatchStore.NewDispatch> members) {
        GroupStore.NewGroup group = new GroupStore.NewGroup(groupId, URL, 6144, Map.of("task", "all"), T0);
        w.dispatches()
                .store()
                .insertAll(
                        members,
                        tx -> w.groups()
                                .insert(
                                        tx,
                                        group,
                                        members.stream()
                                                .map(DispatchStore.NewDispatch::id)
                                                .toList()));
    }

    private static String body(Worker w, String webhookId) {
        return w.jdbc()
                .one(
                        "SELECT body FROM callback_outbox WHERE webhook_id = ? AND dispatch_id IS NULL",
                        row -> new String(row.bytes("body"), StandardCharsets.UTF_8),
                        webhookId)
                .orElseThrow();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aGroupAndItsCallbacksOutliveTheWorker(String kind, Supplier<DataSource> database, Path dir) throws Exception {
        Worker first = start(kind, TestStores.migratedEmpty(database.get()), dir);
        insert(first, "g-one", members("m-a", "m-b"));
        first.dispatches().finish(StoredDispatches.result("m-a", Dispatch.Status.SUCCEEDED, "a", T0.plusSeconds(1)));
        assertThat(first.batcher(T0.plusSeconds(4)).run()).isEqualTo(1);

        Worker second = start(kind, new Jdbc(database.get()), dir); // a restarted worker, a new pool
        DispatchGroup group = second.queries().find("g-one").orElseThrow();
        assertThat(group.finished()).isFalse();
        assertThat(group.metadata()).containsEntry("task", "all");
        assertThat(group.batches()).isEqualTo(1);
        assertThat(group.spentBytes()).isPositive().isLessThanOrEqualTo(6144);
        assertThat(group.members()).extracting(DispatchGroup.Member::id).containsExactly("m-a", "m-b");
        assertThat(group.members())
                .extracting(DispatchGroup.Member::status)
                .containsExactly(Dispatch.Status.SUCCEEDED, Dispatch.Status.QUEUED);
        JsonNode batch = JSON.readTree(body(second, "msg_g-one_b1"));
        assertThat(batch.path("items").findValuesAsText("id")).containsExactly("m-a");

        second.dispatches().finish(StoredDispatches.result("m-b", Dispatch.Status.FAILED, "b", T0.plusSeconds(5)));
        assertThat(second.batcher(T0.plusSeconds(5)).run()).isEqualTo(1);
        assertThat(second.batcher(T0.plusSeconds(9)).run()).isZero(); // finished: nothing more

        JsonNode last = JSON.readTree(body(second, "msg_g-one_final"));
        assertThat(last.path("counts").path("succeeded").asInt()).isEqualTo(1);
        assertThat(last.path("counts").path("failed").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(body(second, "msg_g-one_b2")).path("items").findValuesAsText("id"))
                .containsExactly("m-b");
        assertThat(second.queries().find("g-one").orElseThrow().finished()).isTrue();
        assertThat(second.outbox().pending(Duration.ofSeconds(5))).isEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void finishedGroupsAndTheMessagesThatEndedAreDeletedOnceOlderThanTheRetention(
            String kind, Supplier<DataSource> database, Path dir) {
        Worker w = start(kind, TestStores.migratedEmpty(database.get()), dir);
        insert(w, "g-done", members("d-a"));
        insert(w, "g-open", members("o-a", "o-b"));
        w.dispatches().finish(StoredDispatches.result("d-a", Dispatch.Status.SUCCEEDED, "a", T0.plusSeconds(1)));
        w.dispatches().finish(StoredDispatches.result("o-a", Dispatch.Status.SUCCEEDED, "a", T0.plusSeconds(1)));
        w.batcher(T0.plusSeconds(5)).run(); // g-done finishes; g-open waits for o-b
        Instant finished = T0.plusSeconds(5);

        assertThat(w.groups().reapFinished(finished)).isZero();
        assertThat(w.groups().reapFinished(finished.plusMillis(1))).isEqualTo(1);
        assertThat(w.queries().find("g-done")).isEmpty();
        assertThat(w.queries().find("g-open")).isPresent();
        assertThat(w.jdbc()
                        .one(
                                "SELECT COUNT(*) FROM dispatch_group_members WHERE group_id = ?",
                                r -> r.number(1),
                                "g-done")
                        .orElseThrow())
                .isZero();
        assertThat(w.dispatches().store().find("d-a"))
                .as("the member's record has its own retention")
                .isPresent();

        // Messages that are still to be sent stay, however old; delivered and dead ones go.
        Instant later = T0.plus(Duration.ofDays(60));
        assertThat(w.outbox().reapMessages(later)).isZero();
        w.jdbc()
                .update(
                        "UPDATE callback_outbox SET state = 'delivered', delivered_at = ? WHERE webhook_id = ? AND dispatch_id IS NULL",
                        finished,
                        "msg_g-done_b1");
        w.jdbc()
                .update(
                        "UPDATE callback_outbox SET state = 'dead', last_attempt_at = ? WHERE webhook_id = ? AND dispatch_id IS NULL",
                        later,
                        "msg_g-done_final");
        assertThat(w.outbox().reapMessages(later)).isEqualTo(1);
        assertThat(w.jdbc()
                        .one("SELECT COUNT(*) FROM callback_outbox WHERE dispatch_id IS NULL", r -> r.number(1))
                        .orElseThrow())
                .isEqualTo(2L); // the dead one that ended just now, and g-open's first batch
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aGroupWithATakenMemberIdRecordsNothing(String kind, Supplier<DataSource> database, Path dir) {
        Worker w = start(kind, TestStores.migratedEmpty(database.get()), dir);
        insert(w, "g-first", members("taken"));

        List<DispatchStore.NewDispatch> members = members("fresh", "taken");
        GroupStore.NewGroup group = new GroupStore.NewGroup("g-second", URL, 6144, null, T0);
        assertThat(w.dispatches()
                        .store()
                        .insertAll(members, tx -> w.groups().insert(tx, group, List.of("fresh", "taken"))))
                .contains("taken");

        assertThat(w.queries().find("g-second")).isEmpty();
        assertThat(w.dispatches().store().find("fresh")).isEmpty();
    }
}
