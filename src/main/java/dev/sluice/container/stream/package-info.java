/**
 * The container's output as it streams (ADR 0079): the attach over a connection of its own
 * ({@code Attachment}), its frames split into stdout and stderr ({@code FrameDemuxer},
 * {@code StreamPump}) without a copy per frame ({@code BlockHandoff}), into an {@code OutputSink}.
 * It uses {@code container.engine} alone among the container packages.
 */
package dev.sluice.container.stream;
