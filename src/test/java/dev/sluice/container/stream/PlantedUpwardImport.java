package dev.sluice.container.stream;

import dev.sluice.container.ContainerRuntime;
import dev.sluice.container.files.WitnessKey;
import dev.sluice.container.sandbox.Labels;

/**
 * A class that breaks the rules of {@code container.stream} on purpose: the
 * stream reaching to the container root, the sandbox and the files.
 * Only {@code ArchitectureTest} reads it, to show that each rule fails when
 * the code breaks it.
 */
public final class PlantedUpwardImport {

    private PlantedUpwardImport() {}

    static String describe(ContainerRuntime runtime, Labels labels, WitnessKey key) {
        return String.valueOf(runtime) + String.valueOf(labels) + String.valueOf(key);
    }
}
