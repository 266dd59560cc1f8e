package dev.sluice.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.sluice.testsupport.Receiver;
import dev.sluice.testsupport.WorkerClient;
import dev.sluice.testsupport.WorkerProcess;

/** The dispatches the minute of scraping sees, and the callbacks of two of them. */
final class ScrapedDispatches {

    private static final int STDOUT_BYTES = 20_000;
    private static final int STDOUT_CAP = 1024;

    private ScrapedDispatches() {}

    /**
     * A success whose stdout is truncated and whose callback is refused once
     * with a 500 and then delivered; a failure whose receiver answers 410, so
     * its delivery is dead-lettered; and one cancelled while it runs.
     */
    static void run(WorkerProcess worker) throws IOException {
        try (Receiver flaky = Receiver.on("127.0.0.1").then(Receiver.status(500));
                Receiver gone = Receiver.on("127.0.0.1").otherwise(Receiver.status(410))) {
            Map<String, Object> truncated =
                    new HashMap<>(WorkerClient.script("yes out | head -c " + STDOUT_BYTES + "; printf 'warn\\n' >&2"));
            truncated.put("output", Map.of("stdoutCapBytes", STDOUT_CAP));
            truncated.put("callbackUrl", flaky.url("/hook"));
            Map<String, Object> failing = new HashMap<>(WorkerClient.script("printf 'oops\\n' >&2; exit 3"));
            failing.put("callbackUrl", gone.url("/hook"));

            String succeeding = worker.submit(truncated);
            String failed = worker.submit(failing);
            String cancelled = worker.submit(WorkerClient.script("sleep 120"));
            worker.awaitStatus(cancelled, "running");
            assertThat(worker.delete("/v1/dispatches/" + cancelled).statusCode())
                    .isEqualTo(202);

            assertThat(status(worker, succeeding)).isEqualTo("succeeded");
            assertThat(status(worker, failed)).isEqualTo("failed");
            assertThat(status(worker, cancelled)).isEqualTo("cancelled");
            worker.awaitDelivered(succeeding);
            worker.awaitRecord(failed, Duration.ofSeconds(30), r -> "dead".equals(WorkerClient.callbackState(r)));
        }
    }

    private static String status(WorkerProcess worker, String id) {
        return worker.awaitTerminal(id, Duration.ofSeconds(60)).path("status").asText();
    }
}
