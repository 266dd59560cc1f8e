package dev.sluice.group;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jboss.logging.Logger;

import dev.sluice.callback.CallbackStore;
import dev.sluice.callback.MessageQueued;
import dev.sluice.record.DispatchKey;
import dev.sluice.store.Jdbc;

/**
 * Makes the batches due in every running group, one transaction per group:
 * the round decided by {@link GroupBatches}, the members it reports and the
 * messages it queues into the callback outbox are committed together, so a
 * crash makes the same round again and never loses or repeats a completion.
 */
final class GroupBatcher {

    private static final Logger LOG = Logger.getLogger(GroupBatcher.class);
    private static final int GROUPS_PER_ROUND = 200;

    private final GroupStore store;
    private final GroupBatches batches;
    private final CallbackStore outbox;
    private final Function<String, byte[]> digests;
    private final Clock clock;
    private final Consumer<MessageQueued> queued;

    GroupBatcher(
            GroupStore store,
            GroupBatches batches,
            CallbackStore outbox,
            Function<String, byte[]> digests,
            Clock clock,
            Consumer<MessageQueued> queued) {
        this.store = store;
        this.batches = batches;
        this.outbox = outbox;
        this.digests = digests;
        this.clock = clock;
        this.queued = queued;
    }

    /** One round over the running groups; returns how many queued messages. */
    int run() {
        int sent = 0;
        for (String id : store.running(GROUPS_PER_ROUND)) {
            Instant now = clock.instant();
            if (store.round(id, now, new GroupStore.RoundWork() {
                @Override
                public GroupBatches.Round round(GroupBatches.Group group, List<GroupBatches.Member> members) {
                    return batches.round(group, members, now, digests);
                }

                @Override
                public void queue(Jdbc.Tx tx, GroupBatches.Group group, List<GroupBatches.Message> messages) {
                    for (GroupBatches.Message m : messages) {
                        outbox.enqueueMessage(
                                tx,
                                DispatchKey.tenantOf(group.id()),
                                m.webhookId(),
                                group.callbackUrl(),
                                m.body(),
                                now);
                        LOG.infof("group %s: queued %s, %d bytes", group.id(), m.webhookId(), m.body().length);
                    }
                }
            })) {
                sent++;
            }
        }
        if (sent > 0) {
            queued.accept(new MessageQueued(sent));
        }
        return sent;
    }
}
