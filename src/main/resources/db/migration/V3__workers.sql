-- Workers and their leases. A worker renews its lease while it lives; the
-- unfinished dispatches of a worker whose lease lapsed are closed by a live one
-- (their containers lived on the lost worker's engine).
CREATE TABLE workers (
    id          VARCHAR(128) NOT NULL PRIMARY KEY,
    lease_until TIMESTAMP WITH TIME ZONE NOT NULL,
    started_at  TIMESTAMP WITH TIME ZONE NOT NULL
);
