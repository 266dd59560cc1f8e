package dev.sluice.output;

import java.nio.charset.StandardCharsets;
import java.util.List;

import jakarta.annotation.Priority;
import jakarta.enterprise.event.ObservesAsync;
import jakarta.inject.Singleton;

import dev.sluice.concurrent.WarmUp;

/** The collectors' way, taken once after start: a stream that fits and one cut to its cap, both masked and digested. */
@Singleton
class OutputWarmUp {

    private static final String SECRET = "secret-warm-up";
    private static final byte[] LINE =
            ("warm-up output, h\u00e9llo, " + SECRET + "\n").getBytes(StandardCharsets.UTF_8);

    void warmUp(@ObservesAsync @Priority(WarmUp.OUTPUT) WarmUp warmUp) {
        warmUp.step("output", () -> {
            SecretMasker masker = new SecretMasker(List.of(SECRET), SECRET.length());
            collect(1, masker);
            collect(4 * OutputCollector.MIN_CAP / LINE.length, masker);
        });
    }

    private static CapturedOutput collect(int lines, SecretMasker masker) {
        OutputCollector collector =
                new OutputCollector("stdout", OutputCollector.MIN_CAP, "/warm-up", MarkerNonce.random(), masker);
        for (int i = 0; i < lines; i++) {
            collector.write(LINE, 0, LINE.length);
        }
        return collector.finish();
    }
}
