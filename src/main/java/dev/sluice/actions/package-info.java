/**
 * What both doors do: the dispatch and group actions, request validation, refusals as problem
 * details, tokens and views. The REST door ({@code api}) and the MCP door ({@code mcp}) call these
 * and never each other (ADR 0046).
 */
package dev.sluice.actions;
