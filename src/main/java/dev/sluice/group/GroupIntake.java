package dev.sluice.group;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.jboss.logging.Logger;

import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;
import dev.sluice.run.DispatchIntake;

/**
 * Accepts groups: the group and every member in one transaction, or nothing
 * (ADR 0028). Members are checked and queued as any dispatch is.
 */
public class GroupIntake {

    private static final Logger LOG = Logger.getLogger(GroupIntake.class);

    /** A validated group request: its members, and what the group itself asks for. */
    public record NewGroup(
            List<DispatchIntake.Member> members,
            String callbackUrl,
            Long maxDigestBytes,
            Map<String, Object> metadata) {}

    private final DispatchIntake intake;
    private final GroupStore store;
    private final GroupConfig config;
    private final Clock clock;

    GroupIntake(DispatchIntake intake, GroupStore store, GroupConfig config, Clock clock) {
        this.intake = intake;
        this.store = store;
        this.config = config;
        this.clock = clock;
    }

    /**
     * Accepts the group in {@code tenant} and queues its members; returns its key. Refusals
     * are the dispatch intake's, and accept nothing.
     */
    public String accept(String tenant, NewGroup request) {
        String id = DispatchKey.of(tenant, "g-" + UUID.randomUUID().toString().replace("-", ""));
        long budget = request.maxDigestBytes() != null ? request.maxDigestBytes() : config.maxDigestBytes();
        GroupStore.NewGroup group =
                new GroupStore.NewGroup(id, request.callbackUrl(), budget, request.metadata(), clock.instant());
        List<Dispatch> members = intake.acceptAll(tenant, request.members(), (tx, ids) -> store.insert(tx, group, ids));
        LOG.infof("group %s accepted with %d members", id, members.size());
        return id;
    }
}
