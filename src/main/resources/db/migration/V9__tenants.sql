-- Tenants (ADR 0052). A dispatch's and a group's id column holds its key:
-- the client's id in the tenant "default", <tenant>.<id> in any other, so
-- that two tenants may use the same id. Rows from before tenants are the
-- default tenant's, under the same key as before. The tenant column repeats
-- the key's prefix so that a tenant's listing is one index range.
ALTER TABLE dispatches ADD COLUMN tenant VARCHAR(32) DEFAULT 'default' NOT NULL;
ALTER TABLE dispatch_groups ADD COLUMN tenant VARCHAR(32) DEFAULT 'default' NOT NULL;

-- 32 characters of tenant, a dot and 64 of id.
ALTER TABLE dispatches ALTER COLUMN id SET DATA TYPE VARCHAR(97);
ALTER TABLE callback_outbox ALTER COLUMN dispatch_id SET DATA TYPE VARCHAR(97);
ALTER TABLE dispatch_groups ALTER COLUMN id SET DATA TYPE VARCHAR(97);
ALTER TABLE dispatch_group_members ALTER COLUMN group_id SET DATA TYPE VARCHAR(97);
ALTER TABLE dispatch_group_members ALTER COLUMN dispatch_id SET DATA TYPE VARCHAR(97);

CREATE INDEX dispatches_tenant_seq ON dispatches (tenant, seq);
CREATE INDEX dispatches_tenant_status_seq ON dispatches (tenant, status, seq);

-- msg_<key>, and a group's msg_<key>_b<batch> and msg_<key>_final.
ALTER TABLE callback_outbox ALTER COLUMN webhook_id SET DATA TYPE VARCHAR(140);
