package dev.sluice.artifact;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/** A file the agent left under {@code <out-dir>/artifacts/}, kept by the worker (docs/api.md, section 7.8). */
@JsonPropertyOrder({"name", "size", "sha256", "mediaType", "href"})
@Schema(name = "Artifact", description = "A file the agent left in its artifacts directory, kept by the worker.")
public record Artifact(
        @Schema(required = true, description = "its path under the artifacts directory", examples = "reports/scan.json")
        String name,

        @Schema(required = true, description = "in bytes") long size,

        @Schema(required = true, description = "SHA-256 of its bytes, lowercase hex", pattern = "^[0-9a-f]{64}$")
        String sha256,

        @Schema(
                required = true,
                description = "detected from its name, else its first bytes (section 7.8)",
                examples = "application/json")
        String mediaType,

        @Schema(
                required = true,
                description = "where it is served while retained",
                examples = "/v1/dispatches/triage-17/artifacts/reports/scan.json")
        String href) {}
