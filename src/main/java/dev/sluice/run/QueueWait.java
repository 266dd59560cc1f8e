package dev.sluice.run;

import java.time.Duration;

/**
 * Announced when a queued dispatch takes a run slot: how long it waited since
 * it was accepted. A dispatch put back in the queue because the engine could
 * not be reached announces again when it next leaves, with its whole wait.
 */
public record QueueWait(Duration waited) {}
