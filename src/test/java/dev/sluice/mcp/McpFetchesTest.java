package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.Problem;
import dev.sluice.actions.ProblemException;

/**
 * The hosts a dispatch made over MCP may have the worker fetch from (ADR
 * 0075): archive URLs and image registries, each on its own list. Whether a
 * request can run without a pull is the actions' answer ({@code
 * DispatchActions.withoutPull}, against the real engine in McpEgressIT); here
 * it is the answer of an engine that holds nothing, and the calls are counted.
 */
class McpFetchesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SHA = "0".repeat(64);

    private final List<String> askedEngine = new ArrayList<>();
    private final McpFetches listed = new McpFetches(
            List.of("Artifacts.Internal.", "10.0.0.9"),
            List.of("registry.example:5000", "INDEX.docker.io", "[::1]:5000"),
            this::nothingHeld);
    private final McpFetches none = new McpFetches(List.of(), List.of(), this::nothingHeld);

    private Optional<DispatchRequest> nothingHeld(DispatchRequest request) {
        askedEngine.add(request.image());
        return Optional.empty();
    }

    @Test
    void listedArchiveHostsAndRegistriesAreTakenAsTheyAre() {
        for (String json : List.of(
                "{\"image\": \"registry.example:5000/agents/x:1\"}",
                "{\"image\": \"busybox\"}",
                "{\"image\": \"docker.io/library/busybox@sha256:" + SHA + "\"}",
                "{\"image\": \"[::1]:5000/x\"}",
                "{\"image\": \"busybox\", \"workspace\": {\"archive\": {\"url\": \"https://artifacts.internal/a.tgz\","
                        + " \"sha256\": \"" + SHA + "\"}}}",
                "{\"image\": \"busybox\", \"workspace\": {\"archive\": {\"url\": \"https://10.0.0.9:8443/a\","
                        + " \"sha256\": \"" + SHA + "\"}}}")) {
            DispatchRequest request = dispatch(json);
            assertThat(listed.check(request)).as(json).isSameAs(request);
        }
        assertThat(askedEngine).isEmpty();
    }

    @Test
    void anArchiveUrlOnAnotherHostIsRefusedNamingTheField() {
        for (String url : List.of(
                "https://evil.example/a.tgz",
                "https://artifacts.internal.evil.example/a",
                "https://artifacts.internal@evil.example/a",
                "https://10.0.0.10/a",
                "not a url")) {
            Problem problem = refusal(() -> listed.check(dispatch("{\"image\": \"busybox\", \"workspace\": "
                    + "{\"archive\": {\"url\": \"" + url + "\", \"sha256\": \"" + SHA + "\"}}}")));
            assertThat(problem.status()).as(url).isEqualTo(422);
            assertThat(problem.errors()).singleElement().satisfies(e -> {
                assertThat(e.field()).isEqualTo("workspace.archive.url");
                assertThat(e.detail())
                        .isEqualTo("names a host that is not on sluice.mcp.archive-allowed-hosts, the hosts MCP "
                                + "dispatches may fetch a workspace archive from");
            });
        }
        Problem problem = refusal(() -> none.check(dispatch("{\"image\": \"busybox\", \"workspace\": {\"archive\": "
                + "{\"url\": \"https://artifacts.internal/a\", \"sha256\": \"" + SHA + "\"}}}")));
        assertThat(problem.errors().get(0).detail())
                .isEqualTo("is not taken from MCP: no host is on sluice.mcp.archive-allowed-hosts");
    }

    @Test
    void anImageOfAnotherRegistryThatWouldBePulledIsRefused() {
        for (String image : List.of(
                "registry.example/agents/x:1", // another port
                "evil.example/x",
                "127.0.0.1:5443/sluice/agent:test",
                "localhost:5000/x")) {
            Problem problem = refusal(() -> listed.check(dispatch("{\"image\": \"" + image + "\"}")));
            assertThat(problem.status()).isEqualTo(422);
            assertThat(problem.errors()).singleElement().satisfies(e -> {
                assertThat(e.field()).isEqualTo("image");
                assertThat(e.detail()).contains("which is not on sluice.mcp.registry-allowed-hosts");
            });
        }
        assertThat(askedEngine).hasSize(4);
        // With no registry listed, Hub's images are refused too unless they need no pull.
        assertThat(refusal(() -> none.check(dispatch("{\"image\": \"busybox\"}")))
                        .errors()
                        .get(0)
                        .detail())
                .startsWith("would be pulled from docker.io, which is not on sluice.mcp.registry-allowed-hosts");
        // No image, or no valid one: the request's own check refuses it.
        DispatchRequest invalid = dispatch("{\"image\": \"UPPER/case\"}");
        assertThat(none.check(invalid)).isSameAs(invalid);
    }

    @Test
    void whatRunsWithoutAPullIsTakenAsTheActionsNarrowedIt() {
        DispatchRequest narrowed = dispatch("{\"image\": \"evil.example/x\", \"imagePullPolicy\": \"never\"}");
        McpFetches local = new McpFetches(List.of(), List.of(), r -> Optional.of(narrowed));
        assertThat(local.check(dispatch("{\"image\": \"evil.example/x\"}"))).isSameAs(narrowed);
    }

    @Test
    void aGroupNamesEachMemberRefused() {
        GroupRequest group = read(
                "{\"dispatches\": [{\"image\": \"registry.example:5000/a\"}, {\"image\": \"evil.example/b\"},"
                        + " {\"image\": \"busybox\", \"workspace\": {\"archive\": {\"url\": \"https://evil.example/a\","
                        + " \"sha256\": \"" + SHA + "\"}}}]}",
                GroupRequest.class);
        Problem problem = refusal(() -> listed.check(group));
        assertThat(problem.errors())
                .extracting(Problem.FieldError::field)
                .containsExactly("dispatches.1.image", "dispatches.2.workspace.archive.url");
    }

    private static DispatchRequest dispatch(String json) {
        return read(json, DispatchRequest.class);
    }

    private static <T> T read(String json, Class<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Problem refusal(Runnable check) {
        ProblemException refused = catchThrowableOfType(ProblemException.class, check::run);
        assertThat(refused).isNotNull();
        return refused.problem();
    }
}
