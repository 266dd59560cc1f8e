/**
 * The transport to the engine (ADR 0079): the Docker clients and the socket under them, a deadline
 * on every call ({@code EngineCall}, {@code EngineCalls}, {@code EngineTimeoutException}), one
 * change at a time while the engine answers ({@code EngineChanges}), the health monitor, the
 * engine's versions and JSON, its failures in our words ({@code ContainerException}), and the
 * archive endpoint: an archive put into a container ({@code ArchiveUpload}) and one file read out
 * of it ({@code ContainerPaths}, {@code TarEntryReader}, {@code OutFile}). It is the bottom of the
 * container packages and uses none of them; docker-java is wrapped here and, for the calls of
 * their own, in the packages above.
 */
package dev.sluice.container.engine;
