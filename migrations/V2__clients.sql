-- The client registry: co-operative societies, their contacts, branches and interactions.

CREATE TABLE client (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    -- Optional: many societies are unregistered. Validated (format, state code, check character).
    gstin            TEXT UNIQUE,
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
CREATE INDEX client_name ON client(name COLLATE NOCASE, id);
CREATE INDEX client_owner ON client(owner_id, name COLLATE NOCASE);
CREATE INDEX client_status ON client(status);
CREATE INDEX client_category ON client(category);
CREATE INDEX client_type ON client(client_type);

CREATE TABLE contact (
    id         TEXT PRIMARY KEY,
    client_id  TEXT NOT NULL REFERENCES client(id),
    name       TEXT NOT NULL,
    -- Free text; the API suggests WhatsApp, secretary, president, accountant.
    role       TEXT,
    phone      TEXT,
    email      TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX contact_client ON contact(client_id, id);

CREATE TABLE branch (
    id         TEXT PRIMARY KEY,
    client_id  TEXT NOT NULL REFERENCES client(id),
    name       TEXT NOT NULL,
    district   TEXT,
    address    TEXT,
    phone      TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX branch_client ON branch(client_id, id);

CREATE TABLE interaction (
    id           TEXT PRIMARY KEY,
    client_id    TEXT NOT NULL REFERENCES client(id),
    type         TEXT NOT NULL CHECK (type IN ('call', 'visit', 'email', 'whatsapp', 'meeting', 'note')),
    notes        TEXT NOT NULL,
    follow_up_on TEXT,
    author_id    TEXT NOT NULL REFERENCES staff(id),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX interaction_client ON interaction(client_id, id);
CREATE INDEX interaction_follow_up ON interaction(follow_up_on) WHERE follow_up_on IS NOT NULL;
