-- The legacy import brings a client's phone, email and address and one contact per row (issue
-- 34): the staged rows keep those cells as written, like the others (V13).
ALTER TABLE import_row ADD COLUMN phone TEXT NOT NULL DEFAULT '';
ALTER TABLE import_row ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE import_row ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE import_row ADD COLUMN contact_name TEXT NOT NULL DEFAULT '';
ALTER TABLE import_row ADD COLUMN contact_role TEXT NOT NULL DEFAULT '';
ALTER TABLE import_row ADD COLUMN contact_phone TEXT NOT NULL DEFAULT '';
ALTER TABLE import_row ADD COLUMN contact_email TEXT NOT NULL DEFAULT '';

-- When the legacy import created this client (NULL: made here). A client the old system already
-- billed is a customer moving in, not an enquiry: the pipeline leaves imported clients without
-- documents out of its leads (pipeline/store.rs). Clients imported before this version are not
-- known as such (the import kept no per-client record of them).
ALTER TABLE client ADD COLUMN imported_at TEXT;
