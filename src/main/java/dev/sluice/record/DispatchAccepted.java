package dev.sluice.record;

/** Announced once for every dispatch a request created; a replay of the same request announces nothing. */
public record DispatchAccepted(String dispatchId) {}
