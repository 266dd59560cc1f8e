package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.sluice.container.engine.DockerClients;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

/** A client-chosen id makes a POST idempotent: same body, same dispatch; different body, 409. */
@QuarkusTest
class IdempotencyIT {

    @Inject
    DockerClients docker;

    /** Ids unique to this run: containers outlive the in-memory test store. */
    private static final String RUN = Long.toString(System.currentTimeMillis(), 36);

    private static Map<String, Object> request(String id, String script) {
        Map<String, Object> body = new HashMap<>(script(script));
        body.put("id", id);
        body.put("secrets", Map.of("KEY", "value-one"));
        return body;
    }

    @Test
    void theSameIdAndBodyReturnTheExistingRecord() {
        Map<String, Object> body = request("idem-same-" + RUN, "echo once");
        Response first = post(body);
        first.then()
                .statusCode(202)
                .header("Location", org.hamcrest.Matchers.endsWith("/v1/dispatches/idem-same-" + RUN));
        awaitTerminal("idem-same-" + RUN);

        Response again = post(body);
        again.then().statusCode(202).header("Idempotent-Replayed", "true");
        assertThat(again.jsonPath().getString("id")).isEqualTo("idem-same-" + RUN);
        assertThat(again.jsonPath().getString("createdAt"))
                .isEqualTo(first.jsonPath().getString("createdAt"));
        assertThat(again.jsonPath().getString("status")).isEqualTo("succeeded");

        // A rotated secret value is the same request: values are not part of the fingerprint.
        Map<String, Object> rotated = new HashMap<>(body);
        rotated.put("secrets", Map.of("KEY", "value-two"));
        post(rotated).then().statusCode(202).header("Idempotent-Replayed", "true");
        assertThat(containers("idem-same-" + RUN)).isEqualTo(1);
    }

    @Test
    void theSameIdWithADifferentBodyIsAConflictAndChangesNothing() {
        post(request("idem-conflict-" + RUN, "echo original")).then().statusCode(202);
        Response conflict = post(request("idem-conflict-" + RUN, "echo something else"));
        conflict.then().statusCode(409).contentType("application/problem+json");
        assertThat(conflict.asString()).doesNotContain("value-one");
        assertThat(awaitTerminal("idem-conflict-" + RUN).getString("result.stdout"))
                .isEqualTo("original\n");
    }

    @Test
    void fiftyConcurrentIdenticalPostsMakeOneDispatchAndOneContainer() throws Exception {
        Map<String, Object> body = request("idem-concurrent-" + RUN, "echo exactly once");
        ExecutorService pool = Executors.newFixedThreadPool(50);
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<Response>> answers = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            answers.add(CompletableFuture.supplyAsync(
                    () -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return post(body);
                    },
                    pool));
        }
        go.countDown();
        long created = 0;
        for (CompletableFuture<Response> answer : answers) {
            Response r = answer.get();
            assertThat(r.statusCode()).isEqualTo(202);
            assertThat(r.jsonPath().getString("id")).isEqualTo("idem-concurrent-" + RUN);
            if (r.header("Idempotent-Replayed") == null) {
                created++;
            }
        }
        pool.shutdown();
        assertThat(created).isEqualTo(1);
        assertThat(awaitTerminal("idem-concurrent-" + RUN).getString("result.stdout"))
                .isEqualTo("exactly once\n");
        assertThat(containers("idem-concurrent-" + RUN)).isEqualTo(1);
    }

    private int containers(String dispatchId) {
        return docker.control()
                .listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(Map.of("dev.sluice.dispatch-id", dispatchId))
                .exec()
                .size();
    }
}
