package dev.sluice.summary;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Asks an OpenAI-compatible chat-completions endpoint ({@code POST url} with
 * {@code model} and {@code messages}) for a summary. The whole call, from
 * connecting to the last byte of the answer, is bounded by the timeout; the
 * answer is read up to {@link #MAX_ANSWER} bytes; failures are reasons with
 * fixed wording, so neither the key nor anything the endpoint says reaches a
 * log.
 */
final class ChatCompletionsSummarizer implements Summarizer {

    /** The most of an answer read: far more than any summary, far less than a heap. */
    static final int MAX_ANSWER = 256 * 1024;

    /** The most summary text kept, in characters. */
    static final int MAX_TEXT = 8192;

    static final String INSTRUCTIONS = "You summarize the output of one program run by an automated worker, for the"
            + " agent or person who started it. Say what the program did, whether it appears to have succeeded,"
            + " and quote any error briefly. The output may be cut: a line beginning \"[... sluice\" stands where"
            + " bytes were left out, and the text beside it is the beginning and end of the stream. Be brief.";

    private static final String CUT = "\n[... cut to fit the summarizer's input ...]\n";

    private final ObjectMapper json = new ObjectMapper();
    private final HttpClient http;
    private final URI url;
    private final String model;
    private final Optional<String> apiKey;
    private final Duration timeout;
    private final int maxInputBytes;

    ChatCompletionsSummarizer(URI url, String model, Optional<String> apiKey, Duration timeout, int maxInputBytes) {
        this.url = url;
        this.model = model;
        this.apiKey = apiKey;
        this.timeout = timeout;
        this.maxInputBytes = maxInputBytes;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public boolean enabled() {
        return true;
    }

    @Override
    public Outcome summarize(String stdout, String stderr) {
        String input = bounded("stdout:\n" + stdout + "\n\nstderr:\n" + stderr, maxInputBytes);
        HttpRequest.Builder request = HttpRequest.newBuilder(url)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body(input)));
        apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
        AtomicReference<InputStream> open = new AtomicReference<>();
        CompletableFuture<Outcome> call = http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofInputStream())
                .thenApply(response -> {
                    open.set(response.body());
                    return answer(response, input.getBytes(StandardCharsets.UTF_8).length);
                });
        try {
            return call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return Outcome.failed("no answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            return Outcome.failed("the endpoint could not be reached");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.failed("interrupted");
        } finally {
            call.cancel(true);
            close(open.get()); // a read still under way ends here
        }
    }

    private byte[] body(String input) {
        try {
            return json.writeValueAsBytes(Map.of(
                    "model",
                    model,
                    "messages",
                    List.of(
                            Map.of("role", "system", "content", INSTRUCTIONS),
                            Map.of("role", "user", "content", input))));
        } catch (IOException e) {
            throw new IllegalStateException("a request of strings could not be written", e);
        }
    }

    private Outcome answer(HttpResponse<InputStream> response, long inputBytes) {
        try (InputStream in = response.body()) {
            if (response.statusCode() / 100 != 2) {
                return Outcome.failed("the endpoint answered HTTP " + response.statusCode());
            }
            JsonNode content = json.readTree(in.readNBytes(MAX_ANSWER)).at("/choices/0/message/content");
            if (!content.isTextual() || content.asText().isBlank()) {
                return Outcome.failed("the answer has no choices[0].message.content");
            }
            String text = content.asText().strip();
            if (text.length() > MAX_TEXT) {
                text = text.substring(0, MAX_TEXT);
            }
            return Outcome.of(new WorkerSummary(text, model, WorkerSummary.GENERATED_BY, inputBytes));
        } catch (IOException e) {
            return Outcome.failed("the answer could not be read as chat completions JSON");
        }
    }

    /** The text within {@code max} UTF-8 bytes: its first quarter and its end, at character boundaries. */
    static String bounded(String text, int max) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= max) {
            return text;
        }
        int room = Math.max(0, max - CUT.length());
        int headEnd = boundary(bytes, room / 4);
        int tailStart = bytes.length - (room - headEnd);
        while (tailStart < bytes.length && (bytes[tailStart] & 0xC0) == 0x80) {
            tailStart++;
        }
        return new String(bytes, 0, headEnd, StandardCharsets.UTF_8)
                + CUT
                + new String(bytes, tailStart, bytes.length - tailStart, StandardCharsets.UTF_8);
    }

    private static int boundary(byte[] bytes, int at) {
        while (at > 0 && (bytes[at] & 0xC0) == 0x80) {
            at--;
        }
        return at;
    }

    private static void close(InputStream in) {
        if (in == null) {
            return;
        }
        try {
            in.close();
        } catch (IOException e) {
            // it was only being read
        }
    }
}
