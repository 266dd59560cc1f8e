package dev.sluice.mcp;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.Problem;
import dev.sluice.actions.ProblemException;
import dev.sluice.outbound.Hosts;

/**
 * The callback hosts a dispatch made over MCP may name (ADR 0056). An
 * orchestrating model writes those requests, and what it writes can be steered
 * by the text it read (an agent's output among it), so a callback URL there
 * is a way out of the worker that a prompt could choose. Only hosts the
 * operator listed in {@code sluice.mcp.callback-allowed-hosts} are taken;
 * with none listed, MCP dispatches take no {@code callbackUrl}. The SSRF rules
 * of every callback still apply after this.
 */
final class McpCallbacks {

    static final String RULE = "sluice.mcp.callback-allowed-hosts";

    private final Set<String> allowed;

    McpCallbacks(List<String> allowedHosts) {
        this.allowed = allowedHosts.stream()
                .map(Hosts::normal)
                .filter(h -> !h.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
    }

    /** Refuses a dispatch whose callback names a host MCP may not call back. */
    void check(DispatchRequest request) {
        check("callbackUrl", request.callbackUrl());
    }

    /** Refuses a group whose callback, or a member's, names a host MCP may not call back. */
    void check(GroupRequest request) {
        check("callbackUrl", request.callbackUrl());
        List<DispatchRequest> members = request.dispatches() == null ? List.of() : request.dispatches();
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i) != null) {
                check("dispatches." + i + ".callbackUrl", members.get(i).callbackUrl());
            }
        }
    }

    private void check(String field, String url) {
        if (url == null) {
            return;
        }
        if (allowed.isEmpty()) {
            throw refused(field, "is not taken from MCP: no host is on " + RULE);
        }
        if (!allowed.contains(Hosts.of(url))) {
            throw refused(field, "names a host that is not on " + RULE + ", the callback hosts MCP dispatches may use");
        }
    }

    private static ProblemException refused(String field, String detail) {
        return ProblemException.invalid(List.of(Problem.FieldError.of(field, detail)));
    }
}
