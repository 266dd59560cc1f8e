package dev.sluice.mcp;

import dev.sluice.run.DispatchIntake;

/**
 * A door that breaks the rules a door can break on purpose: it reaches past
 * {@code actions} into the run, and holds a statement on the dispatches table
 * outside the record. Only {@code ArchitectureTest} reads it, to show that
 * each rule fails when the code breaks it.
 */
public final class PlantedDoorImport {

    static final String STATEMENT = "SELECT id FROM dispatches WHERE id = ?";

    private PlantedDoorImport() {}

    static String describe(DispatchIntake intake) {
        return String.valueOf(intake) + STATEMENT;
    }
}
