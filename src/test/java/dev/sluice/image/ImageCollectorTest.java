package dev.sluice.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.ContainerException;
import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.ImagePatterns;
import dev.sluice.store.Jdbc;
import dev.sluice.testsupport.MutableClock;
import dev.sluice.testsupport.ScriptedEngine;
import dev.sluice.testsupport.ScriptedEngine.Reply;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.TestStores;

/**
 * The collection of unused images (ADR 0062) on a real embedded store, with
 * the real engine client against an engine of our own that holds a few
 * images by reference, refuses to remove one a container uses, and records
 * every removal it was asked for.
 */
class ImageCollectorTest {

    private static final String ENGINE = "ENGINE:ONE";
    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    private static final Duration RETENTION = Duration.ofHours(1);
    private static final ImagePatterns NONE = new ImagePatterns(List.of());

    private final MutableClock clock = new MutableClock(T0);
    private final Images images = new Images();
    private final List<ImageRemoved> announced = new CopyOnWriteArrayList<>();
    private ScriptedEngine engine;
    private DockerClients clients;
    private EngineImages engineImages;
    private Jdbc jdbc;
    private PulledImages store;

    @BeforeEach
    void start() {
        engine = ScriptedEngine.start(ScriptedEngine.Transport.UNIX, images::answer);
        clients = DockerClients.connect(new TestDocker.Docker(
                Optional.of(engine.host().toString()),
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                8));
        engineImages = new EngineImages(clients);
        jdbc = TestStores.migratedEmpty(TestStores.h2());
        store = new PulledImages(jdbc);
    }

    @AfterEach
    void stop() throws Exception {
        clients.close();
        engine.close();
    }

    @Test
    void removesWhatNoDispatchUsedForTheRetentionAndNothingElse() {
        pulledAt("reg.example/a/old:1", "sha256:aaa", T0);
        pulledAt("reg.example/a/recent:1", "sha256:bbb", T0.plus(Duration.ofMinutes(30)));
        images.hold("reg.example/a/loaded:1", "sha256:ccc"); // the operator's: on the engine, never pulled
        clock.set(T0.plus(Duration.ofMinutes(61)));

        assertThat(collector(NONE, 20).collect()).containsExactly("reg.example/a/old:1");

        assertThat(images.removals).containsExactly("reg.example/a/old:1");
        assertThat(images.held).containsOnlyKeys("reg.example/a/recent:1", "reg.example/a/loaded:1");
        assertThat(references()).containsExactly("reg.example/a/recent:1");
        assertThat(announced).hasSize(1);
    }

    @Test
    void aUseAtTheCreateKeepsTheImageForAnotherRetention() {
        pulledAt("reg.example/a/used:1", "sha256:aaa", T0);
        clock.set(T0.plus(Duration.ofMinutes(50)));
        new ImageUses(store, engineImages, clock).used(ImageName.parse("reg.example/a/used:1"));
        clock.set(T0.plus(Duration.ofMinutes(61)));

        assertThat(collector(NONE, 20).collect()).isEmpty();
        clock.set(T0.plus(Duration.ofMinutes(111)));
        assertThat(collector(NONE, 20).collect()).containsExactly("reg.example/a/used:1");
    }

    @Test
    void pinnedImagesStayAndTakeNoPlaceInTheBatch() {
        // The pinned ones are the oldest: were they counted, a batch of two would remove nothing.
        pulledAt("reg.example/keep/x:1", "sha256:k1", T0);
        pulledAt("reg.example/keep/y:1", "sha256:k2", T0.plusSeconds(1));
        pulledAt("reg.example/a/one:1", "sha256:a1", T0.plusSeconds(2));
        pulledAt("reg.example/a/two:1", "sha256:a2", T0.plusSeconds(3));
        pulledAt("reg.example/a/three:1", "sha256:a3", T0.plusSeconds(4));
        clock.set(T0.plus(Duration.ofHours(2)));
        ImageCollector collector = collector(new ImagePatterns(List.of("reg.example/keep/*")), 2);

        assertThat(collector.collect()).containsExactly("reg.example/a/one:1", "reg.example/a/two:1");
        assertThat(collector.collect()).containsExactly("reg.example/a/three:1");
        assertThat(collector.collect()).isEmpty();

        assertThat(images.held).containsOnlyKeys("reg.example/keep/x:1", "reg.example/keep/y:1");
        assertThat(references()).containsExactly("reg.example/keep/x:1", "reg.example/keep/y:1");
    }

