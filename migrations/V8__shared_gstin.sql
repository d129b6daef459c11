-- A GSTIN may be shared by two clients: a society and the store it runs can trade under one
-- registration. The column is no longer UNIQUE; an exact duplicate (the same GSTIN and the same
-- name) still is, and the API warns when a GSTIN is already another client's.
--
-- SQLite cannot drop a column's constraint, so the table is rebuilt: copied aside, dropped,
-- made anew and filled. Foreign keys stay on: the children's references to client are checked
-- at commit (defer_foreign_keys), when every client is back under its own id. DROP TABLE fires
-- no trigger, so the name-search rows (V7) stand as they are; the triggers are made again after
-- the refill so that it does not add them twice. Its indexes and triggers went with the old
-- table and are made again as V2 and V7 made them.
PRAGMA defer_foreign_keys = ON;

CREATE TEMP TABLE client_copy AS SELECT * FROM client;
DROP TABLE client;

CREATE TABLE client (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    -- Optional: many societies are unregistered. Validated (format, state code, check character).
    -- Shared by at most one client of each name (client_gstin_name).
    gstin            TEXT,
    -- Two-digit GST state code: from the GSTIN when there is one, else entered (place of supply).
    state_code       TEXT,
    status           TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('lead', 'active', 'lost', 'inactive')),
    -- The account owner; an active employee when set.
    owner_id         TEXT REFERENCES staff(id),
    district         TEXT,
    sector           TEXT,
    remote_access_id TEXT,
    os               TEXT,
    -- 'Store' when the name ends in STORE/STORES, else 'PACS'; set at create, editable after.
    client_type      TEXT NOT NULL CHECK (client_type IN ('PACS', 'Store')),
    -- Derived from the name at create and whenever the name changes (clients/rules.rs).
    category         TEXT NOT NULL,
    address          TEXT,
    phone            TEXT,
    email            TEXT,
    notes            TEXT,
    -- The society's database password: a reversible credential (spec 5.12), never listed or audited.
    db_password      TEXT,
    created_by       TEXT REFERENCES staff(id),
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

INSERT INTO client SELECT * FROM temp.client_copy;
DROP TABLE temp.client_copy;

-- The other clients under a GSTIN (the warning and the client page), and the exact duplicate.
CREATE INDEX client_gstin ON client(gstin) WHERE gstin IS NOT NULL;
CREATE UNIQUE INDEX client_gstin_name ON client(gstin, name COLLATE NOCASE) WHERE gstin IS NOT NULL;

CREATE INDEX client_name ON client(name COLLATE NOCASE, id);
CREATE INDEX client_owner ON client(owner_id, name COLLATE NOCASE);
CREATE INDEX client_status ON client(status);
CREATE INDEX client_category ON client(category);
CREATE INDEX client_type ON client(client_type);
CREATE INDEX client_id_name ON client (id, name, owner_id);
CREATE INDEX client_category_name ON client (category, name COLLATE NOCASE, id, district);

CREATE TRIGGER client_name_search_insert AFTER INSERT ON client BEGIN
    INSERT INTO client_name_search (suffix, client_id)
        SELECT lower(substr(NEW.name, n)), NEW.id FROM search_position WHERE n <= length(NEW.name);
END;
CREATE TRIGGER client_name_search_update AFTER UPDATE OF id, name ON client
    WHEN OLD.id IS NOT NEW.id OR OLD.name IS NOT NEW.name
BEGIN
    DELETE FROM client_name_search WHERE client_id = OLD.id AND suffix IN
        (SELECT lower(substr(OLD.name, n)) FROM search_position WHERE n <= length(OLD.name));
    INSERT INTO client_name_search (suffix, client_id)
        SELECT lower(substr(NEW.name, n)), NEW.id FROM search_position WHERE n <= length(NEW.name);
END;
CREATE TRIGGER client_name_search_delete AFTER DELETE ON client BEGIN
    DELETE FROM client_name_search WHERE client_id = OLD.id AND suffix IN
        (SELECT lower(substr(OLD.name, n)) FROM search_position WHERE n <= length(OLD.name));
END;
