package dev.sluice.testsupport;

import java.io.IOException;
import java.util.Map;
import java.util.function.Function;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A {@link ScriptedEngine} on a Unix socket for the worker under test, started
 * before it. It begins healthy: it answers its ping, says it is an engine
 * whose containers of network none get bare namespaces (ADR 0047), knows the
 * test agent image and the volume of their /etc/hosts (ADR 0043), holds no
 * containers and refuses the rest as the engine would. Tests
 * change its answers through {@link #engine()}.
 */
public final class ScriptedEngineResource implements QuarkusTestResourceLifecycleManager {

    private static ScriptedEngine engine;

    /** The engine's answers while it is healthy. */
    public static Function<String, ScriptedEngine.Reply> healthy() {
        return request -> {
            if (request.endsWith("/_ping")) {
                return ScriptedEngine.Reply.answer(200, "OK");
            }
            if (request.startsWith("GET") && request.contains("/version")) {
                return ScriptedEngine.Reply.answer(200, "{\"Version\":\"20.10.24+dfsg1\",\"ApiVersion\":\"1.41\"}");
            }
            if (request.startsWith("GET") && request.contains("/containers/json")) {
                return ScriptedEngine.Reply.answer(200, "[]");
            }
            if (request.startsWith("GET") && request.contains("/images/sluice-agent")) {
                return ScriptedEngine.Reply.answer(200, "{\"Id\":\"sha256:1\",\"Config\":{\"User\":\"\"}}");
            }
            if (request.contains("/volumes/")) {
                return ScriptedEngine.Reply.answer(
                        request.startsWith("POST") ? 201 : 200,
                        "{\"Name\":\"sluice-etc-hosts\",\"Mountpoint\":\"/var/lib/docker/volumes/sluice-etc-hosts/_data\"}");
            }
            return ScriptedEngine.Reply.answer(404, "{\"message\":\"No such object\"}");
        };
    }

    public static ScriptedEngine engine() {
        return engine;
    }

    @Override
    public Map<String, String> start() {
        engine = ScriptedEngine.start(ScriptedEngine.Transport.UNIX, healthy());
        return Map.of("sluice.docker.host", engine.host().toString());
    }

    @Override
    public void stop() {
        try {
            engine.close();
        } catch (IOException e) {
            // the test is over
        }
    }
}
