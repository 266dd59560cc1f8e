package dev.sluice.group;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import dev.sluice.record.Dispatch;

/**
 * A group as its record shows it (docs/api.md, section 2.10): {@code finished}
 * once every member has ended, read from the members themselves.
 *
 * @param finishedAt when the last member ended; null while one runs
 */
public record DispatchGroup(
        String id,
        boolean finished,
        Instant createdAt,
        Instant finishedAt,
        String callbackUrl,
        Map<String, Object> metadata,
        long maxDigestBytes,
        long spentBytes,
        int batches,
        List<Member> members) {

    /**
     * One member: its id, status and digest (docs/api.md, section 7.6); status
     * and digest are null when its record was reaped.
     */
    public record Member(String id, Dispatch.Status status, byte[] digest) {}

    public String link() {
        return GroupBodies.link(id);
    }
}
