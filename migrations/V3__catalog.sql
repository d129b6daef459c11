-- The module catalog with its dated price book and rate cards, the client modules (subscriptions,
-- also called projects) and their onboarding milestones.

CREATE TABLE module (
    id             TEXT PRIMARY KEY,
    -- Upper-case letters, digits and underscore: used in settings keys (project.milestone_template:<CODE>).
    code           TEXT NOT NULL UNIQUE,
    name           TEXT NOT NULL,
    kind           TEXT,
    -- Services Accounting Code and GST rate (percent) for invoice lines.
    sac            TEXT,
    gst_rate       INTEGER NOT NULL DEFAULT 18 CHECK (gst_rate BETWEEN 0 AND 28),
    renewal_months INTEGER CHECK (renewal_months IS NULL OR renewal_months BETWEEN 1 AND 120),
    quote_content  TEXT,
    -- JSON list of named quantities, e.g. [{"name": "10k SMS", "qty": 10000}].
    packs          TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(packs)),
    -- JSON list of FieldDef {key, label, type, options, required}.
    field_spec     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(field_spec)),
    active         INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);

-- Append-only: the price on a date is the row with the latest effective_from not after it.
CREATE TABLE module_price (
    id             TEXT PRIMARY KEY,
    module_id      TEXT NOT NULL REFERENCES module(id),
    effective_from TEXT NOT NULL,
    price          INTEGER NOT NULL CHECK (price >= 0),
    created_by     TEXT REFERENCES staff(id),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX module_price_on ON module_price(module_id, effective_from, id);

-- A rate card is the set of bands sharing one effective_from; a new card is a new dated set.
CREATE TABLE usage_rate_band (
    id             TEXT PRIMARY KEY,
    module_id      TEXT NOT NULL REFERENCES module(id),
    effective_from TEXT NOT NULL,
    min_qty        INTEGER NOT NULL CHECK (min_qty >= 0),
    -- Paise per unit.
    rate           INTEGER NOT NULL CHECK (rate > 0),
    created_by     TEXT REFERENCES staff(id),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    UNIQUE (module_id, effective_from, min_qty)
);

CREATE TABLE client_module (
    id           TEXT PRIMARY KEY,
    client_id    TEXT NOT NULL REFERENCES client(id),
    module_id    TEXT NOT NULL REFERENCES module(id),
    active       INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    -- Advances to 'installed' and 'trained' when those milestones are ticked.
    status       TEXT NOT NULL DEFAULT 'new',
    edition      TEXT,
    installed_on TEXT,
    trained_on   TEXT,
    next_renewal TEXT,
    -- Portal login; the password is a reversible credential, never listed or audited.
    provider     TEXT,
    username     TEXT,
    password     TEXT,
    -- JSON map of non-secret values, type-checked against the module's field_spec.
    field_values TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(field_values)),
    -- "key1,key2\n{json map}": the first line lists the keys so they can be shown unread.
    secrets      TEXT,
    sms_balance  INTEGER,
    -- Stamped on creation; a backfill takes installed_on where known and never invents one.
    created_at   TEXT,
    updated_at   TEXT NOT NULL
);
CREATE INDEX client_module_client ON client_module(client_id, id);
CREATE INDEX client_module_module ON client_module(module_id, active);

CREATE TABLE project_milestone (
    id               TEXT PRIMARY KEY,
    client_module_id TEXT NOT NULL REFERENCES client_module(id),
    key              TEXT NOT NULL,
    label            TEXT NOT NULL,
    -- Position in the project's checklist (front list, then the module's tail).
    position         INTEGER NOT NULL,
    done_on          TEXT,
    payment_id       TEXT,
    document_id      TEXT,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    UNIQUE (client_module_id, key)
);
CREATE INDEX project_milestone_pending ON project_milestone(key, done_on);
