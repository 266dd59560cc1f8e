package dev.sluice.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.TestDocker;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/**
 * What an operator's log shipper reads from the packaged worker: with
 * sluice.log.json every line is one JSON object, and the lines about a
 * dispatch (accepted, running, ended, its callback attempts) carry its id in
 * mdc.dispatchId, whichever thread wrote them; in text the id stands in
 * brackets. Two dispatches in a row on pooled threads: neither's lines carry
 * the other's id.
 */
class WorkerLogsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void jsonLinesAboutADispatchCarryItsId() throws IOException {
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("logs-json"), "logs-json");
        env.put("SLUICE_LOG_JSON", "true");
        String delivered;
        String failed;
        String text;
        try (Receiver receiver = Receiver.on("127.0.0.1");
                WorkerProcess worker = WorkerProcess.start(env)) {
            Map<String, Object> request = new HashMap<>(WorkerClient.script("echo done"));
            request.put("callbackUrl", receiver.url("/hooks"));
            delivered = worker.submit(request);
            worker.awaitDelivered(delivered);
            failed = worker.submit(WorkerClient.script("exit 3"));
            worker.awaitTerminal(failed, Duration.ofSeconds(60));
            // A line is written just after the state it reports is stored: wait for the last ones.
            text = awaitLog(worker, "ended failed, exit code 3", "callback msg_" + delivered + " attempt 1");
        }

        List<JsonNode> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                JsonNode parsed = JSON.readTree(line);
                assertThat(parsed.isObject()).as(line).isTrue();
                lines.add(parsed);
            }
        }
        assertThat(messagesOf(lines, delivered))
                .anyMatch(m -> m.equals("accepted: image " + TestDocker.AGENT_IMAGE))
                .anyMatch(m -> m.startsWith("running in container "))
                .anyMatch(m -> m.startsWith("ended succeeded, exit code 0, "))
                .anyMatch(m -> m.startsWith("callback msg_" + delivered + " attempt 1 to http://127.0.0.1:"));
        assertThat(messagesOf(lines, failed))
                .anyMatch(m -> m.startsWith("running in container "))
                .anyMatch(m -> m.startsWith("ended failed, exit code 3, "))
                .noneMatch(m -> m.startsWith("ended succeeded"));
        // Written by the HTTP thread, the dispatch's own thread and a callback sender.
        assertThat(lines.stream()
                        .filter(l -> delivered.equals(l.at("/mdc/dispatchId").asText()))
                        .map(l -> l.path("threadName").asText())
                        .distinct())
                .hasSizeGreaterThanOrEqualTo(3);
        // A line that names a dispatch is about it.
        for (JsonNode line : lines) {
            String message = line.path("message").asText();
            for (String id : List.of(delivered, failed)) {
                if (message.contains(id)) {
                    assertThat(line.at("/mdc/dispatchId").asText()).as(message).isEqualTo(id);
                }
            }
        }
    }

    @Test
    void textLinesShowTheIdInBrackets() throws IOException {
        Map<String, String> env = WorkerProcess.baseEnvironment(WorkerProcess.freshDataDir("logs-text"), "logs-text");
        String id;
        String text;
        try (WorkerProcess worker = WorkerProcess.start(env)) {
            id = worker.submit(WorkerClient.script("echo done"));
            worker.awaitTerminal(id, Duration.ofSeconds(60));
            text = awaitLog(worker, "ended succeeded");
        }
        assertThat(text.lines())
                .anyMatch(l -> l.contains("[" + id + "] accepted: image "))
                .anyMatch(l -> l.contains("[" + id + "] ended succeeded, exit code 0, "))
                .anyMatch(l -> l.contains("[] dispatch store: h2"))
                .noneMatch(l -> l.startsWith("{"));
    }

    private static String awaitLog(WorkerProcess worker, String... fragments) {
        return await().atMost(Duration.ofSeconds(30))
                .until(worker::logText, text -> List.of(fragments).stream().allMatch(text::contains));
    }

    private static List<String> messagesOf(List<JsonNode> lines, String id) {
        return lines.stream()
                .filter(l -> id.equals(l.at("/mdc/dispatchId").asText()))
                .map(l -> l.path("message").asText())
                .toList();
    }
}