    @Test
    void anImageAContainerUsesKeepsItsRowAsItWas() {
        pulledAt("reg.example/a/busy:1", "sha256:aaa", T0);
        images.inUse.add("reg.example/a/busy:1");
        clock.set(T0.plus(Duration.ofHours(2)));

        assertThat(collector(NONE, 20).collect()).isEmpty();

        assertThat(images.removals).containsExactly("reg.example/a/busy:1");
        assertThat(images.held).containsKey("reg.example/a/busy:1");
        assertThat(store.unused(ENGINE, clock.instant(), null, 10))
                .containsExactly(new PulledImages.Pulled("reg.example/a/busy:1", "sha256:aaa", T0, T0));
        assertThat(announced).isEmpty();

        images.inUse.clear(); // its container was removed
        assertThat(collector(NONE, 20).collect()).containsExactly("reg.example/a/busy:1");
    }

    @Test
    void anImageGoneOrTaggedAnewIsForgottenAndNotRemoved() {
        pulledAt("reg.example/a/gone:1", "sha256:aaa", T0);
        pulledAt("reg.example/a/retagged:1", "sha256:bbb", T0);
        images.held.remove("reg.example/a/gone:1");
        images.hold("reg.example/a/retagged:1", "sha256:operators");
        clock.set(T0.plus(Duration.ofHours(2)));

        assertThat(collector(NONE, 20).collect()).isEmpty();

        assertThat(images.removals).isEmpty();
        assertThat(images.held).containsKey("reg.example/a/retagged:1");
        assertThat(references()).isEmpty();
    }

    @Test
    void anEngineThatFailsARemovalEndsTheRoundAndKeepsTheRow() {
        pulledAt("reg.example/a/one:1", "sha256:aaa", T0);
        pulledAt("reg.example/a/two:1", "sha256:bbb", T0.plusSeconds(1));
        images.failRemovals = true;
        clock.set(T0.plus(Duration.ofHours(2)));

        assertThatThrownBy(() -> collector(NONE, 20).collect())
                .isInstanceOf(ContainerException.class)
                .hasMessageContaining("remove image");

        assertThat(images.removals).containsExactly("reg.example/a/one:1");
        assertThat(references()).containsExactly("reg.example/a/one:1", "reg.example/a/two:1");
    }

    @Test
    void aRetentionOfZeroTurnsTheCollectorOff() {
        pulledAt("reg.example/a/old:1", "sha256:aaa", T0);
        clock.set(T0.plus(Duration.ofDays(30)));

        ImageCollector off = new ImageCollector(store, engineImages, NONE, Duration.ZERO, 20, clock, announced::add);

        assertThat(off.collect()).isEmpty();
        assertThat(images.removals).isEmpty();
        assertThat(references()).containsExactly("reg.example/a/old:1");
    }

