package dev.sluice.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.record.Dispatch;

/** The rounds of a group's callbacks, at chosen moments, without a store or a clock (ADR 0028). */
class GroupBatchesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
    private static final String URL = "https://parent.example/hooks";

    private final GroupBatches batches = new GroupBatches(Duration.ofSeconds(2));

    /** A digest of exactly {@code size} bytes, valid JSON, for any id. */
    private static Function<String, byte[]> digestsOf(int size) {
        return id -> {
            String head = "{\"id\":\"" + id + "\",\"pad\":\"";
            String tail = "\"}";
            return (head + "x".repeat(size - head.length() - tail.length()) + tail).getBytes(StandardCharsets.UTF_8);
        };
    }

    private static GroupBatches.Member running(String id) {
        return new GroupBatches.Member(id, Dispatch.Status.RUNNING, null, null);
    }

    private static GroupBatches.Member ended(String id, Instant at) {
        return new GroupBatches.Member(id, Dispatch.Status.SUCCEEDED, at, null);
    }

    private static GroupBatches.Group group(long budget, long spent, int sent) {
        return new GroupBatches.Group("g-1", URL, budget, spent, sent);
    }

    private static JsonNode json(byte[] body) throws Exception {
        return JSON.readTree(body);
    }

    @Test
    void aCompletionWaitsForTheWindowThenGoesWithTheOthersOfIt() throws Exception {
        List<GroupBatches.Member> members = List.of(ended("a", T0), ended("b", T0.plusMillis(1500)), running("c"));

        assertThat(batches.round(group(6144, 0, 0), members, T0.plusMillis(1999), digestsOf(300))
                        .changes())
                .isFalse();
        GroupBatches.Round round = batches.round(group(6144, 0, 0), members, T0.plusSeconds(2), digestsOf(300));

        assertThat(round.reported()).containsEntry("a", 1).containsEntry("b", 1).hasSize(2);
        assertThat(round.finished()).isFalse();
        assertThat(round.messages()).hasSize(1);
        GroupBatches.Message batch = round.messages().get(0);
        assertThat(batch.webhookId()).isEqualTo("msg_g-1_b1");
        JsonNode body = json(batch.body());
        assertThat(body.path("type").asText()).isEqualTo("group.batch");
        assertThat(body.path("mode").asText()).isEqualTo("digests");
        assertThat(body.path("members").asInt()).isEqualTo(3);
        assertThat(body.path("finished").asInt()).isEqualTo(2);
        assertThat(body.path("counts").path("succeeded").asInt()).isEqualTo(2);
        assertThat(body.path("items").findValuesAsText("id")).containsExactly("a", "b");
        assertThat(body.path("items").get(0).path("pad").isTextual()).isTrue();
        assertThat(body.path("budget").path("spentBytes").asLong()).isEqualTo(batch.body().length);
        assertThat(round.spentBytes()).isEqualTo(batch.body().length);
        assertThat(round.batches()).isEqualTo(1);
    }

    /** Each body names the group as its tenant knows it, and the tenant, which a receiver checks (ADR 0074). */
    @Test
    void everyBodyOfAGroupNamesItsTenant() throws Exception {
        List<GroupBatches.Member> members = List.of(ended("beta.a", T0), ended("beta.b", T0));
        GroupBatches.Round round = batches.round(
                new GroupBatches.Group("beta.g-1", URL, 6144, 0, 0), members, T0.plusSeconds(2), digestsOf(300));

        assertThat(round.messages())
                .extracting(GroupBatches.Message::webhookId)
                .containsExactly("msg_beta.g-1_b1", "msg_beta.g-1_final");
        for (GroupBatches.Message message : round.messages()) {
            String body = new String(message.body(), StandardCharsets.UTF_8);
            assertThat(body).as(message.webhookId()).contains("\"groupId\":\"g-1\",\"tenant\":\"beta\",");
        }
        GroupBatches.Round ofDefault =
                batches.round(group(6144, 0, 0), List.of(ended("a", T0)), T0.plusSeconds(2), digestsOf(300));
        for (GroupBatches.Message message : ofDefault.messages()) {
            assertThat(json(message.body()).path("tenant").asText()).isEqualTo("default");
        }
    }

    @Test
    void whenTheLastMemberEndsWhatWaitsGoesAtOnceAndTheFinalFollows() throws Exception {
        List<GroupBatches.Member> members = List.of(
                new GroupBatches.Member("a", Dispatch.Status.SUCCEEDED, T0, 1),
                new GroupBatches.Member("b", Dispatch.Status.FAILED, T0.plusSeconds(10), null));

        GroupBatches.Round round = batches.round(group(6144, 400, 1), members, T0.plusSeconds(10), digestsOf(300));

        assertThat(round.finished()).isTrue();
        assertThat(round.reported()).containsExactly(java.util.Map.entry("b", 2));
        assertThat(round.messages())
                .extracting(GroupBatches.Message::webhookId)
                .containsExactly("msg_g-1_b2", "msg_g-1_final");
        JsonNode last = json(round.messages().get(1).body());
        assertThat(last.path("type").asText()).isEqualTo("group.finished");
        assertThat(last.path("status").asText()).isEqualTo("finished");
        assertThat(last.path("counts").path("succeeded").asInt()).isEqualTo(1);
        assertThat(last.path("counts").path("failed").asInt()).isEqualTo(1);
        assertThat(last.path("batches").asInt()).isEqualTo(2);
        assertThat(last.path("items").size()).isZero();
        assertThat(last.path("budget").path("spentBytes").asLong()).isEqualTo(round.spentBytes());
    }

    @Test
    void aBatchThatWouldPassTheBudgetGoesAsReferencesWhole() throws Exception {
        List<GroupBatches.Member> members = List.of(ended("a", T0), ended("b", T0), running("c"));

        GroupBatches.Round round = batches.round(group(1000, 300, 1), members, T0.plusSeconds(3), digestsOf(400));

        JsonNode body = json(round.messages().get(0).body());
        assertThat(body.path("mode").asText()).isEqualTo("references");
        assertThat(body.path("items")).hasSize(2);
        assertThat(body.path("items").get(1).path("href").asText()).isEqualTo("/v1/dispatches/b");
        assertThat(body.path("items").get(1).has("pad")).isFalse();
        assertThat(round.spentBytes())
                .isLessThanOrEqualTo(1000)
                .isEqualTo(300 + round.messages().get(0).body().length);
        assertThat(round.reported()).containsEntry("a", 2).containsEntry("b", 2);
    }

    @Test
    void whenNotEvenReferencesFitNoBatchGoesAndTheFinalNamesThem() throws Exception {
        List<GroupBatches.Member> members = List.of(ended("a", T0), running("b"));

        GroupBatches.Round held = batches.round(group(0, 0, 0), members, T0.plusSeconds(3), digestsOf(400));
        assertThat(held.messages()).isEmpty();
        assertThat(held.reported()).containsEntry("a", GroupBatches.IN_FINAL);
        assertThat(held.spentBytes()).isZero();

        List<GroupBatches.Member> later = List.of(
                new GroupBatches.Member("a", Dispatch.Status.SUCCEEDED, T0, GroupBatches.IN_FINAL),
                new GroupBatches.Member("b", Dispatch.Status.TIMED_OUT, T0.plusSeconds(5), null));
        GroupBatches.Round last = batches.round(group(0, 0, 0), later, T0.plusSeconds(5), digestsOf(400));

        assertThat(last.messages()).extracting(GroupBatches.Message::webhookId).containsExactly("msg_g-1_final");
        JsonNode body = json(last.messages().get(0).body());
        assertThat(body.path("items").findValuesAsText("id")).containsExactly("a", "b");
        assertThat(body.path("items").findValuesAsText("status")).containsExactly("succeeded", "timed_out");
        assertThat(body.path("batches").asInt()).isZero();
    }

    /** However 30 completions fall into batches, the budget holds and the final stays small. */
    @Test
    void thirtyMembersStayUnderTenKilobytesWhateverTheBatches() {
        for (int perBatch : new int[] {1, 2, 3, 5, 7, 10, 15, 30}) {
            List<GroupBatches.Member> members = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                members.add(running("d-" + "0".repeat(30) + String.format("%02d", i)));
            }
            long spent = 0;
            int sent = 0;
            long total = 0;
            boolean finished = false;
            for (int done = 0; !finished; ) {
                int upTo = Math.min(30, done + perBatch);
                for (int i = done; i < upTo; i++) {
                    GroupBatches.Member m = members.get(i);
                    members.set(i, new GroupBatches.Member(m.dispatchId(), Dispatch.Status.SUCCEEDED, T0, null));
                }
                done = upTo;
                GroupBatches.Round round =
                        batches.round(group(6144, spent, sent), members, T0.plusSeconds(60), digestsOf(512));
                for (int i = 0; i < members.size(); i++) {
                    GroupBatches.Member m = members.get(i);
                    Integer in = round.reported().get(m.dispatchId());
                    if (in != null) {
                        members.set(i, new GroupBatches.Member(m.dispatchId(), m.status(), m.finishedAt(), in));
                    }
                }
                total += round.messages().stream()
                        .mapToLong(msg -> msg.body().length)
                        .sum();
                spent = round.spentBytes();
                sent = round.batches();
                finished = round.finished();
            }
            assertThat(spent).as("batches of %d", perBatch).isLessThanOrEqualTo(6144);
            assertThat(total).as("batches of %d", perBatch).isLessThan(10_000);
        }
    }
}
