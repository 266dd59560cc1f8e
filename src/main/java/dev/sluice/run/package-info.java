/**
 * The run of a dispatch: intake, the scheduler and its capacity, the runner and its three stages
 * (launch, collect, finish), the one finish path ({@code Finisher}), cancel, queue expiry, the idle
 * watch, and the takeover of what reconciliation finds (ADR 0046, 0077).
 */
package dev.sluice.run;
