-- One queue in the store (ADR 0063). A dispatch waits in the queue while it is
-- queued and no worker has claimed it; a worker claims it when it has a free
-- slot. One with secrets or a kept workspace can run only on the worker that
-- holds them: it is pinned to that worker.
ALTER TABLE dispatches ADD COLUMN claimed_by VARCHAR(128);
ALTER TABLE dispatches ADD COLUMN pinned_to VARCHAR(128);

-- What was waiting before the upgrade waited in its worker's memory: it stays
-- that worker's, claimed by it, to be started by it as before.
UPDATE dispatches SET claimed_by = worker_id, pinned_to = worker_id
    WHERE status IN ('queued', 'starting', 'running');

-- The claim reads a tenant's oldest queued rows (dispatches_tenant_status_seq)
-- and admission counts unfinished rows (dispatches_status_seq): no new index.
