package dev.sluice.metrics;

import static dev.sluice.testsupport.Dispatches.awaitStatus;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;

import dev.sluice.testsupport.Profiles;
import dev.sluice.testsupport.Scrape;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/**
 * The queue's figures follow real dispatches: with one slot taken, two more
 * wait and are counted from the store, with a wait that grows; once they are
 * cancelled the figures fall back to 0. The store is counted every second in
 * the test profile.
 */
@QuarkusTest
@TestProfile(Profiles.SmallCapacity.class)
class QueueMetricsIT {

    private static final String DEPTH = "sluice_queue_depth";
    private static final String WAIT = "sluice_queue_oldest_wait_seconds";

    @Test
    void waitingDispatchesMoveTheQueueDepthAndTheOldestWait() {
        String running = submit(script("sleep 30"));
        awaitStatus(running, "running");
        List<String> queued = List.of(submit(script("echo second")), submit(script("echo third")));

        Scrape waiting = awaitScrape(s -> s.valueOr(DEPTH, 0) == 2 && s.value(WAIT) > 0);
        assertThat(waiting.value(WAIT)).isLessThan(30);
        // Read again later with no new dispatch: the oldest has waited longer.
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> Scrape.take().value(WAIT) > waiting.value(WAIT));

        for (String id : queued) {
            given().delete("/v1/dispatches/" + id).then().statusCode(200);
        }
        given().delete("/v1/dispatches/" + running).then().statusCode(202);
        Scrape drained = awaitScrape(s -> s.valueOr(DEPTH, -1) == 0);
        assertThat(drained.value(WAIT)).isZero();
        assertThat(awaitTerminal(running).getString("status")).isEqualTo("cancelled");
    }

    private static Scrape awaitScrape(Predicate<Scrape> reached) {
        return await().atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(200))
                .until(Scrape::take, reached);
    }
}
