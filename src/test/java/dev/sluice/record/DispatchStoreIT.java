package dev.sluice.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.artifact.ArtifactStore;
import dev.sluice.store.Jdbc;
import dev.sluice.store.ResultBodies;
import dev.sluice.testsupport.StoreFixtures;
import dev.sluice.testsupport.TestStores;

/**
 * The store against both databases it supports, through the same migration:
 * embedded H2 and a real PostgreSQL server (scripts/postgres.sh starts one).
 */
class DispatchStoreIT {

    private static final Instant T0 = Instant.parse("2026-11-22T10:00:00.123Z");

    static Stream<Arguments> stores() {
        return Stream.of(Arguments.of("h2", TestStores.h2()), Arguments.of("postgresql", TestStores.postgres()));
    }

    /** The store's record and state-machine sides over one freshly migrated database. */
    private record Db(DispatchStore store, DispatchTransitions transitions, Jdbc jdbc, ResultBodies bodies) {

        boolean finish(DispatchResult r) {
            return transitions.finish(
                    StoredDispatches.closing(r), DispatchTransitions.From.ANY_UNFINISHED, StoredDispatches.NO_OUTBOX);
        }

        boolean finishQueued(DispatchResult r) {
            return transitions.finish(
                    StoredDispatches.closing(r), DispatchTransitions.From.QUEUED, StoredDispatches.NO_OUTBOX);
        }
    }

    private static Db migrated(String kind, DataSource ds) {
        Jdbc jdbc = TestStores.migratedEmpty(ds);
        ResultBodies bodies = TestStores.bodiesFor(kind, jdbc);
        return new Db(
                new DispatchStore(jdbc, TestStores.json(), bodies),
                new DispatchTransitions(jdbc, TestStores.json(), bodies),
                jdbc,
                bodies);
    }

    static DispatchSpec spec(String image) {
        return StoreFixtures.spec(image, "https://cp.example/hook");
    }

