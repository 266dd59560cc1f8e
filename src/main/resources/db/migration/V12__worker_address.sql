-- Where each worker answers its peers (ADR 0065): a replica that is asked for
-- the log, an artifact or the live events of a dispatch another replica runs
-- relays the request to the address this column holds, and to no other.
-- Written with every lease renewal; NULL for a worker that advertises none.
ALTER TABLE workers ADD COLUMN advertised_url VARCHAR(2048);
