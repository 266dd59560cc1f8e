package dev.sluice.summary;

import java.net.URI;
import java.time.Duration;
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
     * it there are no summaries.
     */
    Optional<URI> url();

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
