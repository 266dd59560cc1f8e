package dev.sluice.callback;

/**
 * Announced after a transaction that queued stored messages
 * ({@link CallbackStore#enqueueMessage}) committed: delivery wakes for them
 * rather than waiting for its next poll. Losing it loses nothing.
 */
public record MessageQueued(int messages) {}
