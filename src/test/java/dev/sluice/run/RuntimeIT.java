package dev.sluice.run;

import static dev.sluice.testsupport.Dispatches.awaitTerminal;
import static dev.sluice.testsupport.Dispatches.post;
import static dev.sluice.testsupport.Dispatches.script;
import static dev.sluice.testsupport.Dispatches.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.api.model.Container;

import dev.sluice.container.engine.DockerClients;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.testsupport.ExpectedStream;
import dev.sluice.testsupport.TestDocker;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * A dispatch may ask for a runtime the operator allows (ADR 0061): under
 * gVisor's {@code runsc}, which scripts/runsc.sh registers with the test
 * engine, it runs on gVisor's kernel, its output is captured byte for byte,
 * its memory limit holds, and the result and the engine both say runsc. The
 * test configuration allows {@code runsc} and {@code sluice-unregistered}.
 */
@QuarkusTest
class RuntimeIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aDispatchUnderRunscRunsOnGvisorWithItsOutputExact() throws Exception {
        String lines = IntStream.rangeClosed(1, 20_000).mapToObj(i -> i + "\n").collect(Collectors.joining());
        // gVisor's kernel log opens with its own name: the agent ran on gVisor, not on the host's kernel.
        String id = submit(under("runsc", script("seq 1 20000; dmesg | head -n 1 >&2")));
        JsonPath record = awaitTerminal(id);

        assertThat(record.getString("status")).isEqualTo("succeeded");
        assertThat(record.getString("result.runtime")).isEqualTo("runsc");
        JsonNode result = JSON.valueToTree(record.get("result"));
        ExpectedStream.Verdict stdout = ExpectedStream.of(lines).check(result, "stdout");
        assertThat(stdout.problems()).as(stdout.describe()).isEmpty();
        assertThat(stdout.isExact()).as(stdout.describe()).isTrue();
        assertThat(record.getString("result.stderr")).contains("Starting gVisor");
        assertThat(engineRuntimeOf(id)).isEqualTo("runsc");
    }

    @Test
    void theMemoryLimitHoldsUnderRunsc() {
        // A string that doubles until the kernel stops it: past 64 MiB within a few dozen steps.
        Map<String, Object> body = under("runsc", script("exec awk 'BEGIN { s = \"x\"; while (1) s = s s }'"));
        body.put("resources", Map.of("memoryBytes", 64L << 20));
        JsonPath record = awaitTerminal(submit(body));

        assertThat(record.getString("result.runtime")).isEqualTo("runsc");
        assertThat(record.getString("result.stdout")).isEmpty();
        assertThat(record.getInt("result.exitCode")).isEqualTo(137);
        assertThat(record.getString("result.error.code")).isEqualTo("out_of_memory");
    }

    @Test
    void aDispatchThatNamesNoneRunsUnderTheEnginesDefault() throws Exception {
        String id = submit(script("echo plain"));
        JsonPath record = awaitTerminal(id);

        assertThat(record.getString("result.stdout")).isEqualTo("plain\n");
        assertThat(record.getString("result.runtime"))
                .isEqualTo(engineRuntimeOf(id))
                .isEqualTo("runc");
    }

    @Test
    void aRuntimeTheWorkerDoesNotAllowIs422AndCreatesNothing() {
        post(under("runc-debug", script("true")))
                .then()
                .statusCode(422)
                .contentType("application/problem+json")
                .body("errors[0].field", org.hamcrest.Matchers.equalTo("runtime"))
                .body("errors[0].detail", containsString("must be one of [runsc, sluice-unregistered]"));
    }

    @Test
    void anAllowedRuntimeTheEngineLacksEndsTheDispatchSayingSo() {
        JsonPath record = awaitTerminal(submit(under("sluice-unregistered", script("echo never"))));

        assertThat(record.getString("status")).isEqualTo("error");
        assertThat(record.getString("result.error.code")).isEqualTo("runtime_unavailable");
        assertThat(record.getString("result.error.message"))
                .contains("the engine has no runtime named sluice-unregistered");
        assertThat(record.getString("result.runtime")).isNull();
    }

    private static Map<String, Object> under(String runtime, Map<String, Object> body) {
        Map<String, Object> withRuntime = new HashMap<>(body);
        withRuntime.put("runtime", runtime);
        return withRuntime;
    }

    /** The runtime the engine itself says the dispatch's container was created under. */
    private static String engineRuntimeOf(String id) throws Exception {
        try (DockerClients clients = TestDocker.clients()) {
            List<Container> found = clients.control()
                    .listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(Map.of(Labels.DISPATCH_ID, id))
                    .exec();
            assertThat(found).hasSize(1);
            return clients.control()
                    .inspectContainerCmd(found.get(0).getId())
                    .exec()
                    .getHostConfig()
                    .getRuntime();
        }
    }
}
