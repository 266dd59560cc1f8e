/**
 * The MCP door: the tools over the same actions as the REST door, their schemas, the answer budget,
 * the waits for a dispatch's finish, and the MCP lists of callback, archive and registry hosts. It
 * calls the service through {@code actions} alone; of the packages below it names only documents
 * (records, enums, exceptions), and besides uses the bottom layer. It never uses {@code api} (ADR
 * 0079, ADR 0080).
 */
package dev.sluice.mcp;
