package dev.sluice.api;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;

import dev.sluice.dispatch.DispatchIntake;
import dev.sluice.dispatch.DispatchSpec;
import dev.sluice.group.GroupConfig;
import dev.sluice.group.GroupIntake;
import dev.sluice.group.GroupQueries;

/** The dispatch group routes; declared by {@link GroupApi}. */
public class GroupResource implements GroupApi {

    /** The largest budget a group may name: far above 50 digests of 512 bytes. */
    static final long MAX_BUDGET = 1 << 20;

    @Inject
    GroupIntake intake;

    @Inject
    GroupQueries queries;

    @Inject
    DispatchRequestValidator validator;

    @Inject
    Fingerprint fingerprint;

    @Inject
    GroupConfig config;

    @Override
    public Response create(GroupRequest request) {
        if (request == null) {
            throw new ProblemException(
                    400,
                    "body-required",
                    "A request body is required",
                    "POST a JSON object with at least one member in dispatches");
        }
        String id = intake.accept(validate(request));
        return Response.accepted(get(id))
                .location(URI.create("/v1/dispatch-groups/" + id))
                .build();
    }

    @Override
    public GroupView get(String id) {
        return queries.find(id).map(GroupView::of).orElseThrow(() -> notFound(id));
    }

    /** Every field of the group and of each member at once; one 422 naming them all, or the group to accept. */
    private GroupIntake.NewGroup validate(GroupRequest r) {
        List<Problem.FieldError> errors = new ArrayList<>();
        List<DispatchRequest> dispatches = r.dispatches() == null ? List.of() : r.dispatches();
        if (dispatches.isEmpty() || dispatches.size() > config.maxMembers()) {
            errors.add(Problem.FieldError.of("dispatches", "must hold 1 to " + config.maxMembers() + " dispatches"));
        }
        List<DispatchIntake.Member> members = new ArrayList<>();
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < dispatches.size() && i < config.maxMembers(); i++) {
            members.add(member(i, dispatches.get(i), ids, errors));
        }
        validator.checkCallbackUrl(r.callbackUrl(), errors);
        if (r.maxDigestBytes() != null && (r.maxDigestBytes() < 0 || r.maxDigestBytes() > MAX_BUDGET)) {
            errors.add(Problem.FieldError.of("maxDigestBytes", "must be between 0 and " + MAX_BUDGET));
        }
        validator.checkMetadata(r.metadata(), errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid(errors);
        }
        return new GroupIntake.NewGroup(members, r.callbackUrl(), r.maxDigestBytes(), r.metadata());
    }

    private DispatchIntake.Member member(
            int index, DispatchRequest d, Map<String, Integer> ids, List<Problem.FieldError> errors) {
        String prefix = "dispatches." + index;
        if (d == null) {
            errors.add(Problem.FieldError.of(prefix, "must be a dispatch request"));
            return null;
        }
        List<Problem.FieldError> found = new ArrayList<>();
        DispatchSpec spec = validator.check(d, found);
        if (d.callbackUrl() != null) {
            found.removeIf(e -> e.field().equals("callbackUrl")); // refused whatever the URL
            found.add(Problem.FieldError.of(
                    "callbackUrl", "must not be set on a group member: the group's callbacks report it"));
        }
        found.forEach(e -> errors.add(Problem.FieldError.of(prefix + "." + e.field(), e.detail())));
        if (d.id() != null) {
            Integer earlier = ids.putIfAbsent(d.id(), index);
            if (earlier != null) {
                errors.add(Problem.FieldError.of(prefix + ".id", "repeats the id of member " + earlier));
            }
        }
        return spec == null ? null : new DispatchIntake.Member(d.id(), spec, fingerprint.of(d));
    }

    private static ProblemException notFound(String id) {
        return new ProblemException(404, "not-found", "Group not found", "no dispatch group " + id);
    }
}
