-- Traces (ADR 0069): the W3C traceparent of the span made when a dispatch
-- was accepted. Every later span of the dispatch, on whichever worker, hangs
-- under it, each callback attempt continues it, and the record shows its
-- trace id. Null for dispatches accepted before traces existed.
ALTER TABLE dispatches ADD COLUMN trace_parent VARCHAR(64);
