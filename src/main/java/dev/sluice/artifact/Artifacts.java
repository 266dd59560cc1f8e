package dev.sluice.artifact;

import java.util.List;

/**
 * What the worker kept of a dispatch's artifacts directory.
 *
 * @param kept    the files kept, in the order the archive gave them
 * @param refused what was not kept; {@code null} when everything was, and the directory was read whole
 */
public record Artifacts(List<Artifact> kept, ArtifactsRefused refused) {

    /** A dispatch that left no artifacts, or whose container was never read. */
    public static final Artifacts NONE = new Artifacts(List.of(), null);
}
