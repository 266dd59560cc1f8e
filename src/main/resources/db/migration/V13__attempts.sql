-- Another attempt for a lost worker's dispatch (ADR 0066). A dispatch that
-- asked for more than one attempt (its request's maxAttempts) and whose
-- worker was lost while it ran goes back to the queue with the next attempt
-- number; how each earlier attempt ended is kept, as JSON, for the result.
ALTER TABLE dispatches ADD COLUMN attempt INT DEFAULT 1 NOT NULL;
ALTER TABLE dispatches ADD COLUMN earlier_attempts TEXT;
