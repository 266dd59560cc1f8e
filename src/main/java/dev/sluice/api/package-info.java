/**
 * The REST door: the v1 resources, problem+json mapping, the body limit, the bearer token filter,
 * event streams over SSE, relayed answers, and the OpenAPI document. It calls the service through
 * {@code actions} alone; of the packages below it names only documents (records, enums,
 * exceptions) and implements one port, {@code events.EventSink}, the open response an event stream
 * is written to; besides, it uses the bottom layer ({@code concurrent}, {@code io}, {@code json},
 * {@code trace}, ...). It never uses {@code mcp} (ADR 0079, ADR 0080).
 */
package dev.sluice.api;
