package dev.sluice.events;

/**
 * One server-sent event, ready to go out: its name, its id ({@code null} for
 * none: only state events of one dispatch carry one) and its JSON data.
 */
public record EventMessage(String name, String id, String data) {}
