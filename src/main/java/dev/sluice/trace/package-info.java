/**
 * Traces (ADR 0069): a dispatch's spans, from its request to each callback
 * attempt, under the W3C trace context its request carried, and the trace and
 * span ids its log lines carry. What the spans are exported to is
 * OpenTelemetry's own configuration.
 */
package dev.sluice.trace;
