package dev.sluice.container.sandbox;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.files.OutDirectory;
import dev.sluice.container.stream.Attachment;

/**
 * A class that breaks the rules of {@code container.sandbox} on purpose: the
 * sandbox reaching to the container root, the stream and the files.
 * Only {@code ArchitectureTest} reads it, to show that each rule fails when
 * the code breaks it.
 */
public final class PlantedUpwardImport {

    private PlantedUpwardImport() {}

    static String describe(ContainerRuntime runtime, Attachment attachment, OutDirectory out) {
        return String.valueOf(runtime) + String.valueOf(attachment) + String.valueOf(out);
    }
}
