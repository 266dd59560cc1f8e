package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The MCP server as an orchestrating agent uses it: the official TypeScript
 * SDK (StreamableHTTPClientTransport and Client, src/test/node/mcp-client.mjs)
 * against the packaged worker and the real engine, behind the API's bearer
 * token, with a small answer budget so that cuts show. It lists the tools,
 * runs a container that leaves a report and prints 22,000 bytes, reads the
 * digest, the full result and log ranges, cancels a running container, and
 * makes calls with wrong arguments that must be refused as the v1 API refuses
 * them, with nothing accepted; and runs a group of two.
 */
class McpServerIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "mcp-test-token-0123456789";
    /** Small, so that cuts show; room for the marks of what the agent wrote too (ADR 0056). */
    private static final int BUDGET = 3072;

    private static final String LINE = "0123456789\n";

    @Test
    void theOfficialClientDispatchesReadsAndCancelsWithinTheBudget() throws IOException, InterruptedException {
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("mcp"), "mcp");
        env.put("SLUICE_API_TOKENS", TOKEN);
        env.put("SLUICE_MCP_MAX_RESULT_BYTES", "3K");
        JsonNode seen;
        JsonNode restProblem;
        try (WorkerProcess worker = WorkerProcess.start(env)) {
            Program.Result run = Program.node(
                    Duration.ofMinutes(4), "", "mcp-client.mjs", worker.url("/mcp"), TOKEN, TestDocker.AGENT_IMAGE);
            assertThat(run.exitCode()).as(run.output()).isZero();
            seen = JSON.readTree(run.stdout());
            restProblem = post(worker, "{\"command\": [\"true\"], \"timeout\": \"soon\"}");
        }

        assertThat(seen.path("unauthorized").asText()).contains("401");
        assertThat(names(seen.path("tools")))
                .containsExactly(
                        "cancel",
                        "dispatch_group",
                        "dispatch_subagent",
                        "get_group",
                        "get_result",
                        "list_dispatches",
                        "read_log");

        // The digest: the worker's facts and the agent's claims, in at most 512 bytes.
        assertThat(seen.at("/dispatched/replayed").asBoolean()).isFalse();
        JsonNode digest = seen.path("digest");
        String id = digest.path("id").asText();
        assertThat(digest.path("status").asText()).isEqualTo("succeeded");
        assertThat(digest.path("exitCode").asInt()).isZero();
        assertThat(digest.at("/stdout/bytes").asLong()).isEqualTo(22000);
        assertThat(digest.path("reportStatus").asText()).isEqualTo("present");
        assertThat(digest.at("/agentWritten/~1report/verdict").asText()).isEqualTo("approve");

        // The full result: the report first, the output last and cut to the budget, saying so.
        JsonNode full = seen.path("full");
        assertThat(full.path("bytes").asInt()).isLessThanOrEqualTo(BUDGET);
        List<String> keys = names(full.path("keys"));
        assertThat(keys.subList(0, 2)).containsExactly("dispatchId", "status");
        // What the agent wrote, last and marked as its own (ADR 0056): the report before the output.
        assertThat(keys.get(keys.size() - 1)).isEqualTo("agentWritten");
        List<String> written = new ArrayList<>();
        full.at("/json/agentWritten").fieldNames().forEachRemaining(written::add);
        assertThat(written.indexOf("/report")).isLessThan(written.indexOf("/stdout"));
        assertThat(full.at("/json/agentWritten/~1report/summary").asText()).isEqualTo("Counted to ten, many times.");
        assertThat(full.at("/json/agentWritten/~1stderr").asText()).isEqualTo("warned\n");
        String stdout = full.at("/json/agentWritten/~1stdout").asText();
        assertThat(stdout)
                .startsWith("0123456789\n0123")
                .contains("bytes left out here]")
                .endsWith("789\n");
        assertThat(full.at("/json/omitted/0").asText()).startsWith("stdout: ").contains("read_log");

        // Log ranges: the first read stops at the budget and says where to go on; the next is exact.
        JsonNode first = seen.at("/logs/first");
        assertThat(first.path("bytes").asInt()).isLessThanOrEqualTo(BUDGET);
        long next = first.path("nextOffset").asLong();
        assertThat(first.path("offset").asLong()).isZero();
        assertThat(next).isBetween(1L, 21999L).isEqualTo(first.path("text").asLong());
        assertThat(first.path("end").asBoolean()).isFalse();
        JsonNode range = seen.at("/logs/next");
        assertThat(range.path("offset").asLong()).isEqualTo(next);
        assertThat(range.path("nextOffset").asLong()).isEqualTo(next + 15);
        assertThat(range.at("/agentWritten/~1text").asText())
                .isEqualTo(LINE.repeat(2000).substring((int) next, (int) next + 15));

        // Cancel: stopping while the container is stopped, then cancelled.
        assertThat(seen.at("/cancel/stopping").asBoolean()).isTrue();
        assertThat(seen.at("/cancelled/status").asText()).isEqualTo("cancelled");

        // Wrong arguments: the tool's error result, with the problem the API would send.
        JsonNode wrongType = seen.at("/refused/wrongType");
        assertThat(wrongType.path("isError").asBoolean()).isTrue();
        assertThat(wrongType.at("/json/status").asInt()).isEqualTo(422);
        assertThat(wrongType.at("/json/errors/0/field").asText()).isEqualTo("image");
        JsonNode unknown = seen.at("/refused/unknownArgument/json");
        assertThat(unknown.at("/errors/0/field").asText()).isEqualTo("verbose");
        assertThat(unknown.at("/errors/0/detail").asText()).isEqualTo("is not a known field");
        assertThat(seen.at("/refused/noImage/isError").asBoolean()).isTrue();
        assertThat(seen.at("/refused/noImage/json")).isEqualTo(restProblem);
        assertThat(seen.at("/unknownTool/code").asInt()).isEqualTo(-32602);

        // Nothing the refused calls asked for was accepted.
        assertThat(names(seen.path("listed"))).containsExactly("mcp-sleeper", id);

        // A group: accepted whole, its members' digests once every member ended; a bad member refuses it whole.
        assertThat(seen.at("/groupAccepted/members").size()).isEqualTo(2);
        JsonNode group = seen.path("group");
        assertThat(group.path("status").asText()).isEqualTo("finished");
        assertThat(group.at("/members/0/digest/status").asText()).isEqualTo("succeeded");
        assertThat(group.at("/members/1/digest/exitCode").asInt()).isEqualTo(3);
        assertThat(seen.at("/groupRefused/status").asInt()).isEqualTo(422);
        assertThat(seen.at("/groupRefused/errors/0/field").asText()).isEqualTo("dispatches.0.timeout");
    }

    /** The v1 API's answer to the same request, with the same token. */
    private static JsonNode post(WorkerProcess worker, String body) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(worker.url("/v1/dispatches")))
                                .header("Content-Type", "application/json")
                                .header("Authorization", "Bearer " + TOKEN)
                                .timeout(Duration.ofSeconds(30))
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(422);
        return JSON.readTree(response.body());
    }

    private static List<String> names(JsonNode array) {
        List<String> names = new ArrayList<>();
        array.forEach(n -> names.add(n.asText()));
        return names;
    }
}
