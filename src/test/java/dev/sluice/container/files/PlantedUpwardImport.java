package dev.sluice.container.files;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.stream.Attachment;

/**
 * A class that breaks the rules of {@code container.files} on purpose: the
 * files reaching to the container root and the stream.
 * Only {@code ArchitectureTest} reads it, to show that each rule fails when
 * the code breaks it.
 */
public final class PlantedUpwardImport {

    private PlantedUpwardImport() {}

    static String describe(ContainerRuntime runtime, Attachment attachment) {
        return String.valueOf(runtime) + String.valueOf(attachment);
    }
}
