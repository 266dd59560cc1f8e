/**
 * The run of a dispatch: intake, the scheduler and its capacity, the runner that attaches, waits
 * and captures, the one finish path ({@code Finisher}), cancel, queue expiry, the idle watch, and
 * the takeover of what reconciliation finds (ADR 0046).
 */
package dev.sluice.run;
