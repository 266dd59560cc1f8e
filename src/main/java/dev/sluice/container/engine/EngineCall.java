package dev.sluice.container.engine;

import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Announced for every call to the engine once it has its answer's head or has
 * failed: what kind of call it was, how it went and how long that took. A
 * stream (attach, wait, logs) counts until its head: how long it lasts after
 * that is the dispatch's, not the engine's.
 *
 * @param operation one of a fixed set of names ({@code create}, {@code start}, {@code inspect}, ...),
 *                  never an id or an image
 */
public record EngineCall(String operation, Outcome outcome, Duration took) {

    /** How a call went. */
    public enum Outcome {
        /** The engine answered, whatever it said short of failing itself. */
        OK,
        /** The engine answered with a 5xx. */
        ERROR,
        /** No answer within the call's deadline (ADR 0016). */
        TIMEOUT,
        /** The connection could not be made, or broke before an answer. */
        UNREACHABLE
    }

    private static final Pattern VERSION = Pattern.compile("^/v\\d+(\\.\\d+)?(?=/)");
    private static final Pattern CONTAINER_ACTION = Pattern.compile("^/containers/[^/]+/([a-z]+)$");
    private static final Map<String, String> CONTAINER_ACTIONS = Map.of(
            "start", "start",
            "wait", "wait",
            "kill", "kill",
            "stop", "stop",
            "attach", "attach",
            "logs", "logs",
            "json", "inspect");

    /** The operation a request is, from its method and path. */
    static String operation(String method, String path) {
        int query = path.indexOf('?');
        String p = VERSION.matcher(query < 0 ? path : path.substring(0, query)).replaceFirst("");
        if (p.equals("/_ping")) {
            return "ping";
        }
        if (p.equals("/containers/create")) {
            return "create";
        }
        if (p.equals("/containers/json")) {
            return "list";
        }
        if (p.startsWith("/images/") && p.endsWith("/json")) {
            return "inspect_image";
        }
        if (method.equals("POST") && p.equals("/images/create")) {
            return "pull";
        }
        if (method.equals("DELETE") && p.startsWith("/images/")) {
            return "remove_image";
        }
        Matcher action = CONTAINER_ACTION.matcher(p);
        if (action.matches()) {
            return CONTAINER_ACTIONS.getOrDefault(action.group(1), "other");
        }
        if (method.equals("DELETE") && p.startsWith("/containers/") && p.indexOf('/', 12) < 0) {
            return "remove";
        }
        return "other";
    }
}
