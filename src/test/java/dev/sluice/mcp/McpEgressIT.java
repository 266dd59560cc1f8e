package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.hashing.Sha256;
import dev.sluice.image.PullFailure;
import dev.sluice.testsupport.ArchiveServer;
import dev.sluice.testsupport.Program;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerProcess;

/**
 * What a dispatch made over MCP may have the worker fetch (issue 38, ADR
 * 0075), through the official TypeScript SDK (src/test/node/mcp-calls.mjs)
 * against the packaged worker as shipped and the real engine: an archive URL
 * or a registry the MCP lists do not name is the tool's 422 naming the field,
 * and nothing is created; a listed archive host is fetched from (a real HTTPS
 * server, the bytes checked in the container), a listed registry is pulled
 * from (the test registry, scripts/registry.sh); an image of another registry
 * runs only as the engine holds it, never pulled.
 */
class McpEgressIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SHA = "0".repeat(64);
    /** The test registry: listed for MCP and on the image allow-list. Not necessarily running: nothing is pulled. */
    private static final String REGISTRY = "127.0.0.1:5443";

    @Test
    void mcpFetchesOnlyFromListedHostsAndRunsOtherImagesOnlyAsTheEngineHoldsThem() throws Exception {
        byte[] brief = "fix the flaky test\n".getBytes(StandardCharsets.UTF_8);
        byte[] archive = tar("BRIEF.md", brief);
        String url = ArchiveServer.shared().put("/mcp-egress.tar", archive);
        String unlistedHost = url.replace("127.0.0.1", "localhost");

        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("mcp-egress"), "mcp-egress");
        env.put("SLUICE_MCP_ARCHIVE_ALLOWED_HOSTS", "127.0.0.1");
        env.put("SLUICE_MCP_REGISTRY_ALLOWED_HOSTS", REGISTRY);
        env.put("SLUICE_IMAGES_ALLOWED", "*," + REGISTRY + "/*");
        env.put("SLUICE_WORKSPACE_ALLOWED_HOSTS", "127.0.0.1,localhost");
        env.put(
                "SLUICE_WORKSPACE_TRUST_CERTIFICATES",
                ArchiveServer.shared().certificate().toString());

        List<Map<String, Object>> calls = new ArrayList<>();
        calls.add(call(
                "archiveElsewhere",
                "dispatch_subagent",
                Map.of(
                        "image", TestDocker.AGENT_IMAGE,
                        "command", List.of("true"),
                        "workspace", Map.of("archive", Map.of("url", unlistedHost, "sha256", sha256(archive))))));
        calls.add(call(
                "registryElsewhere",
                "dispatch_subagent",
                Map.of("image", "registry.example/agents/reviewer:1.4", "command", List.of("true"))));
        calls.add(call(
                "absentHubImage",
                "dispatch_subagent",
                Map.of("image", "sluice-absent/nothing:1", "command", List.of("true"))));
        calls.add(call(
                "groupElsewhere",
                "dispatch_group",
                Map.of(
                        "dispatches",
                        List.of(
                                Map.of("image", TestDocker.AGENT_IMAGE, "command", List.of("true")),
                                Map.of("image", "evil.example/agents/x:1", "command", List.of("true"))))));
        calls.add(call(
                "archiveListed",
                "dispatch_subagent",
                Map.of(
                        "id",
                        "listed-archive",
                        "image",
                        TestDocker.AGENT_IMAGE,
                        "command",
                        List.of("cat", "BRIEF.md"),
                        "workspace",
                        Map.of("archive", Map.of("url", url, "sha256", sha256(archive))),
                        "wait",
                        40)));
        calls.add(call(
                "neverPulled",
                "dispatch_subagent",
                Map.of(
                        "id", "never-pulled",
                        "image", "evil.example/agents/x:1",
                        "imagePullPolicy", "never",
                        "command", List.of("true"),
                        "wait", 40)));
        calls.add(call(
                "registryListed",
                "dispatch_subagent",
                Map.of(
                        "id",
                        "listed-registry",
                        "image",
                        REGISTRY + "/sluice/agent:absent-tag",
                        "command",
                        List.of("true"),
                        "wait",
                        40)));
        calls.add(call("listed", "list_dispatches", Map.of("limit", 20)));

        JsonNode seen;
        String log;
        JsonNode archived;
        JsonNode pulled;
        try (WorkerProcess worker = WorkerProcess.startAsShipped(env)) {
            Program.Result run = Program.node(
                    Duration.ofMinutes(4), JSON.writeValueAsString(calls), "mcp-calls.mjs", worker.url("/mcp"));
            assertThat(run.exitCode()).as(run.output()).isZero();
            seen = JSON.readTree(run.stdout());
            archived = worker.awaitTerminal("listed-archive", Duration.ofSeconds(60));
            pulled = worker.awaitTerminal("listed-registry", Duration.ofSeconds(60));
            log = worker.logText();
        }

        assertRefused(seen.path("archiveElsewhere"), "workspace.archive.url", "sluice.mcp.archive-allowed-hosts");
        assertRefused(seen.path("registryElsewhere"), "image", "would be pulled from registry.example, which is not");
        assertRefused(seen.path("absentHubImage"), "image", "would be pulled from docker.io, which is not");
        assertRefused(seen.path("groupElsewhere"), "dispatches.1.image", "sluice.mcp.registry-allowed-hosts");

        // A listed archive host: fetched, and the agent read exactly its bytes.
        assertThat(seen.at("/archiveListed/isError").asBoolean())
                .as(seen.path("archiveListed").toString())
                .isFalse();
        assertThat(archived.path("status").asText()).isEqualTo("succeeded");
        byte[] read = archived.at("/result/stdout").asText().getBytes(StandardCharsets.UTF_8);
        assertThat(read).hasSize(brief.length);
        assertThat(sha256(read)).isEqualTo(sha256(brief));

        // Another registry, never pulled: it ran from the engine or ended image_not_found, asking no registry.
        assertThat(seen.at("/neverPulled/isError").asBoolean()).isFalse();
        assertThat(seen.at("/neverPulled/json/digest/error").asText()).isEqualTo("image_not_found");
        assertThat(log).doesNotContain("pull of evil.example");

        // A listed registry is asked. The tag is not there: the tenant reads our words, the operator the engine's.
        assertThat(seen.at("/registryListed/isError").asBoolean()).isFalse();
        assertThat(pulled.at("/result/error/code").asText()).isEqualTo("image_pull_failed");
        String message = pulled.at("/result/error/message").asText();
        assertThat(Arrays.stream(PullFailure.values()).map(PullFailure::detail)).contains(message);
        assertThat(message).doesNotContain("127.0.0.1", "5443", "manifest", "http");
        assertThat(log).contains("pull of " + REGISTRY + "/sluice/agent:absent-tag failed");

        // Nothing was created by a refused call: the three accepted dispatches, and only they.
        List<String> ids = new ArrayList<>();
        seen.at("/listed/json/items").forEach(item -> ids.add(item.path("id").asText()));
        assertThat(ids).containsExactlyInAnyOrder("listed-archive", "never-pulled", "listed-registry");
    }

    private static void assertRefused(JsonNode answer, String field, String detail) {
        assertThat(answer.path("isError").asBoolean()).as(answer.toString()).isTrue();
        assertThat(answer.at("/json/status").asInt()).isEqualTo(422);
        assertThat(answer.at("/json/errors/0/field").asText()).isEqualTo(field);
        assertThat(answer.at("/json/errors/0/detail").asText()).contains(detail);
    }

    private static Map<String, Object> call(String name, String tool, Map<String, Object> arguments) {
        return Map.of("name", name, "tool", tool, "arguments", arguments);
    }

    private static byte[] tar(String name, byte[] content) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            TarArchiveEntry entry = new TarArchiveEntry(name);
            entry.setSize(content.length);
            tar.putArchiveEntry(entry);
            tar.write(content);
            tar.closeArchiveEntry();
        }
        return out.toByteArray();
    }

    private static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(Sha256.digest().digest(bytes));
    }
}
