package dev.sluice.actions;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonProcessingException;

import dev.sluice.actions.reading.BodyReader;
import dev.sluice.actions.reading.DecodingBudget;
import dev.sluice.group.GroupConfig;
import dev.sluice.group.GroupIntake;
import dev.sluice.group.GroupQueries;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchSpec;
import dev.sluice.run.DispatchIntake;

/**
 * What a client can do with dispatch groups, with the checks each action
 * takes: one implementation behind the v1 API and the MCP server, as
 * {@link DispatchActions} is for single dispatches.
 */
@Singleton
public class GroupActions {

    /** The largest budget a group may name: far above 50 digests of 512 bytes. */
    static final long MAX_BUDGET = 1 << 20;

    private final GroupIntake intake;
    private final GroupQueries queries;
    private final DispatchRequestValidator validator;
    private final Fingerprint fingerprint;
    private final GroupConfig config;
    private final BodyReader bodies;

    @Inject
    GroupActions(
            GroupIntake intake,
            GroupQueries queries,
            DispatchRequestValidator validator,
            Fingerprint fingerprint,
            GroupConfig config,
            BodyReader bodies) {
        this.intake = intake;
        this.queries = queries;
        this.validator = validator;
        this.fingerprint = fingerprint;
        this.config = config;
        this.bodies = bodies;
    }

    /**
     * Reads POST's body within the bounds of the contract and {@code grant}
     * (ADR 0076): its members are counted as they are read, and the group is
     * refused at the first past {@code sluice.groups.max-members}, before the
     * rest is built; {@code null} when empty.
     */
    public GroupRequest read(InputStream body, DecodingBudget.Grant grant) throws IOException {
        return bodies.read(body, GroupRequest.class, BodyReader.Shape.GROUP, grant);
    }

    /** Reads a group request from JSON already charged (MCP arguments) as POST's body is read. */
    public GroupRequest read(String body) throws JsonProcessingException {
        return bodies.read(body, GroupRequest.class, BodyReader.Shape.GROUP);
    }

    /** Validates and accepts a group in the caller's tenant, members and all, or refuses it whole. */
    public GroupView create(Caller caller, GroupRequest request) {
        String key = intake.accept(caller.tenant(), validate(caller.tenant(), request));
        return queries.find(key).map(GroupView::of).orElseThrow(() -> notFound(DispatchKey.idOf(key)));
    }

    /** The group the caller names {@code id}; another tenant's is not found, as an unknown one. */
    public GroupView get(Caller caller, String id) {
        return caller.key(id).flatMap(queries::find).map(GroupView::of).orElseThrow(() -> notFound(id));
    }

    /** Every field of the group and of each member at once; one 422 naming them all, or the group to accept. */
    private GroupIntake.NewGroup validate(String tenant, GroupRequest r) {
        List<Problem.FieldError> errors = new ArrayList<>();
        List<DispatchRequest> dispatches = r.dispatches() == null ? List.of() : r.dispatches();
        if (dispatches.isEmpty() || dispatches.size() > config.maxMembers()) {
            errors.add(Problem.FieldError.of("dispatches", "must hold 1 to " + config.maxMembers() + " dispatches"));
        }
        List<DispatchIntake.Member> members = new ArrayList<>();
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < dispatches.size() && i < config.maxMembers(); i++) {
            members.add(member(tenant, i, dispatches.get(i), ids, errors));
        }
        validator.checkCallbackUrl(tenant, r.callbackUrl(), errors);
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
            String tenant, int index, DispatchRequest d, Map<String, Integer> ids, List<Problem.FieldError> errors) {
        String prefix = "dispatches." + index;
        if (d == null) {
            errors.add(Problem.FieldError.of(prefix, "must be a dispatch request"));
            return null;
        }
        List<Problem.FieldError> found = new ArrayList<>();
        DispatchSpec spec = validator.check(tenant, d, found);
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
