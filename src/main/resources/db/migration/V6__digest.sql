-- A finished dispatch's digest (ADR 0022): at most 512 bytes of JSON, built
-- with its result and kept beside it, so the digest endpoint and callbacks in
-- digest mode never read the result. Rows finished before this migration have
-- none; their digest is made from the stored result when asked for.
ALTER TABLE dispatches ADD COLUMN digest TEXT;
