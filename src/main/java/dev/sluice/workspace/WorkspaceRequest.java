package dev.sluice.workspace;

import java.util.List;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * The files a request hands its agent (docs/api.md, section 3.5): inline
 * files, one tar or tar.gz archive, or both, placed in the work area before
 * the agent starts.
 */
@Schema(
        name = "DispatchWorkspace",
        description = "Files placed in the work area (sluice.container.work-dir, /work) before the agent starts, "
                + "owned by and writable by the container's user (section 3.5). At most sluice.workspace.max-bytes "
                + "(8 MiB) decoded and decompressed, sluice.workspace.max-entries (10000) entries, paths of at "
                + "most sluice.workspace.max-path-length (1024) bytes; every path relative, without .., and no "
                + "link out of the workspace, no device or FIFO.")
public record WorkspaceRequest(
        @Schema(description = "files given in the request, placed after the archive; a path given twice is refused")
        List<File> files,

        Archive archive) {

    /** Whether its content comes with the request (files, or an archive in base64), to be kept on this worker. */
    @JsonIgnore
    public boolean inline() {
        return (files != null && !files.isEmpty()) || (archive != null && archive.base64() != null);
    }

    @Schema(name = "DispatchWorkspaceFile", description = "One file of the workspace.")
    public record File(
            @Schema(required = true, description = "relative path, such as src/A.java", maxLength = 1024)
            String path,

            @Schema(description = "the file's content; empty when absent")
            String content,

            @Schema(
                    description = "how content is written: utf8 (the default) or base64",
                    enumeration = {"utf8", "base64"})
            String encoding,

            @Schema(
                    description = "permission bits in octal, 0644 by default; setuid, setgid and sticky bits "
                            + "are refused",
                    pattern = "^[0-7]{1,4}$",
                    examples = "0755")
            String mode) {}

    @Schema(
            name = "DispatchWorkspaceArchive",
            description = "One tar or tar.gz archive, given inline (base64) or fetched by the worker (url, "
                    + "https only, with its sha256).")
    public record Archive(
            @Schema(description = "the archive's bytes in base64")
            String base64,

            @Schema(
                    description = "an https URL the worker fetches the archive from before the dispatch starts, "
                            + "under the SSRF rules of callbacks (section 8.8) and sluice.workspace.allowed-hosts",
                    format = "uri",
                    maxLength = 2048)
            String url,

            @Schema(
                    description = "SHA-256 of the archive's bytes as given (before decompression), lowercase "
                            + "hex; required with url",
                    pattern = "^[0-9a-f]{64}$")
            String sha256) {}
}
