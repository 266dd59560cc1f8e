/**
 * The log read side: a dispatch's full logs by byte range, and what the container runtime still
 * holds of them after rotation (ADR 0032, ADR 0046).
 */
package dev.sluice.logs;
