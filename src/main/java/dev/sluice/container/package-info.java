/**
 * The life of a dispatch's container (ADR 0079): its creation, start, wait, stop and removal
 * ({@code ContainerRuntime}, {@code ContainerStopper}), what the engine holds of the worker's
 * containers ({@code ContainerInventory}, {@code ManagedContainer}, {@code ContainerState}), the
 * reaper of ended ones, their logs and how long they are kept ({@code ContainerLogs},
 * {@code LogSetup}, {@code LogRetention}), the engine's warm-up and the wiring. It puts together
 * its sub-packages, which it may all use: {@code engine} (the transport), {@code stream} (the
 * attach), {@code sandbox} (what confines the container) and {@code files} (what goes in and comes
 * out). It never uses {@code image}, which sits above it.
 */
package dev.sluice.container;
