package dev.sluice.group;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Dispatch groups (docs/api.md, sections 2.9 and 8.11; ADR 0028). */
@ConfigMapping(prefix = "sluice.groups")
public interface GroupConfig {

    /** The most members a group may have; more is 422. */
    @WithDefault("50")
    int maxMembers();

    /**
     * The budget of a group that names none: the most bytes its batch callbacks
     * carry in all. 6 KiB keeps 30 members, batches and final together, under
     * 10 KB however their completions fall into batches (ADR 0028).
     */
    @WithDefault("6144")
    long maxDigestBytes();

    /** How long a completion waits for others to share its batch. */
    @WithDefault("2s")
    Duration batchWindow();

    /** How often running groups are looked at for batches due; the scheduler runs nothing more often than once a second. */
    @WithDefault("1s")
    Duration pollInterval();
}
