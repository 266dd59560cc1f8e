package dev.sluice.group;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

import dev.sluice.json.JsonBudget;
import dev.sluice.record.Dispatch;

/**
 * Decides, for one group at one moment, what its callbacks are (ADR 0028): a
 * batch when the oldest unreported completion has waited the batch window or
 * every member has ended; digests if they fit the budget left, else
 * references, else nothing and the final callback names them; the final
 * callback once every member has ended and been reported. Plain logic over
 * what the store holds, so a round that is not committed is made again the
 * same way.
 */
final class GroupBatches {

    /** The final callback's number in {@code reported_in}: the member is named there, not in a batch. */
    static final int IN_FINAL = 0;

    /** A group as its batches need it. */
    record Group(String id, String callbackUrl, long maxBytes, long spentBytes, int batches) {}

    /** A member as its batches need it; {@code reportedIn} is null until a batch (or the final) reports it. */
    record Member(String dispatchId, Dispatch.Status status, Instant finishedAt, Integer reportedIn) {

        /** True once it ended; a member whose record was reaped had ended long before. */
        boolean ended() {
            return status == null || status.terminal();
        }

        boolean waiting() {
            return status != null && status.terminal() && reportedIn == null;
        }
    }

    /** A message to send: its webhook-id and body. */
    record Message(String webhookId, byte[] body) {}

    /**
     * What a round does to a group: the members it reports (by the batch that
     * does, or {@link #IN_FINAL}), the messages to queue, and the group's new
     * figures.
     */
    record Round(
            Map<String, Integer> reported, List<Message> messages, long spentBytes, int batches, boolean finished) {

        boolean changes() {
            return !reported.isEmpty() || finished;
        }
    }

    private final Duration window;

    GroupBatches(Duration window) {
        this.window = window;
    }

    /**
     * The round for {@code group} at {@code now}; {@code digests} gives a
     * finished member's digest, read only when a batch is made.
     */
    Round round(Group group, List<Member> members, Instant now, Function<String, byte[]> digests) {
        List<Member> waiting = members.stream()
                .filter(Member::waiting)
                .sorted(Comparator.comparing(Member::finishedAt, Comparator.nullsFirst(Comparator.naturalOrder())))
                .toList();
        boolean allEnded = members.stream().allMatch(Member::ended);
        if (!allEnded && (waiting.isEmpty() || !windowPassed(waiting.get(0), now))) {
            return new Round(Map.of(), List.of(), group.spentBytes(), group.batches(), false);
        }
        Map<String, Integer> reported = new LinkedHashMap<>();
        List<Message> messages = new ArrayList<>();
        long spent = group.spentBytes();
        int batches = group.batches();
        if (!waiting.isEmpty()) {
            if (group.callbackUrl() == null) {
                waiting.forEach(m -> reported.put(m.dispatchId(), IN_FINAL));
            } else {
                int ended = (int) members.stream().filter(Member::ended).count();
                byte[] body = batch(group, batches + 1, members.size(), ended, waiting, digests);
                if (body != null) {
                    batches++;
                    spent += body.length;
                    messages.add(new Message(webhookId(group.id(), "b" + batches), body));
                }
                int number = body != null ? batches : IN_FINAL;
                waiting.forEach(m -> reported.put(m.dispatchId(), number));
            }
        }
        if (!allEnded) {
            return new Round(reported, messages, spent, batches, false);
        }
        if (group.callbackUrl() != null) {
            messages.add(last(group, members, reported, batches, spent));
        }
        return new Round(reported, messages, spent, batches, true);
    }

    /** The final callback: every member counted, those no batch reported (this round's included) named. */
    private static Message last(
            Group group, List<Member> members, Map<String, Integer> reported, int batches, long spent) {
        List<GroupBodies.Item> all = members.stream()
                .filter(m -> m.status() != null)
                .map(GroupBatches::reference)
                .toList();
        List<GroupBodies.Item> unreported = members.stream()
                .filter(m -> Integer.valueOf(IN_FINAL).equals(reported.getOrDefault(m.dispatchId(), m.reportedIn())))
                .map(GroupBatches::reference)
                .toList();
        return new Message(
                webhookId(group.id(), "final"),
                GroupBodies.last(group.id(), all, batches, group.maxBytes(), spent, unreported));
    }

    /** The batch in the first form that fits the budget left, or null when not even references fit. */
    private static byte[] batch(
            Group group, int number, int size, int ended, List<Member> waiting, Function<String, byte[]> digests) {
        List<GroupBodies.Item> withDigests = waiting.stream()
                .map(m -> new GroupBodies.Item(m.dispatchId(), m.status(), digests.apply(m.dispatchId())))
                .toList();
        List<Supplier<byte[]>> forms = Stream.of(GroupBodies.Mode.values())
                .map(mode -> (Supplier<byte[]>) () -> GroupBodies.batch(
                        group.id(), number, mode, size, ended, group.maxBytes(), group.spentBytes(), withDigests))
                .toList();
        return new JsonBudget(group.maxBytes() - group.spentBytes()).first(forms, body -> body.length);
    }

    private boolean windowPassed(Member oldest, Instant now) {
        return oldest.finishedAt() == null || !oldest.finishedAt().plus(window).isAfter(now);
    }

    private static GroupBodies.Item reference(Member m) {
        return new GroupBodies.Item(m.dispatchId(), m.status(), null);
    }

    static String webhookId(String groupId, String suffix) {
        return "msg_" + groupId + "_" + suffix;
    }
}
