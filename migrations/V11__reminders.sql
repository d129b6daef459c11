-- Reminders and the job thread (spec 2.9, 2.10, 3.2, 6.3): the reminders the daily scan raises,
-- a record of every background run, service contracts (AMC), recurring plans, and the bounce
-- flag on a contact's email.

CREATE TABLE service_contract (
    id                 TEXT PRIMARY KEY,
    client_id          TEXT NOT NULL REFERENCES client(id),
    description        TEXT NOT NULL,
    period_from        TEXT NOT NULL,
    period_to          TEXT NOT NULL CHECK (period_to >= period_from),
    amount             INTEGER NOT NULL CHECK (amount >= 0),
    -- The renewal invoice raised from this contract (a draft at first).
    renewal_invoice_id TEXT REFERENCES document(id),
    created_by         TEXT REFERENCES staff(id),
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);
CREATE INDEX service_contract_client ON service_contract(client_id, id);
CREATE INDEX service_contract_period_to ON service_contract(period_to, id);

CREATE TABLE recurring_plan (
    id            TEXT PRIMARY KEY,
    client_id     TEXT NOT NULL REFERENCES client(id),
    -- The invoice lines, as a document takes them.
    lines         TEXT NOT NULL CHECK (json_valid(lines)),
    interval      TEXT NOT NULL CHECK (interval IN ('monthly', 'quarterly', 'yearly')),
    next_run      TEXT NOT NULL,
    active        INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    -- Set when a generation failed: the plan waits for a retry.
    parked_reason TEXT,
    parked_at     TEXT,
    created_by    TEXT REFERENCES staff(id),
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
CREATE INDEX recurring_plan_due ON recurring_plan(next_run, id) WHERE active = 1;

CREATE TABLE reminder (
    id               TEXT PRIMARY KEY,
    rule_kind        TEXT NOT NULL CHECK (rule_kind IN
                       ('renewal_due', 'amc_expiring', 'invoice_overdue', 'quote_followup', 'follow_up', 'email_bounced')),
    status           TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'sent', 'dismissed', 'failed')),
    -- At most one reminder per key: what it is about, its date and its rung of the ladder.
    idempotency_key  TEXT NOT NULL UNIQUE,
    policy_applied   TEXT NOT NULL DEFAULT 'manual' CHECK (policy_applied IN ('manual', 'auto')),
    client_id        TEXT NOT NULL REFERENCES client(id),
    doc_id           TEXT REFERENCES document(id),
    client_module_id TEXT REFERENCES client_module(id),
    contract_id      TEXT REFERENCES service_contract(id),
    interaction_id   TEXT REFERENCES interaction(id),
    contact_id       TEXT REFERENCES contact(id),
    -- The derived owner: the document's created_by; else the client's account owner.
    owner_id         TEXT REFERENCES staff(id),
    -- The day the thing falls due (renewal, contract end, invoice due, follow-up) and the rung
    -- of the ladder that raised the reminder (days before or after it).
    due_on           TEXT NOT NULL,
    offset_days      INTEGER,
    reason           TEXT NOT NULL,
    -- Why a send failed, for 'failed'.
    failure          TEXT,
    created_at       TEXT NOT NULL,
    sent_at          TEXT,
    closed_by        TEXT REFERENCES staff(id),
    closed_at        TEXT,
    updated_at       TEXT NOT NULL
);
CREATE INDEX reminder_status ON reminder(status, id);
CREATE INDEX reminder_owner ON reminder(owner_id, status, id);
CREATE INDEX reminder_doc ON reminder(doc_id, status) WHERE doc_id IS NOT NULL;
CREATE INDEX reminder_client ON reminder(client_id, id);

CREATE TABLE job_run (
    id          TEXT PRIMARY KEY,
    job         TEXT NOT NULL,
    -- The office day the run is for (the daily scan runs once per office day).
    as_of       TEXT,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    outcome     TEXT NOT NULL DEFAULT 'running' CHECK (outcome IN ('running', 'ok', 'failed')),
    counts      TEXT CHECK (counts IS NULL OR json_valid(counts)),
    error       TEXT
);
CREATE INDEX job_run_job ON job_run(job, started_at);

ALTER TABLE contact ADD COLUMN email_bouncing INTEGER NOT NULL DEFAULT 0 CHECK (email_bouncing IN (0, 1));
ALTER TABLE contact ADD COLUMN bounced_at TEXT;

-- The scan's renewals: active links by their renewal date.
CREATE INDEX client_module_renewal ON client_module(next_renewal) WHERE active = 1;
