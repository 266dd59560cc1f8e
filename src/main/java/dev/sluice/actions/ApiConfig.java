package dev.sluice.actions;

import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The v1 API's access and size limits. */
@ConfigMapping(prefix = "sluice.api")
public interface ApiConfig {

    /**
     * Bearer tokens accepted on {@code /v1/**} and {@code /mcp}, comma-separated; unset leaves
     * them open. {@code /q/*} (probes, metrics, the OpenAPI document) stays open.
     */
    Optional<List<String>> tokens();

    /**
     * Largest request body; larger ones get 413 and change nothing. Its default
     * (2M) is in application.properties, which the HTTP layer's limit follows.
     */
    MemorySize maxRequestSize();

    /** Page size of a listing when the request names none. */
    @WithDefault("20")
    int defaultPageSize();

    /** The most a listing's {@code limit} may name. */
    @WithDefault("100")
    int maxPageSize();

    /** Bytes of log a range read returns when the request names no {@code limit}. */
    @WithDefault("1M")
    MemorySize defaultLogRange();

    /** The most bytes of log one range read may ask for. */
    @WithDefault("16M")
    MemorySize maxLogRange();
}
