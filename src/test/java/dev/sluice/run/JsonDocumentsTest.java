package dev.sluice.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.sluice.container.ContainerLogs;
import dev.sluice.container.engine.ContainerException;
import dev.sluice.output.CapturedOutput;
import dev.sluice.output.FormatOutcome;
import dev.sluice.output.OutputFormat;
import dev.sluice.output.SecretMasker;
import dev.sluice.output.StreamCollector;
import dev.sluice.record.DispatchSpec;
import dev.sluice.testsupport.StoreFixtures;

/**
 * A json stream over its cap is reduced from the runtime's log when the log
 * holds it whole and it is not too long; otherwise it stays text and the result
 * says why (ADR 0031).
 */
class JsonDocumentsTest {

    private static final String NONCE = "d0cs-n0nce-1";

    /** The runtime's log, as the engine would serve it: these bytes, or a failure. */
    private static ContainerLogs log(byte[] bytes) {
        return new ContainerLogs(null) {
            @Override
            public Range read(
                    String containerId,
                    boolean stdout,
                    long availableFrom,
                    long offset,
                    int limit,
                    SecretMasker masker) {
                if (bytes == null) {
                    throw new ContainerException(ContainerException.Reason.NOT_FOUND, "no such container");
                }
                return new Range(bytes, 0, true);
            }
        };
    }

    private static DispatchSpec spec(OutputFormat format) {
        DispatchSpec s = StoreFixtures.spec("img:1", null);
        return new DispatchSpec(
                s.image(),
                s.imagePullPolicy(),
                s.command(),
                s.env(),
                s.secrets(),
                s.secretNames(),
                s.input(),
                s.workingDir(),
                s.timeout(),
                s.idleTimeout(),
                s.memoryBytes(),
                s.nanoCpus(),
                s.pids(),
                s.network(),
                s.runtime(),
                1024,
                1024,
                format,
                OutputFormat.TEXT,
                List.of(),
                null,
                s.callbackMode(),
                s.callbackEncoding(),
                s.metadata(),
                s.workspace(),
                s.maxAttempts());
    }

    private static String document() {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < 300; i++) {
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append('}');
        }
        return b.append(']').toString();
    }

    private static CapturedOutput captured(String document) {
        StreamCollector c = StreamCollector.of(OutputFormat.JSON, "stdout", 1024, "/l", NONCE, SecretMasker.NONE);
        byte[] bytes = document.getBytes(StandardCharsets.UTF_8);
        c.write(bytes, 0, bytes.length);
        return c.finish();
    }

    private static CapturedOutput finish(JsonDocuments documents, OutputFormat format, String document) {
        return documents.finish(captured(document), spec(format), true, "c1", NONCE, SecretMasker.NONE);
    }

    @Test
    void aDocumentTheLogHoldsWholeIsReduced() {
        String doc = document();
        CapturedOutput out =
                finish(new JsonDocuments(log(doc.getBytes(StandardCharsets.UTF_8)), 1 << 20), OutputFormat.JSON, doc);
        assertThat(out.format()).isEqualTo(FormatOutcome.as(OutputFormat.JSON));
        assertThat(out.overflow().format()).isEqualTo(OutputFormat.JSON);
    }

    @Test
    void aDocumentLongerThanTheMaximumStaysText() {
        String doc = document();
        CapturedOutput out = finish(new JsonDocuments(log(null), 2000), OutputFormat.JSON, doc);
        assertThat(out.format().fallback()).isEqualTo(FormatOutcome.DOCUMENT_TOO_LARGE);
        assertThat(out.overflow().format()).isEqualTo(OutputFormat.TEXT);
        assertThat(out.text()).isEqualTo(captured(doc).text());
    }

    @Test
    void aLogThatIsGoneOrShorterLeavesText() {
        String doc = document();
        assertThat(finish(new JsonDocuments(log(null), 1 << 20), OutputFormat.JSON, doc)
                        .format()
                        .fallback())
                .isEqualTo(FormatOutcome.LOG_UNAVAILABLE);
        byte[] rotated = doc.substring(100).getBytes(StandardCharsets.UTF_8);
        assertThat(finish(new JsonDocuments(log(rotated), 1 << 20), OutputFormat.JSON, doc)
                        .format()
                        .fallback())
                .isEqualTo(FormatOutcome.LOG_UNAVAILABLE);
    }

    @Test
    void aTextStreamIsLeftAsItIs() {
        String doc = document();
        CapturedOutput text = captured(doc);
        assertThat(new JsonDocuments(log(null), 1 << 20)
                        .finish(text, spec(OutputFormat.TEXT), true, "c1", NONCE, SecretMasker.NONE))
                .isSameAs(text);
    }
}
