package dev.sluice.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.Problem;
import dev.sluice.actions.ProblemException;

/** The callback hosts a dispatch made over MCP may name (ADR 0056). */
class McpCallbacksTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final McpCallbacks listed =
            new McpCallbacks(List.of("hooks.example.com", "Receiver.Internal.", "10.0.0.9"));
    private final McpCallbacks none = new McpCallbacks(List.of());

    @Test
    void aListedHostIsTakenInAnySpelling() throws Exception {
        for (String url : List.of(
                "https://hooks.example.com/sluice",
                "https://HOOKS.example.com./sluice",
                "http://receiver.internal:8080/x",
                "http://10.0.0.9/x")) {
            assertThatCode(() -> listed.check(dispatch(url))).as(url).doesNotThrowAnyException();
        }
        assertThatCode(() -> none.check(dispatch(null))).doesNotThrowAnyException();
    }

    @Test
    void anotherHostIsRefusedNamingTheRule() throws Exception {
        for (String url : List.of(
                "https://evil.example/x",
                "https://xhooks.example.com/x",
                "https://hooks.example.com.evil.example/x",
                "http://10.0.0.10/x",
                "https://hooks.example.com@evil.example/x",
                "not a url")) {
            Problem problem = refusal(() -> listed.check(dispatch(url)));
            assertThat(problem.status()).as(url).isEqualTo(422);
            assertThat(problem.errors()).singleElement().satisfies(e -> {
                assertThat(e.field()).isEqualTo("callbackUrl");
                assertThat(e.detail())
                        .isEqualTo("names a host that is not on sluice.mcp.callback-allowed-hosts, the callback hosts"
                                + " MCP dispatches may use");
            });
        }
    }

    @Test
    void withNoHostListedMcpDispatchesTakeNoCallback() throws Exception {
        Problem problem = refusal(() -> none.check(dispatch("https://hooks.example.com/sluice")));
        assertThat(problem.detail())
                .isEqualTo("callbackUrl: is not taken from MCP: no host is on sluice.mcp.callback-allowed-hosts");
    }

    @Test
    void aGroupIsCheckedForItsCallbackAndItsMembers() throws Exception {
        GroupRequest group = JSON.readValue("""
                {"callbackUrl": "https://hooks.example.com/g",
                 "dispatches": [{"image": "a"}, {"image": "b", "callbackUrl": "https://evil.example/m"}]}""", GroupRequest.class);
        Problem problem = refusal(() -> listed.check(group));
        assertThat(problem.errors().get(0).field()).isEqualTo("dispatches.1.callbackUrl");

        GroupRequest outside =
                JSON.readValue("{\"callbackUrl\": \"https://evil.example/g\", \"dispatches\": []}", GroupRequest.class);
        assertThat(refusal(() -> listed.check(outside)).errors().get(0).field()).isEqualTo("callbackUrl");
    }

    private static DispatchRequest dispatch(String callbackUrl) {
        Map<String, String> body =
                callbackUrl == null ? Map.of("image", "a") : Map.of("image", "a", "callbackUrl", callbackUrl);
        try {
            return JSON.readValue(JSON.writeValueAsString(body), DispatchRequest.class);
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
