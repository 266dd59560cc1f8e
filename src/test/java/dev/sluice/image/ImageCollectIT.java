package dev.sluice.image;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.Scrape;
import dev.sluice.testsupport.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;

/**
 * The collection of unused images (ADR 0062) against the real engine and the
 * test registry (scripts/registry.sh), with a retention of two seconds: a
 * reference the worker pulled and no dispatch uses is removed; one the
 * operator tagged on the engine, dispatched as often and as long ago, stays;
 * a pinned one stays; one whose image a stopped container still holds stays
 * until that container is gone. The references are this test's own, pushed by
 * scripts/registry.sh, so that ImagePullIT's removals never meet them.
 */
@EngineWide
@QuarkusTest
@TestProfile(ImageCollectIT.ShortRetention.class)
class ImageCollectIT {

    static final String HOST = ImagePullIT.HOST;
    static final String UNUSED = HOST + "/sluice/agent:collect";
    static final String PINNED = HOST + "/sluice/agent:collect-pinned";
    /** An image of its own, so that this reference is its only one and the engine refuses to untag it in use. */
    static final String HELD = HOST + "/sluice/collect-held:1";
    /** Put on the engine by hand, as an operator would: never pulled by the worker. */
    static final String LOADED = "sluice-collect/loaded:1";

    public static final class ShortRetention implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    // A registry named by an address runs only where a pattern names it (ADR 0075).
                    "sluice.images.allowed",
                    "*," + HOST + "/*",
                    "sluice.images.registries.\"" + HOST + "\".username",
                    ImagePullIT.ENV.getProperty("SLUICE_TEST_REGISTRY_USER"),
                    "sluice.images.registries.\"" + HOST + "\".password",
                    ImagePullIT.ENV.getProperty("SLUICE_TEST_REGISTRY_PASSWORD"),
                    "sluice.images.unused-retention",
                    "2s",
                    "sluice.images.collect-interval",
                    "1s",
                    "sluice.images.pinned",
                    HOST + "/sluice/agent:collect-pinned*");
        }
    }

    @BeforeAll
    static void tagAnImageAsTheOperatorWould() throws Exception {
        run(List.of("docker", "tag", TestDocker.AGENT_IMAGE, LOADED));
        // Left by an earlier run that stopped half way: the dispatches must pull them.
        run(List.of("docker", "rmi", UNUSED, PINNED, HELD));
    }

    @AfterAll
    static void removeWhatIsLeft() throws Exception {
        run(List.of("docker", "rmi", PINNED, LOADED, HELD));
    }

    @Test
    void onlyWhatTheWorkerPulledAndNothingUsesIsRemoved() throws Exception {
        List<String> ids = new ArrayList<>();
        for (String image : List.of(HELD, PINNED, LOADED)) {
            ids.add(submit(dispatch(image)));
        }
        for (String id : ids) {
            succeeded(id);
        }
        // Used last: the round that removes it is past the retention of every other one, which were candidates too.
        succeeded(submit(dispatch(UNUSED)));
        Awaitility.await("the unused pulled reference removed")
                .atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !present(UNUSED));

        assertThat(present(PINNED)).as("pinned").isTrue();
        assertThat(present(LOADED)).as("loaded by the operator").isTrue();
        assertThat(present(HELD)).as("its image used by a stopped container").isTrue();
        assertThat(present(TestDocker.AGENT_IMAGE))
                .as("the image under its other name")
                .isTrue();
        assertThat(Scrape.take().value("sluice_images_removed_total")).isEqualTo(1.0);

        // Once its container is gone, nothing holds it any more.
        String held = run(List.of("docker", "ps", "-aq", "--filter", "ancestor=" + HELD))
                .strip();
        assertThat(held).isNotEmpty();
        run(List.of("docker", "rm", "-f", held));
        Awaitility.await("the held reference removed once its container is gone")
                .atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> !present(HELD));
        assertThat(Scrape.take().value("sluice_images_removed_total")).isEqualTo(2.0);
    }

    private static void succeeded(String id) {
        JsonPath done = awaitTerminal(id, Duration.ofSeconds(60));
        assertThat(done.getString("status")).as(done.prettify()).isEqualTo("succeeded");
    }

    private static Map<String, Object> dispatch(String image) {
        Map<String, Object> body = new HashMap<>();
        body.put("image", image);
        body.put("command", List.of("true"));
        return body;
    }

    private static boolean present(String image) throws Exception {
        Process p = new ProcessBuilder("docker", "image", "inspect", "--format", "{{.Id}}", image)
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue() == 0;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String(out, StandardCharsets.UTF_8);
    }
}