    private static DispatchResult result(String id, Dispatch.Status status, String stdout) {
        return StoredDispatches.result(id, status, stdout, T0.plusSeconds(5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void theDigestIsKeptBesideTheResultAndMadeFromItForOlderRows(String kind, DataSource ds) {
        Db db = migrated(kind, ds);
        db.store().insert(new DispatchStore.NewDispatch("d-1", spec("img:1"), "fp", "w1", T0));
        assertThat(new String(db.store().digest("d-1").orElseThrow(), StandardCharsets.UTF_8))
                .startsWith("{\"id\":\"d-1\",\"tenant\":\"default\",\"status\":\"queued\",\"exitCode\":null,");
        DispatchResult result = result("d-1", Dispatch.Status.SUCCEEDED, "out");
        assertThat(db.finish(result)).isTrue();
        byte[] stored = db.store().digest("d-1").orElseThrow();
        assertThat(stored).isEqualTo(StoredDispatches.closing(result).digest());

        // A row finished before the digest column existed: the digest is made from its stored result.
        db.jdbc().update("UPDATE dispatches SET digest = NULL WHERE id = ?", "d-1");
        assertThat(db.store().digest("d-1").orElseThrow()).isEqualTo(stored);
        assertThat(db.store().digest("d-2")).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aRecordRoundTripsWithoutItsSecretValues(String kind, DataSource ds) throws Exception {
        Db db = migrated(kind, ds);
        DispatchStore store = db.store();
        assertThat(store.insert(new DispatchStore.NewDispatch("d-1", spec("img:1"), "fp", "w1", T0)))
                .isTrue();

        Dispatch d = store.find("d-1").orElseThrow();
        assertThat(d.status()).isEqualTo(Dispatch.Status.QUEUED);
        assertThat(d.createdAt()).isEqualTo(T0);
        assertThat(d.metadata()).containsEntry("task", "review-42").containsEntry("attempt", 2);
        assertThat(d.callbackUrl()).isEqualTo("https://cp.example/hook");
        assertThat(d.hasSecrets()).isTrue();
        assertThat(d.fingerprint()).isEqualTo("fp");
        assertThat(d.result()).isNull();

        DispatchSpec stored = store.spec("d-1").orElseThrow();
        assertThat(stored.secretNames()).containsExactly("API_KEY");
        assertThat(stored.secretsMissing()).isTrue();
        assertThat(stored.timeout()).isEqualTo(Duration.ofMinutes(15));
        assertThat(stored.input()).isEqualTo("input text");
        try (Connection c = ds.getConnection();
                ResultSet rs = c.createStatement().executeQuery("SELECT * FROM dispatches")) {
            while (rs.next()) {
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    assertThat(String.valueOf(rs.getObject(i))).doesNotContain("the-secret-value");
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anIdIsTakenOnce(String kind, DataSource ds) {
        Db db = migrated(kind, ds);
        DispatchStore store = db.store();
        assertThat(store.insert(new DispatchStore.NewDispatch("d-1", spec("img:1"), "fp", "w1", T0)))
                .isTrue();
        assertThat(store.insert(new DispatchStore.NewDispatch("d-1", spec("img:2"), "other", "w1", T0)))
                .isFalse();
        assertThat(store.find("d-1").orElseThrow().image()).isEqualTo("img:1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void statesMoveForwardOnlyAndTerminalOnesNeverChange(String kind, DataSource ds) {
        Db db = migrated(kind, ds);
        DispatchStore store = db.store();
        store.insert(new DispatchStore.NewDispatch("d-1", spec("img:1"), "fp", "w1", T0));

        assertThat(db.transitions().markRunning("d-1", T0)).isFalse(); // not starting yet
        assertThat(db.transitions().markStarting("d-1", "w1"))
                .as("not claimed yet")
                .isFalse();
        assertThat(new DispatchQueue(db.jdbc(), "w1").claim("default", false)).isPresent();
        assertThat(db.transitions().markStarting("d-1", "w1")).isTrue();
        assertThat(db.transitions().markStarting("d-1", "w1")).isFalse();
        db.transitions().recordContainer("d-1", "c0ffee");
        assertThat(db.transitions().markRunning("d-1", T0.plusSeconds(1))).isTrue();
        DispatchResult done = result("d-1", Dispatch.Status.SUCCEEDED, "out");
        assertThat(db.finish(done)).isTrue();

        DispatchResult late = result("d-1", Dispatch.Status.FAILED, "other");
        assertThat(db.finish(late)).isFalse();
        assertThat(db.transitions().requestCancel("d-1")).isFalse();
        Dispatch d = store.find("d-1").orElseThrow();
        assertThat(d.status()).isEqualTo(Dispatch.Status.SUCCEEDED);
        assertThat(TestStores.json().read(d.result().json(), DispatchResult.class))
                .isEqualTo(done);
        assertThat(d.summary().stdoutTruncated()).isTrue();
        assertThat(d.containerId()).isEqualTo("c0ffee");
        assertThat(d.startedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(d.finishedAt()).isEqualTo(T0.plusSeconds(5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aQueuedFinishOnlyAppliesWhileQueued(String kind, DataSource ds) {
        Db db = migrated(kind, ds);
        DispatchStore store = db.store();
        store.insert(new DispatchStore.NewDispatch("d-1", spec("img:1"), "fp", "w1", T0));
        store.insert(new DispatchStore.NewDispatch("d-2", spec("img:1"), "fp", "w1", T0));
        DispatchQueue queue = new DispatchQueue(db.jdbc(), "w1");
        queue.claim("default", false);
        queue.claim("default", false);
        assertThat(db.transitions().markStarting("d-2", "w1")).isTrue();
        DispatchResult c1 = result("d-1", Dispatch.Status.CANCELLED, "");
        DispatchResult c2 = result("d-2", Dispatch.Status.CANCELLED, "");
        assertThat(db.finishQueued(c1)).isTrue();
        assertThat(db.finishQueued(c2)).isFalse();
        assertThat(db.transitions().markQueuedAgain("d-2")).isTrue();
        assertThat(store.find("d-2").orElseThrow().status()).isEqualTo(Dispatch.Status.QUEUED);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void listingIsNewestFirstFilteredAndPaged(String kind, DataSource ds) {
        Db db = migrated(kind, ds);
        DispatchStore store = db.store();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            String id = "d-" + i;
            ids.add(0, id);
            store.insert(new DispatchStore.NewDispatch(id, spec("img:1"), "fp", "w1", T0.plusSeconds(i)));
        }
        DispatchResult failed = result("d-3", Dispatch.Status.FAILED, "");
        db.finish(failed);

        DispatchStore.Page first = store.list(null, null, 3, null);
        assertThat(first.items()).extracting(Dispatch::id).containsExactly("d-6", "d-5", "d-4");
        assertThat(first.items().get(0).result()).isNull(); // listings carry summaries, not results
        DispatchStore.Page second = store.list(null, null, 3, first.nextAfter());
        assertThat(second.items()).extracting(Dispatch::id).containsExactly("d-3", "d-2", "d-1");
        DispatchStore.Page last = store.list(null, null, 3, second.nextAfter());
        assertThat(last.items()).extracting(Dispatch::id).containsExactly("d-0");
        assertThat(last.nextAfter()).isNull();

        assertThat(store.list(null, Dispatch.Status.FAILED, 10, null).items())
                .extracting(Dispatch::id)
                .containsExactly("d-3");
        assertThat(store.list(null, Dispatch.Status.QUEUED, 10, null).items()).hasSize(6);
        assertThatThrownBy(() -> store.list(null, null, 3, "d-unknown")).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void expiredFinishedRecordsAreFoundAndOnlyThoseDeleted(String kind, DataSource ds) throws IOException {
        Db db = migrated(kind, ds);
        DispatchStore store = db.store();
        store.insert(new DispatchStore.NewDispatch("old", spec("img:1"), "fp", "w1", T0));
        store.insert(new DispatchStore.NewDispatch("running", spec("img:1"), "fp", "w1", T0));
        DispatchResult old = result("old", Dispatch.Status.SUCCEEDED, "");
        db.finish(old);

        Path artifacts = Files.createTempDirectory("artifacts");
        Files.createDirectories(artifacts.resolve("old"));
        Files.writeString(artifacts.resolve("old").resolve("f"), "kept with the record");
        Files.createDirectories(artifacts.resolve("running"));
        RecordReaper reaper = new RecordReaper(
                db.jdbc(),
                db.bodies(),
                new ArtifactStore(artifacts, Duration.ofDays(30), Clock.systemUTC()),
                Duration.ofDays(1));
        assertThat(reaper.reap(T0.plus(12, ChronoUnit.HOURS))).isZero();
        assertThat(reaper.reap(T0.plus(2, ChronoUnit.DAYS))).isEqualTo(1);
        assertThat(store.find("old")).isEmpty();
        assertThat(artifacts.resolve("old")).doesNotExist(); // the artifacts go with their record
        assertThat(artifacts.resolve("running")).exists();
        assertThat(store.find("running")).isPresent();
        // Even one whose times say it finished long ago is kept while its status is not terminal.
        db.jdbc().update("UPDATE dispatches SET finished_at = ? WHERE id = 'running'", T0);
        assertThat(reaper.reap(T0.plus(400, ChronoUnit.DAYS))).isZero();
        assertThat(store.find("running")).isPresent();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void largeResultsAndAnyUnicodeRoundTrip(String kind, DataSource ds) {
        Db db = migrated(kind, ds);
        DispatchStore store = db.store();
        store.insert(new DispatchStore.NewDispatch("big", spec("img:1"), "fp", "w1", T0));
        String text = "h\u00e9llo \uD83D\uDE00 \uFFFD \u0000 tab\t\n".repeat(200_000); // ~5 MB, a NUL included
        DispatchResult big = result("big", Dispatch.Status.SUCCEEDED, text);
        assertThat(db.finish(big)).isTrue();
        DispatchResult read =
                TestStores.json().read(store.find("big").orElseThrow().result().json(), DispatchResult.class);
        assertThat(read.stdout().toString()).isEqualTo(text);
    }
}
