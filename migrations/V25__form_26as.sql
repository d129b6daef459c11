-- Form 26AS matched (issue 36, decisions 12). The owner or a manager uploads the text download
-- of the vendor's Form 26AS for a financial year; what its Part I shows deposited per deductor
-- (TAN) and quarter is kept here, and the TDS receivable report compares it with the TDS booked
-- on that society's receipts. A new upload of the same year replaces the last one whole.

-- One upload per financial year: when and by whom, the vendor's PAN it was for, and its size.
CREATE TABLE tds_26as (
    fy          TEXT PRIMARY KEY CHECK (fy GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'),
    pan         TEXT NOT NULL,
    -- The office's day of the upload: the daily scan chases a quarter only on an upload made
    -- after that quarter's return was due (before it, 26AS cannot show the deposit yet).
    imported_on TEXT NOT NULL,
    imported_by TEXT REFERENCES staff(id),
    imported_at TEXT NOT NULL,
    deductors   INTEGER NOT NULL,
    entries     INTEGER NOT NULL
);

-- Per deductor and quarter of the year: the TDS deposited (paise, the entries booked F or P,
-- the ones the vendor gets credit for), the TDS deducted over every entry, and the entries read.
CREATE TABLE tds_filed (
    fy            TEXT NOT NULL REFERENCES tds_26as(fy) ON DELETE CASCADE,
    tan           TEXT NOT NULL,
    quarter       TEXT NOT NULL CHECK (quarter IN ('Q1', 'Q2', 'Q3', 'Q4')),
    deductor_name TEXT NOT NULL,
    deducted      INTEGER NOT NULL,
    filed         INTEGER NOT NULL,
    entries       INTEGER NOT NULL,
    PRIMARY KEY (fy, tan, quarter)
) WITHOUT ROWID;
-- A client is found by its TAN: the report's join and the count of deductors no client carries.
CREATE INDEX client_tan ON client(tan) WHERE tan IS NOT NULL;

-- The reminder kind tds_not_filed: a society's TDS booked but not (fully) deposited once the
-- quarter's return date has passed. SQLite cannot alter a CHECK: the table is made again with
-- the new list, as V18 did, every row copied and its indexes recreated.
CREATE TABLE reminder_new (
    id               TEXT PRIMARY KEY,
    rule_kind        TEXT NOT NULL CHECK (rule_kind IN
                       ('renewal_due', 'amc_expiring', 'invoice_overdue', 'quote_followup', 'follow_up', 'email_bounced',
                        'tds_certificate_due', 'tds_not_filed')),
    status           TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'sent', 'dismissed', 'failed')),
    -- At most one reminder per key: what it is about, its date and its rung of the ladder
    -- (tds_certificate_due and tds_not_filed: the client, the financial year and the quarter).
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
    -- The day the thing falls due (renewal, contract end, invoice due, follow-up, the Form 16A's
    -- statutory date, the TDS return's last day) and the rung of the ladder that raised the
    -- reminder (days before or after it).
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
INSERT INTO reminder_new (id, rule_kind, status, idempotency_key, policy_applied, client_id, doc_id, client_module_id,
                          contract_id, interaction_id, contact_id, owner_id, due_on, offset_days, reason, failure,
                          created_at, sent_at, closed_by, closed_at, updated_at)
SELECT id, rule_kind, status, idempotency_key, policy_applied, client_id, doc_id, client_module_id,
       contract_id, interaction_id, contact_id, owner_id, due_on, offset_days, reason, failure,
       created_at, sent_at, closed_by, closed_at, updated_at
  FROM reminder;
DROP TABLE reminder;
ALTER TABLE reminder_new RENAME TO reminder;
CREATE INDEX reminder_status ON reminder(status, id);
CREATE INDEX reminder_owner ON reminder(owner_id, status, id);
CREATE INDEX reminder_doc ON reminder(doc_id, status) WHERE doc_id IS NOT NULL;
CREATE INDEX reminder_client ON reminder(client_id, id);