    @Test
    void onlyAPullOfAReferenceTheEngineDidNotHoldMakesItTheWorkers() {
        ImageUses uses = new ImageUses(store, engineImages, clock);
        images.hold("reg.example/a/loaded:1", "sha256:operators");

        uses.pull(ImageName.parse("reg.example/a/loaded:1"), () -> images.hold("reg.example/a/loaded:1", "sha256:new"));
        uses.pull(ImageName.parse("reg.example/a/absent:1"), () -> images.hold("reg.example/a/absent:1", "sha256:p"));

        assertThat(store.unused(ENGINE, T0.plusSeconds(1), null, 10))
                .containsExactly(new PulledImages.Pulled("reg.example/a/absent:1", "sha256:p", T0, T0));

        // Pulled again (policy always) once it is the worker's: the row follows the image the reference names now.
        clock.set(T0.plusSeconds(60));
        uses.pull(ImageName.parse("reg.example/a/absent:1"), () -> images.hold("reg.example/a/absent:1", "sha256:q"));
        assertThat(store.unused(ENGINE, T0.plusSeconds(61), null, 10))
                .containsExactly(new PulledImages.Pulled(
                        "reg.example/a/absent:1", "sha256:q", T0.plusSeconds(60), T0.plusSeconds(60)));
    }

    @Test
    void aFailedPullRecordsNothing() {
        ImageUses uses = new ImageUses(store, engineImages, clock);

        assertThatThrownBy(() -> uses.pull(ImageName.parse("reg.example/a/absent:1"), () -> {
                    throw new IllegalStateException("registry said no");
                }))
                .hasMessage("registry said no");
        assertThat(references()).isEmpty();
    }

    private ImageCollector collector(ImagePatterns pinned, int batch) {
        return new ImageCollector(store, engineImages, pinned, RETENTION, batch, clock, announced::add);
    }

    /** A reference the worker pulled to the engine at {@code at}, unused since. */
    private void pulledAt(String reference, String imageId, Instant at) {
        images.hold(reference, imageId);
        store.pulled(ENGINE, reference, imageId, at, true);
    }

    private List<String> references() {
        return jdbc.query("SELECT reference FROM pulled_images ORDER BY reference", row -> row.string(1));
    }

    /** The engine's images by reference, answered as the engine's API does. */
    private static final class Images {
        private static final Pattern INSPECT = Pattern.compile("^GET (?:/v[\\d.]+)?/images/(.+)/json(?:\\?.*)?$");
        private static final Pattern REMOVE = Pattern.compile("^DELETE (?:/v[\\d.]+)?/images/([^?]+)(?:\\?.*)?$");

        final Map<String, String> held = new ConcurrentHashMap<>();
        final Set<String> inUse = ConcurrentHashMap.newKeySet();
        final List<String> removals = new CopyOnWriteArrayList<>();
        volatile boolean failRemovals;

        void hold(String reference, String id) {
            held.put(reference, id);
        }

        Reply answer(String request) {
            if (request.matches("^GET (/v[\\d.]+)?/info.*")) {
                return Reply.answer(200, "{\"ID\":\"" + ENGINE + "\"}");
            }
            Matcher inspect = INSPECT.matcher(request);
            if (inspect.matches()) {
                String id = held.get(decoded(inspect.group(1)));
                return id == null ? missing() : Reply.answer(200, "{\"Id\":\"" + id + "\"}");
            }
            Matcher remove = REMOVE.matcher(request);
            if (remove.matches()) {
                String reference = decoded(remove.group(1));
                removals.add(reference);
                if (failRemovals) {
                    return Reply.answer(500, "{\"message\":\"driver failed\"}");
                }
                if (inUse.contains(reference)) {
                    return Reply.answer(
                            409,
                            "{\"message\":\"conflict: unable to remove repository reference \\\"" + reference
                                    + "\\\" (must force) - container 0123456789ab is using its referenced image\"}");
                }
                return held.remove(reference) == null
                        ? missing()
                        : Reply.answer(200, "[{\"Untagged\":\"" + reference + "\"}]");
            }
            return Reply.answer(404, "{\"message\":\"page not found\"}");
        }

        private static Reply missing() {
            return Reply.answer(404, "{\"message\":\"No such image\"}");
        }

        private static String decoded(String path) {
            return URLDecoder.decode(path, StandardCharsets.UTF_8);
        }
    }
}
