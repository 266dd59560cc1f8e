package dev.sluice.mcp;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.sluice.actions.DispatchRequest;
import dev.sluice.actions.GroupRequest;
import dev.sluice.actions.Problem;
import dev.sluice.actions.ProblemException;
import dev.sluice.outbound.Hosts;

/**
 * What a dispatch made over MCP may have the worker fetch (ADR 0075): a
 * workspace archive only from a host on {@code sluice.mcp.archive-allowed-hosts},
 * an image only from a registry on {@code sluice.mcp.registry-allowed-hosts}.
 * The model that writes these requests reads agent output, so without this a
 * prompt could choose a host the worker or its engine then connects to, from
 * inside the operator's network. An image of another registry is taken only
 * when it needs no pull, and then it is made to run as {@code never}, so it
 * never is pulled later either. A refusal is a 422 naming each field, before
 * anything is created; {@code sluice.images.allowed} and the SSRF rules still
 * apply after this.
 */
final class McpFetches {

    static final String ARCHIVES = "sluice.mcp.archive-allowed-hosts";
    static final String REGISTRIES = "sluice.mcp.registry-allowed-hosts";

    private final Set<String> archiveHosts;
    private final Set<String> registries;
    private final Function<DispatchRequest, Optional<DispatchRequest>> withoutPull;

    /**
     * @param withoutPull the request as it runs without a pull, when it can
     *                    ({@code DispatchActions.withoutPull}); empty when it would pull
     */
    McpFetches(
            List<String> archiveHosts,
            List<String> registries,
            Function<DispatchRequest, Optional<DispatchRequest>> withoutPull) {
        this.archiveHosts = archiveHosts.stream()
                .map(Hosts::normal)
                .filter(h -> !h.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
        this.registries = registries.stream()
                .map(McpFetches::registry)
                .filter(r -> !r.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
        this.withoutPull = withoutPull;
    }

    /** The request to accept (its pull policy narrowed where it may not pull), or a 422 naming each field. */
    DispatchRequest check(DispatchRequest request) {
        List<Problem.FieldError> errors = new ArrayList<>();
        DispatchRequest checked = check("", request, errors);
        refuseIf(errors);
        return checked;
    }

    /** As {@link #check(DispatchRequest)}, for each member of a group; one refusal names every member's fields. */
    GroupRequest check(GroupRequest group) {
        if (group.dispatches() == null) {
            return group;
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        List<DispatchRequest> members = new ArrayList<>();
        for (int i = 0; i < group.dispatches().size(); i++) {
            DispatchRequest member = group.dispatches().get(i);
            members.add(member == null ? null : check("dispatches." + i + ".", member, errors));
        }
        refuseIf(errors);
        return new GroupRequest(members, group.callbackUrl(), group.maxDigestBytes(), group.metadata());
    }

    private DispatchRequest check(String prefix, DispatchRequest request, List<Problem.FieldError> errors) {
        String url = request.workspace() == null || request.workspace().archive() == null
                ? null
                : request.workspace().archive().url();
        if (url != null) {
            if (archiveHosts.isEmpty()) {
                errors.add(
                        refused(prefix + "workspace.archive.url", "is not taken from MCP: no host is on " + ARCHIVES));
            } else if (!archiveHosts.contains(Hosts.of(url))) {
                errors.add(refused(
                        prefix + "workspace.archive.url",
                        "names a host that is not on " + ARCHIVES
                                + ", the hosts MCP dispatches may fetch a workspace archive from"));
            }
        }
        String registry = request.imageRegistry();
        if (registry == null || registries.contains(registry)) {
            return request; // no image, or an invalid one: the request's own check says so
        }
        Optional<DispatchRequest> local = withoutPull.apply(request);
        if (local.isPresent()) {
            return local.get();
        }
        errors.add(refused(
                prefix + "image",
                "would be pulled from " + registry + ", which is not on " + REGISTRIES
                        + ": over MCP, an image of another registry runs only if the engine holds it, and is never"
                        + " pulled"));
        return request;
    }

    /** A registry as a reference names it: lower case, Docker Hub's other name as {@code docker.io}. */
    private static String registry(String entry) {
        String r = entry.strip().toLowerCase(Locale.ROOT);
        return r.equals("index.docker.io") ? "docker.io" : r;
    }

    private static Problem.FieldError refused(String field, String detail) {
        return Problem.FieldError.of(field, detail);
    }

    private static void refuseIf(List<Problem.FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ProblemException.invalid(errors);
        }
    }
}
