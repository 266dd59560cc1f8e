package dev.sluice.group;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.sluice.record.DispatchStore;

/** Reads a group's record: its row, and each member's status and digest. */
public class GroupQueries {

    private final GroupStore groups;
    private final DispatchStore dispatches;

    GroupQueries(GroupStore groups, DispatchStore dispatches) {
        this.groups = groups;
        this.dispatches = dispatches;
    }

    public Optional<DispatchGroup> find(String id) {
        return groups.find(id).map(row -> {
            List<GroupBatches.Member> members = groups.members(id);
            boolean finished = members.stream().allMatch(GroupBatches.Member::ended);
            Instant finishedAt = finished
                    ? members.stream()
                            .map(GroupBatches.Member::finishedAt)
                            .filter(Objects::nonNull)
                            .max(Comparator.naturalOrder())
                            .orElse(null)
                    : null;
            return new DispatchGroup(
                    row.id(),
                    finished,
                    row.createdAt(),
                    finishedAt,
                    row.callbackUrl(),
                    row.metadata(),
                    row.maxDigestBytes(),
                    row.spentBytes(),
                    row.batches(),
                    members.stream()
                            .map(m -> new DispatchGroup.Member(
                                    m.dispatchId(),
                                    m.status(),
                                    m.status() == null
                                            ? null
                                            : dispatches.digest(m.dispatchId()).orElse(null)))
                            .toList());
        });
    }
}
