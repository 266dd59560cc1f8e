-- The same tables in SQLite's dialect. What had to change:
--  * seq: SQLite has no identity columns; only an INTEGER PRIMARY KEY is
--    assigned automatically (it is the rowid), so seq becomes the primary key
--    and id a UNIQUE key (the outbox's foreign keys still name id).
--  * TIMESTAMP WITH TIME ZONE: SQLite has no time types; times are INTEGER
--    milliseconds since the epoch (UTC), bound with setLong.
--  * BOOLEAN is accepted as a type name but stored as 0/1 INTEGER.
--  * foreign keys (ON DELETE CASCADE) work only with PRAGMA foreign_keys=ON on
--    every connection.
CREATE TABLE dispatches (
    seq              INTEGER PRIMARY KEY AUTOINCREMENT,
    id               TEXT    NOT NULL UNIQUE,
    status           TEXT    NOT NULL,
    image            TEXT    NOT NULL,
    fingerprint      TEXT    NOT NULL,
    spec             TEXT    NOT NULL,
    has_secrets      INTEGER NOT NULL,
    worker_id        TEXT    NOT NULL,
    container_id     TEXT,
    cancel_requested INTEGER NOT NULL DEFAULT 0,
    created_at       INTEGER NOT NULL,
    started_at       INTEGER,
    finished_at      INTEGER,
    callback_url     TEXT,
    metadata         TEXT,
    result           BLOB,
    summary          TEXT,
    result_file      TEXT,
    result_bytes     INTEGER
);
CREATE INDEX dispatches_status_seq ON dispatches (status, seq);
CREATE INDEX dispatches_worker_status ON dispatches (worker_id, status);
CREATE INDEX dispatches_finished ON dispatches (finished_at);
CREATE TABLE callbacks (
    dispatch_id     TEXT    NOT NULL PRIMARY KEY REFERENCES dispatches (id) ON DELETE CASCADE,
    webhook_id      TEXT    NOT NULL,
    url             TEXT    NOT NULL,
    state           TEXT    NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    round_attempts  INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    last_attempt_at INTEGER,
    last_status     INTEGER,
    last_error      TEXT,
    delivered_at    INTEGER,
    claimed_by      TEXT,
    claimed_until   INTEGER,
    created_at      INTEGER NOT NULL
);
CREATE INDEX callbacks_due ON callbacks (state, next_attempt_at);
CREATE TABLE callback_attempts (
    dispatch_id TEXT    NOT NULL REFERENCES dispatches (id) ON DELETE CASCADE,
    attempt     INTEGER NOT NULL,
    at          INTEGER NOT NULL,
    status      INTEGER,
    error       TEXT,
    duration_ms INTEGER NOT NULL,
    PRIMARY KEY (dispatch_id, attempt)
);
