package dev.sluice.workspace;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The bounds of a dispatch's {@code workspace} (docs/api.md, section 3.5;
 * ADR 0060): what a request may hand its agent, and how an archive named by
 * URL is fetched.
 */
@ConfigMapping(prefix = "sluice.workspace")
public interface WorkspaceConfig {

    /**
     * The most a workspace may hold: the bytes of its files after base64 is
     * decoded and a tar.gz is decompressed, inline files and archive
     * together. {@code sluice.api.max-request-size} must hold this much in
     * base64 (4/3 of it) plus {@code sluice.dispatch.max-input} and 256 KiB,
     * or the worker refuses to start.
     */
    @WithDefault("8M")
    MemorySize maxBytes();

    /** The most entries (files, directories and links) a workspace may hold, inline files and archive together. */
    @WithDefault("10000")
    int maxEntries();

    /** The longest path of an entry, and the longest target of a link, in bytes of UTF-8. */
    @WithDefault("1024")
    int maxPathLength();

    /**
     * How long fetching an archive named by URL may take in all, from the
     * connection to its last byte; it is fetched on the dispatch's own run
     * slot, before its container is created.
     */
    @WithDefault("60s")
    Duration fetchTimeout();

    /** How long connecting to the host of an archive's URL may take. */
    @WithDefault("5s")
    Duration connectTimeout();

    /**
     * Hosts, IP addresses or CIDRs an archive may be fetched from despite the
     * SSRF rules that callbacks follow (docs/api.md, section 8.8): internal
     * artifact servers. Link-local and cloud metadata addresses stay refused.
     */
    Optional<List<String>> allowedHosts();

    /**
     * PEM certificates trusted for archive URLs besides the JVM's own
     * authorities: the CA of an internal artifact server.
     */
    Optional<String> trustCertificates();

    /**
     * The most the workspaces kept on the worker's disk, until their dispatches
     * end, may take together: the bytes of their tars, every tenant's. Past it
     * a request with a workspace is refused with {@code 429 workspaces-full}
     * (ADR 0073). A dispatch with its workspace queued on another worker's disk
     * is not counted here.
     */
    @WithDefault("4G")
    MemorySize maxKeptBytes();

    /**
     * The most one tenant's kept workspaces may take together; past it that
     * tenant's next request with a workspace is refused with
     * {@code 429 workspaces-full} while other tenants' are still taken (ADR
     * 0073). A quarter of {@code max-kept-bytes}.
     */
    @WithDefault("1G")
    MemorySize maxKeptBytesPerTenant();
}
