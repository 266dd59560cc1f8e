package dev.sluice.container;

import java.time.Instant;

import dev.sluice.container.files.WitnessKey;

/**
 * A container as the engine describes it on inspection, in the few terms a
 * dispatch needs.
 *
 * @param created    true while it has never been started
 * @param running    true while its process runs
 * @param exitCode   its exit code once it has stopped; {@code null} when the engine has none
 * @param startedAt  when it started; {@code null} before it has
 * @param finishedAt when it stopped; {@code null} before it has
 * @param oomKilled  true when the kernel killed it for exceeding its memory limit
 * @param runtime    the engine's runtime it was created under ({@code runc}, {@code runsc}); {@code null} when the
 *                   engine does not say
 * @param witnessKey the key its witness authenticates its record with (ADR 0070); {@code null} when it was created
 *                   without one
 */
public record ContainerState(
        boolean created,
        boolean running,
        Integer exitCode,
        Instant startedAt,
        Instant finishedAt,
        boolean oomKilled,
        String runtime,
        WitnessKey witnessKey) {}
