package dev.sluice.testsupport;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import dev.sluice.output.OutputFormat;
import dev.sluice.record.DispatchResult;
import dev.sluice.record.DispatchSpec;
import dev.sluice.record.DispatchSummary;
import dev.sluice.record.PullPolicy;

/** Records for tests that use the store without the worker around it. */
public final class StoreFixtures {

    private StoreFixtures() {}

    /** JSON as the worker writes it: ISO times and durations. */
    public static ObjectMapper json() {
        return new ObjectMapper()
                .registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS);
    }

    /** A validated dispatch with a secret (whose value must never be stored). */
    public static DispatchSpec spec(String image, String callbackUrl) {
        return spec(image, callbackUrl, Map.of("API_KEY", "the-secret-value"));
    }

    /** A validated dispatch without secrets: any worker may run it (ADR 0063). */
    public static DispatchSpec specWithoutSecrets(String image, String callbackUrl) {
        return spec(image, callbackUrl, Map.of());
    }

    /** A validated dispatch without secrets that may be attempted {@code maxAttempts} times (ADR 0066). */
    public static DispatchSpec specWithAttempts(String image, int maxAttempts) {
        return spec(image, null, Map.of(), maxAttempts);
    }

    private static DispatchSpec spec(String image, String callbackUrl, Map<String, String> secrets) {
        return spec(image, callbackUrl, secrets, 1);
    }

    private static DispatchSpec spec(String image, String callbackUrl, Map<String, String> secrets, int maxAttempts) {
        return new DispatchSpec(
                image,
                PullPolicy.IF_NOT_PRESENT,
                List.of("sh", "-c", "echo hi"),
                Map.of("MODE", "strict"),
                secrets,
                List.copyOf(secrets.keySet()),
                "input text",
                "/work",
                Duration.ofMinutes(15),
                null,
                1L << 30,
                1_000_000_000L,
                256,
                "none",
                null,
                4 << 20,
                256 << 10,
                OutputFormat.TEXT,
                OutputFormat.TEXT,
                List.of(),
                callbackUrl,
                DispatchSpec.CallbackMode.FULL,
                DispatchSpec.CallbackEncoding.IDENTITY,
                Map.of("task", "review-42", "attempt", 2),
                null,
                maxAttempts);
    }

    public static DispatchSummary summary(DispatchResult result) {
        return DispatchSummary.of(result, 9, 0);
    }
}
