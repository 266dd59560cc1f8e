package dev.sluice.group;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonGenerator;

import dev.sluice.json.CompactJson;
import dev.sluice.record.Dispatch;
import dev.sluice.record.DispatchKey;
import dev.sluice.record.DispatchLinks;

/**
 * The JSON of a group's callbacks (docs/api.md, section 8.11): compact,
 * written field by field so their size is exactly what the budget counts, a
 * batch's {@code spentBytes} including the batch's own bytes. Which form a
 * batch takes is {@link GroupBatches}'s choice.
 */
final class GroupBodies {

    /** What a batch's items are. */
    enum Mode {
        DIGESTS("digests"),
        REFERENCES("references");

        final String wire;

        Mode(String wire) {
            this.wire = wire;
        }
    }

    /** A member as a body names it: id and status; its digest when the body carries digests. */
    record Item(String id, Dispatch.Status status, byte[] digest) {}

    private GroupBodies() {}

    static String link(String groupId) {
        return "/v1/dispatch-groups/" + DispatchKey.idOf(groupId);
    }

    /** A batch whose {@code spentBytes} is {@code spentBefore} plus the batch's own length. */
    static byte[] batch(
            String groupId,
            int number,
            Mode mode,
            int members,
            int finished,
            long maxBytes,
            long spentBefore,
            List<Item> items) {
        return CompactJson.countingItself(
                spentBefore,
                spent -> CompactJson.object(gen -> {
                    gen.writeStringField("type", "group.batch");
                    writeGroup(gen, groupId);
                    gen.writeNumberField("batch", number);
                    gen.writeStringField("mode", mode.wire);
                    gen.writeNumberField("members", members);
                    gen.writeNumberField("finished", finished);
                    writeCounts(gen, items);
                    writeBudget(gen, maxBytes, spent);
                    gen.writeArrayFieldStart("items");
                    for (Item item : items) {
                        if (mode == Mode.DIGESTS) {
                            gen.writeRawValue(new String(item.digest(), StandardCharsets.UTF_8));
                        } else {
                            writeReference(gen, item);
                        }
                    }
                    gen.writeEndArray();
                    writeLinks(gen, groupId);
                }));
    }

    /** The final callback: counts of every member, references to those no batch reported. */
    static byte[] last(String groupId, List<Item> all, int batches, long maxBytes, long spent, List<Item> unreported) {
        return CompactJson.object(gen -> {
            gen.writeStringField("type", "group.finished");
            writeGroup(gen, groupId);
            gen.writeStringField("status", "finished");
            gen.writeNumberField("members", all.size());
            writeCounts(gen, all);
            gen.writeNumberField("batches", batches);
            writeBudget(gen, maxBytes, spent);
            gen.writeArrayFieldStart("items");
            for (Item item : unreported) {
                writeReference(gen, item);
            }
            gen.writeEndArray();
            writeLinks(gen, groupId);
        });
    }

    /** The group as its tenant names it, and the tenant: a receiver checks both (docs/api.md, section 8.10). */
    private static void writeGroup(JsonGenerator gen, String groupId) throws IOException {
        gen.writeStringField("groupId", DispatchKey.idOf(groupId));
        gen.writeStringField("tenant", DispatchKey.tenantOf(groupId));
    }

    private static void writeReference(JsonGenerator gen, Item item) throws IOException {
        gen.writeStartObject();
        gen.writeStringField("id", DispatchKey.idOf(item.id()));
        gen.writeStringField("status", item.status().wire());
        gen.writeStringField("href", DispatchLinks.self(item.id()));
        gen.writeEndObject();
    }

    private static void writeCounts(JsonGenerator gen, List<Item> items) throws IOException {
        Map<Dispatch.Status, Integer> counts = new EnumMap<>(Dispatch.Status.class);
        items.forEach(item -> counts.merge(item.status(), 1, Integer::sum));
        gen.writeObjectFieldStart("counts");
        for (Map.Entry<Dispatch.Status, Integer> count : counts.entrySet()) {
            gen.writeNumberField(count.getKey().wire(), count.getValue());
        }
        gen.writeEndObject();
    }

    private static void writeBudget(JsonGenerator gen, long maxBytes, long spent) throws IOException {
        gen.writeObjectFieldStart("budget");
        gen.writeNumberField("maxDigestBytes", maxBytes);
        gen.writeNumberField("spentBytes", spent);
        gen.writeEndObject();
    }

    private static void writeLinks(JsonGenerator gen, String groupId) throws IOException {
        gen.writeObjectFieldStart("links");
        gen.writeStringField("group", link(groupId));
        gen.writeEndObject();
    }
}
