package dev.sluice.summary;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The optional summarizer (ADR 0034): off unless {@code url} is set. */
@ConfigMapping(prefix = "sluice.summarizer")
public interface SummarizerConfig {

    /**
     * An OpenAI-compatible chat-completions endpoint, POSTed to as given. When
     * set, a result whose stream was truncated, or whose agent wrote no report,
     * gets a generated {@code workerSummary} (docs/api.md, section 7.10); without
     * it there are no summaries. {@code https}, or {@code http} to a loopback
     * address only, and its host on {@code allowed-hosts}; otherwise the worker
     * refuses to start (ADR 0056).
     */
    Optional<URI> url();

    /**
     * The hosts the summarizer's URL may name, comma-separated (names or IP
     * literals, compared exactly, case-insensitive): where the dispatches' kept
     * output may be sent. With none, a summarizer URL refuses the start.
     */
    Optional<List<String>> allowedHosts();

    /** The model named in each request, and in each summary. */
    @WithDefault("gpt-4o-mini")
    String model();

    /** Sent as {@code Authorization: Bearer}; a secret, never logged. */
    Optional<String> apiKey();

    /** The most one summary may take, from connecting to the end of the answer; the result waits no longer. */
    @WithDefault("20s")
    Duration timeout();

    /** The most kept output sent to the model, in UTF-8 bytes: its beginning and end when there is more. */
    @WithDefault("64K")
    MemorySize maxInputBytes();
}
