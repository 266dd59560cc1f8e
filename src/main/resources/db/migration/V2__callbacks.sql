-- Callback delivery: an outbox row per finished dispatch with a callback URL,
-- written in the same transaction as the result. The body sent is the stored
-- result itself (dispatches.result), so every attempt carries the same bytes.
CREATE TABLE callbacks (
    dispatch_id     VARCHAR(64)   NOT NULL PRIMARY KEY REFERENCES dispatches (id) ON DELETE CASCADE,
    webhook_id      VARCHAR(100)  NOT NULL,
    url             VARCHAR(2048) NOT NULL,
    -- pending, delivered or dead
    state           VARCHAR(16)   NOT NULL,
    -- every attempt, and those of the current round (a redelivery starts a new round)
    attempts        INT           NOT NULL DEFAULT 0,
    round_attempts  INT           NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP WITH TIME ZONE,
    last_attempt_at TIMESTAMP WITH TIME ZONE,
    last_status     INT,
    last_error      VARCHAR(300),
    delivered_at    TIMESTAMP WITH TIME ZONE,
    -- which worker is sending it, until when (claims are row-locked, SKIP LOCKED)
    claimed_by      VARCHAR(128),
    claimed_until   TIMESTAMP WITH TIME ZONE,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX callbacks_due ON callbacks (state, next_attempt_at);

CREATE TABLE callback_attempts (
    dispatch_id VARCHAR(64)  NOT NULL REFERENCES dispatches (id) ON DELETE CASCADE,
    attempt     INT          NOT NULL,
    at          TIMESTAMP WITH TIME ZONE NOT NULL,
    status      INT,
    error       VARCHAR(300),
    duration_ms BIGINT       NOT NULL,
    PRIMARY KEY (dispatch_id, attempt)
);
