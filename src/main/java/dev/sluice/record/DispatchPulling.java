package dev.sluice.record;

/**
 * Announced when a dispatch goes back to the queue to wait for its image to
 * be pulled (ADR 0059): it holds no run slot meanwhile. Observers are called
 * on the dispatch's thread and must return at once.
 *
 * @param image the image as requested
 */
public record DispatchPulling(String dispatchId, String image) {}
