/**
 * What both doors do, and the one way from a door into the service: the dispatch and group actions
 * ({@code DispatchActions}, {@code GroupActions}), live event streams ({@code EventStreams}),
 * artifacts ({@code DispatchArtifacts}), log reads and the reads relayed from another replica,
 * request validation, refusals as problem details, tokens, the caller's tenant, and views. The REST
 * door ({@code api}) and the MCP door ({@code mcp}) call these and never each other; they inject no
 * bean, setting or utility class of a lower package, and of those packages name only documents (records,
 * enums, exceptions) and the ports they implement (ADR 0080). What a door needs of the run, the
 * record, the events, the callbacks or the store is a method here.
 */
package dev.sluice.actions;
