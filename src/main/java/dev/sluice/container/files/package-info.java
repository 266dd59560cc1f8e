/**
 * Files into and out of a dispatch's container (ADR 0079): the workspace placed before the start
 * ({@code WorkspaceUpload}), the out-directory and its walk ({@code OutDirectory},
 * {@code OutArchive}), and the output witness with its key and record ({@code Witness},
 * {@code WitnessKey}, {@code WitnessRecord}). It uses {@code container.engine} and
 * {@code container.sandbox}, never {@code container.stream} nor the container root.
 */
package dev.sluice.container.files;
