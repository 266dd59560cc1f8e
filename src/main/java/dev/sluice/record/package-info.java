/**
 * The dispatch record and its result contract: what was asked ({@code DispatchSpec}), where it
 * stands ({@code Dispatch}), how it ended ({@code Ending}, {@code DispatchResult}, its budget and
 * digest), how it is stored and read ({@code DispatchStore}, {@code DispatchTransitions},
 * {@code DispatchQueries}), the announcements of its transitions, and the secrets held beside it in
 * memory only. It imports nothing that runs a dispatch (ADR 0046).
 */
package dev.sluice.record;
