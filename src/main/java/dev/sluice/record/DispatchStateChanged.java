package dev.sluice.record;

/**
 * Announced when a dispatch moves between the states before its end:
 * {@code starting}, {@code running}, and {@code queued} again when the engine
 * could not be reached. Its acceptance ({@link DispatchAccepted}) and its end
 * ({@link DispatchFinished}) have announcements of their own. Observers are
 * called on the thread that changed the state, after the change is stored,
 * and must return at once.
 */
public record DispatchStateChanged(String dispatchId, Dispatch.Status status) {}
