package dev.sluice.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import javax.sql.DataSource;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.sluice.testsupport.TestStores;

/**
 * The table of pulled images (V10, ADR 0062) on both stores the worker runs
 * on, embedded H2 and a real PostgreSQL server (scripts/postgres.sh starts
 * one, with a database of this test's own): rows are per engine, a use moves
 * only forward, pages of unused rows follow one another without a gap, and a
 * claim is taken once and only while the row is still unused.
 */
class PulledImagesIT {

    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00.123456Z");

    static Stream<Arguments> stores() {
        return Stream.of(
                Arguments.of("h2", TestStores.h2()),
                Arguments.of("postgresql", TestStores.postgres("sluice_images_test")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void rowsArePerEngineAndPagedLongestUnusedFirst(String kind, DataSource ds) {
        PulledImages store = new PulledImages(TestStores.migratedEmpty(ds));
        for (int i = 0; i < 5; i++) {
            store.pulled("engine-a", "reg.example/a/" + i + ":1", "sha256:" + i, T0.plusSeconds(i % 2), true);
        }
        store.pulled("engine-b", "reg.example/a/0:1", "sha256:other", T0, true);
        store.pulled("engine-a", "reg.example/held:1", "sha256:h", T0, false); // held before the pull: no row

        PulledImages.Pulled last = null;
        StringBuilder order = new StringBuilder();
        for (int page = 0; page < 3; page++) {
            var rows = store.unused("engine-a", T0.plusSeconds(5), last, 2);
            for (var row : rows) {
                order.append(row.reference().charAt(14));
                last = row;
            }
        }
        assertThat(order.toString()).isEqualTo("02413"); // by last use, then by reference
        assertThat(store.unused("engine-b", T0.plusSeconds(5), null, 10)).hasSize(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aUseMovesForwardAndAClaimIsTakenOnceWhileUnused(String kind, DataSource ds) {
        PulledImages store = new PulledImages(TestStores.migratedEmpty(ds));
        store.pulled("engine-a", "reg.example/a:1", "sha256:a", T0, true);
        store.used("engine-a", "reg.example/a:1", T0.plus(Duration.ofMinutes(10)));
        store.used("engine-a", "reg.example/a:1", T0.plus(Duration.ofMinutes(5))); // a replica's clock behind
        var row =
                store.unused("engine-a", T0.plus(Duration.ofHours(1)), null, 10).get(0);
        assertThat(row)
                .isEqualTo(new PulledImages.Pulled("reg.example/a:1", "sha256:a", T0, T0.plus(Duration.ofMinutes(10))));

        assertThat(store.claim("engine-a", row, T0.plus(Duration.ofMinutes(10))))
                .as("used since")
                .isFalse();
        assertThat(store.claim("engine-a", row, T0.plus(Duration.ofHours(1)))).isTrue();
        assertThat(store.claim("engine-a", row, T0.plus(Duration.ofHours(1))))
                .as("taken already")
                .isFalse();

        store.restore("engine-a", row);
        assertThat(store.unused("engine-a", T0.plus(Duration.ofHours(1)), null, 10))
                .containsExactly(row);
    }
}
