-- Each tenant's share of the callback senders (ADR 0073): the outbox is claimed
-- tenant by tenant, so a row says whose it is. The tenant repeats the prefix of
-- the key in its webhook-id (msg_<key>, a group's msg_<key>_b<n> and
-- msg_<key>_final), where a key is <tenant>.<id>, or the id alone in the
-- tenant "default"; neither a tenant nor an id contains a dot.
ALTER TABLE callback_outbox ADD COLUMN tenant VARCHAR(32) DEFAULT 'default' NOT NULL;
UPDATE callback_outbox SET tenant = SUBSTRING(webhook_id FROM 5 FOR POSITION('.' IN webhook_id) - 5)
    WHERE POSITION('.' IN webhook_id) > 0;
CREATE INDEX callback_outbox_tenant_due ON callback_outbox (state, tenant, next_attempt_at);
