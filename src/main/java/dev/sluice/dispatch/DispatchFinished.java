package dev.sluice.dispatch;

/**
 * Announced once for every dispatch that reaches a terminal state, after its
 * result and outbox row are committed: callback delivery wakes for it, metrics
 * count it. Losing the announcement loses nothing (the outbox is polled). It
 * carries no output: the result stays in the store.
 */
public record DispatchFinished(String dispatchId, Dispatch.Status status) {}
