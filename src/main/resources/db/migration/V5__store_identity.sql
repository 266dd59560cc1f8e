-- The store's own identity, one row, chosen at random by the first worker that
-- starts on it. Containers are labelled with it, so that workers sharing an
-- engine but not a store never take each other's containers for orphans.
CREATE TABLE store_identity (
    singleton INTEGER     NOT NULL PRIMARY KEY CHECK (singleton = 1),
    id        VARCHAR(64) NOT NULL
);
