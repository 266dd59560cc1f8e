package dev.sluice.actions;

import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The v1 API's access and size limits. */
@ConfigMapping(prefix = "sluice.api")
public interface ApiConfig {

    /** Bearer tokens accepted on /v1/**, comma-separated; unset leaves the API open. Probes stay open. */
    Optional<List<String>> tokens();

    /**
     * Largest request body; larger ones get 413 and change nothing. Its default
     * (2M) is in application.properties, which the HTTP layer's limit follows.
     */
    MemorySize maxRequestSize();

    /** Page size of a listing when the request names none, and the most it may name. */
    @WithDefault("20")
    int defaultPageSize();

    @WithDefault("100")
    int maxPageSize();

    /** Bytes of log a range read returns when the request names no limit, and the most it may name. */
    @WithDefault("1M")
    MemorySize defaultLogRange();

    @WithDefault("16M")
    MemorySize maxLogRange();
}
