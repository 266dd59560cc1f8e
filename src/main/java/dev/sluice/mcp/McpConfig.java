package dev.sluice.mcp;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** The MCP server's limits (ADR 0027). */
@ConfigMapping(prefix = "sluice.mcp")
public interface McpConfig {

    /**
     * The most a tool's answer may hold, in UTF-8 bytes of its text: what an
     * agent's context is asked to take at once. 32 KiB is some 8,000 tokens;
     * whatever does not fit is left out and the answer says what and where it
     * is. At least 1 KiB, so the 512-byte digest always fits.
     */
    @WithDefault("32K")
    MemorySize maxResultBytes();

    /**
     * The longest {@code wait} that {@code dispatch_subagent} takes. Below the
     * official SDK's 60-second request timeout, so a client with default
     * settings gets its answer rather than a timeout.
     */
    @WithDefault("50s")
    Duration maxWait();

    /**
     * The hosts a dispatch or group made over MCP may name in its
     * {@code callbackUrl}, comma-separated (names or IP literals, compared
     * exactly, case-insensitive). With none, MCP dispatches take no callback:
     * the model that writes them can be steered by what it reads (ADR 0056).
     * The callback SSRF rules still apply to the hosts listed here.
     */
    Optional<List<String>> callbackAllowedHosts();

    /**
     * The hosts a dispatch made over MCP may name in
     * {@code workspace.archive.url}, comma-separated (names or IP literals,
     * compared exactly, case-insensitive). With none, the default, MCP
     * dispatches take no archive URL: the worker would fetch from wherever the
     * model that writes them was steered to (ADR 0075). Inline files and
     * archives are not concerned. A listed host is still fetched from under
     * the workspace's SSRF rules and {@code sluice.workspace.allowed-hosts}.
     */
    Optional<List<String>> archiveAllowedHosts();

    /**
     * The registries a dispatch made over MCP may have its image pulled from,
     * comma-separated, each as an image reference names it
     * ({@code registry.example}, {@code registry.example:5000}, and
     * {@code docker.io} for images that name none), compared exactly,
     * case-insensitive. An image of another registry runs over MCP only
     * without a pull: when its pull policy is {@code never}, or
     * {@code if-not-present} and the engine holds it at intake, and then it
     * runs as {@code never}. None by default: MCP dispatches run images the
     * engine already has (ADR 0075). {@code sluice.images.allowed} still
     * applies to every image.
     */
    Optional<List<String>> registryAllowedHosts();
}
