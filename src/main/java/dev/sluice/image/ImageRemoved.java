package dev.sluice.image;

/** Announced when the collector removed a reference the worker pulled and no dispatch used for its retention (ADR 0062). */
public record ImageRemoved() {}
