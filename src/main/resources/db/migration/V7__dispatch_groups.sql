-- Dispatch groups (ADR 0028). A group and its member dispatches are written in
-- one transaction; a member is an ordinary row of dispatches. reported_in is
-- the batch that reported a member (1, 2, ...), 0 when the final callback
-- named it, NULL until either; spent_bytes is the sum of the group's batch
-- bodies, bounded by max_digest_bytes.
CREATE TABLE dispatch_groups (
    id               VARCHAR(64)   NOT NULL PRIMARY KEY,
    -- running until the final callback is made, then finished
    status           VARCHAR(16)   NOT NULL,
    callback_url     VARCHAR(2048),
    max_digest_bytes BIGINT        NOT NULL,
    spent_bytes      BIGINT        NOT NULL DEFAULT 0,
    batches          INT           NOT NULL DEFAULT 0,
    member_count     INT           NOT NULL,
    metadata         TEXT,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    finished_at      TIMESTAMP WITH TIME ZONE
);

CREATE INDEX dispatch_groups_status ON dispatch_groups (status);

CREATE TABLE dispatch_group_members (
    group_id     VARCHAR(64) NOT NULL REFERENCES dispatch_groups (id) ON DELETE CASCADE,
    member_index INT         NOT NULL,
    dispatch_id  VARCHAR(64) NOT NULL,
    reported_in  INT,
    PRIMARY KEY (group_id, member_index)
);

CREATE UNIQUE INDEX dispatch_group_members_dispatch ON dispatch_group_members (dispatch_id);

-- Signed messages that are not one dispatch's result (a group's batches and
-- its final callback): the body is made once and kept here, so every attempt
-- sends the same bytes. Delivered by the same loop as the callbacks table,
-- with the same columns for state, attempts and claims.
CREATE TABLE callback_messages (
    webhook_id      VARCHAR(100)  NOT NULL PRIMARY KEY,
    url             VARCHAR(2048) NOT NULL,
    body            BYTEA         NOT NULL,
    state           VARCHAR(16)   NOT NULL,
    attempts        INT           NOT NULL DEFAULT 0,
    round_attempts  INT           NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMP WITH TIME ZONE,
    last_attempt_at TIMESTAMP WITH TIME ZONE,
    last_status     INT,
    last_error      VARCHAR(300),
    delivered_at    TIMESTAMP WITH TIME ZONE,
    claimed_by      VARCHAR(128),
    claimed_until   TIMESTAMP WITH TIME ZONE,
    created_at      TIMESTAMP WITH TIME ZONE NOT NULL
);

CREATE INDEX callback_messages_due ON callback_messages (state, next_attempt_at);

CREATE TABLE callback_message_attempts (
    webhook_id  VARCHAR(100) NOT NULL REFERENCES callback_messages (webhook_id) ON DELETE CASCADE,
    attempt     INT          NOT NULL,
    at          TIMESTAMP WITH TIME ZONE NOT NULL,
    status      INT,
    error       VARCHAR(300),
    duration_ms BIGINT       NOT NULL,
    PRIMARY KEY (webhook_id, attempt)
);
