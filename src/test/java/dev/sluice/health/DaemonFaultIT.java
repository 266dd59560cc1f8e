package dev.sluice.health;

import static dev.sluice.testsupport.Dispatches.awaitStatus;
import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.ManagedContainer;
import dev.sluice.testsupport.Engine;
import dev.sluice.testsupport.EngineWide;
import dev.sluice.testsupport.Management;
import dev.sluice.testsupport.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * The engine misbehaving under a running worker: hanging (SIGSTOP) and
 * restarting mid-dispatch. The API stays responsive, readiness follows the
 * engine, liveness never does, and no dispatch is left unfinished.
 */
@EngineWide
@QuarkusTest
class DaemonFaultIT {

    @Test
    void aHangingEngineMakesTheWorkerUnreadyButNeverUnresponsive() {
        Engine.requireOurs();
        String id = submit(script("echo before; sleep 2; echo after"));
        awaitStatus(id, "running");
        Engine.freeze();
        try {
            // Three slow pings mark the engine down; meanwhile every answer comes from the store.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> Management.given().get("/q/health/ready").statusCode() == 503);
            Management.given().get("/q/health/live").then().statusCode(200);
            given().get("/v1/dispatches/" + id).then().statusCode(200);
            given().get("/v1/dispatches?limit=5").then().statusCode(200);
            given().contentType("application/json")
                    .body(script("echo refused"))
                    .post("/v1/dispatches")
                    .then()
                    .statusCode(503)
                    .header("Retry-After", org.hamcrest.Matchers.notNullValue());
        } finally {
            Engine.thaw();
        }
        await().atMost(Duration.ofSeconds(30))
                .until(() -> Management.given().get("/q/health/ready").statusCode() == 200);
        JsonPath r = awaitTerminal(id);
        assertThat(r.getString("status")).isEqualTo("succeeded");
        assertThat(r.getString("result.stdout")).isEqualTo("before\nafter\n");
    }

    /**
     * dockerd, told to stop, closes its API first and then stops the
     * containers (without live-restore), so the attach ends as the container
     * does and the worker's wait for its exit finds no engine: the one ending
     * docs/api.md gives for an engine that stopped answering after the create
     * ("attach, start, wait"), {@code docker_unavailable}, saying which call
     * met it. The result holds no output, so it makes no witness claim (the
     * witness fields are absent, as for output never read), and the container
     * the engine stopped is not left running.
     */
    @Test
    void anEngineRestartMidDispatchEndsItWithAClearOutcomeNeverStuck() {
        Engine.requireOurs();
        String id = submit(script("echo before; sleep 60; echo never"));
        awaitStatus(id, "running");
        Engine.restart();

        JsonPath r = awaitTerminal(id, Duration.ofSeconds(90));
        assertThat(r.getString("status")).isEqualTo("error");
        assertThat(r.getString("result.error.code")).isEqualTo("docker_unavailable");
        assertThat(r.getString("result.error.message")).startsWith("wait: Docker engine unreachable (");
        assertThat(r.getString("result.stdout")).isNullOrEmpty();
        assertThat(r.<Object>get("result.stdoutDigest")).isNull();
        assertThat(r.<Object>get("result.stdoutWitness")).isNull();
        assertThat(r.<Object>get("result.stderrWitness")).isNull();

        await().atMost(Duration.ofSeconds(30))
                .until(() -> Management.given().get("/q/health/ready").statusCode() == 200);
        try (var clients = TestDocker.clients()) {
            assertThat(new ContainerRuntime(clients, TestDocker.containerConfig()).managed())
                    .filteredOn(c -> id.equals(c.dispatchId()))
                    .singleElement()
                    .extracting(ManagedContainer::state)
                    .isEqualTo("exited");
        }
        JsonPath back = awaitTerminal(submit(script("echo back")));
        assertThat(back.getString("status")).isEqualTo("succeeded");
        assertThat(back.getString("result.stdout")).isEqualTo("back\n");
        assertThat(back.getString("result.stdoutWitness.state")).isEqualTo("complete");
        assertThat(back.getLong("result.stdoutWitness.writtenBytes")).isEqualTo(5);
    }
}
