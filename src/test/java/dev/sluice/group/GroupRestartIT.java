package dev.sluice.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.Signatures;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * The packaged worker killed (SIGKILL) while a group's members run, and
 * started again over the same store: the group is still there, its members
 * end, and the parent gets every member reported once and the final callback.
 */
class GroupRestartIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Receiver receiver = Receiver.on("127.0.0.1");

    @AfterEach
    void close() {
        receiver.close();
    }

    @Test
    void aGroupOutlivesASigkillOfItsWorker() throws Exception {
        Path data = WorkerProcess.freshDataDir("group-sigkill");
        Map<String, String> env = WorkerProcess.baseEnvironment(data, "group-sigkill");
        String groupId;
        List<String> members;
        try (WorkerProcess first = WorkerProcess.start(env)) {
            var answer = first.post(
                    "/v1/dispatch-groups",
                    JSON.writeValueAsString(Map.of(
                            "dispatches",
                            List.of(WorkerClient.script("echo quick"), WorkerClient.script("sleep 4; echo slow")),
                            "callbackUrl",
                            receiver.url("/hooks/group"))));
            assertThat(answer.statusCode()).isEqualTo(202);
            JsonNode group = JSON.readTree(answer.body());
            groupId = group.path("id").asText();
            members = List.of(
                    group.path("members").get(0).path("id").asText(),
                    group.path("members").get(1).path("id").asText());
            first.awaitStatus(members.get(1), "running");
            first.kill();
        }
        try (WorkerProcess second = WorkerProcess.start(env)) {
            JsonNode group = await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> JSON.readTree(
                                    second.get("/v1/dispatch-groups/" + groupId).body()),
                            g -> g.path("status").asText().equals("finished"));
            List<String> listed = new ArrayList<>();
            group.path("members").forEach(m -> listed.add(m.path("id").asText()));
            assertThat(listed).containsExactlyElementsOf(members);

            Map<String, Receiver.Request> messages = await().atMost(Duration.ofMinutes(1))
                    .pollInterval(Duration.ofMillis(200))
                    .until(
                            () -> receiver.byWebhookId("msg_" + groupId + "_"),
                            m -> m.containsKey("msg_" + groupId + "_final"));
            List<String> reported = new ArrayList<>();
            for (Receiver.Request message : messages.values()) {
                assertThat(Signatures.verifies(message, Signatures.TEST_SECRETS.get(0)))
                        .isTrue();
                JSON.readTree(message.body())
                        .path("items")
                        .forEach(i -> reported.add(i.path("id").asText()));
            }
            assertThat(reported).containsExactlyInAnyOrderElementsOf(members);
        }
    }
}
