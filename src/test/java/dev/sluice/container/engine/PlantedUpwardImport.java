package dev.sluice.container.engine;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.files.OutDirectory;
import dev.sluice.container.sandbox.Labels;
import dev.sluice.container.stream.Attachment;
import dev.sluice.image.ImageName;

/**
 * A class that breaks the rules of {@code container.engine} on purpose: the
 * transport reaching up to the container root, the stream, the sandbox and the
 * files (a cycle with the stream), and to an image.
 * Only {@code ArchitectureTest} reads it, to show that each rule fails when
 * the code breaks it.
 */
public final class PlantedUpwardImport {

    private PlantedUpwardImport() {}

    static String describe(
            ContainerRuntime runtime, Attachment attachment, Labels labels, OutDirectory out, ImageName image) {
        return String.valueOf(runtime)
                + String.valueOf(attachment)
                + String.valueOf(labels)
                + String.valueOf(out)
                + String.valueOf(image);
    }
}
