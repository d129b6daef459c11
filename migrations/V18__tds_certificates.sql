-- TDS certificates tracked to the receipt (issue 21). A society that deducts TDS from the
-- vendor's fees (payment_allocation.tds) owes the vendor a Form 16A for each quarter, whose
-- amount must match what the vendor booked. What is booked is read from the allocations of
-- recorded payments by the quarter of received_on (never kept twice); what the societies
-- certified is kept here, one certificate per client and quarter.

-- The deductor's TAN (ten characters, AAAA99999A, stored upper-case) and the section it deducts
-- under; a client without a section is read under the setting tds.default_section (194J).
ALTER TABLE client ADD COLUMN tan TEXT;
ALTER TABLE client ADD COLUMN tds_section TEXT CHECK (tds_section IS NULL OR tds_section IN ('194J', '194C'));

-- One Form 16A per client and quarter of a financial year ('2025-26', 'Q1'..'Q4'). A revised
-- certificate replaces the one recorded (the audit keeps the before and after images).
CREATE TABLE tds_certificate (
    id             TEXT PRIMARY KEY,
    client_id      TEXT NOT NULL REFERENCES client(id),
    fy             TEXT NOT NULL CHECK (fy GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]'),
    quarter        TEXT NOT NULL CHECK (quarter IN ('Q1', 'Q2', 'Q3', 'Q4')),
    certificate_no TEXT NOT NULL CHECK (length(certificate_no) BETWEEN 1 AND 20),
    issued_on      TEXT NOT NULL,
    -- Paise certified as deducted.
    amount         INTEGER NOT NULL CHECK (amount > 0),
    created_by     TEXT REFERENCES staff(id),
    -- Who recorded the certificate in force (a revision's author).
    updated_by     TEXT REFERENCES staff(id),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL,
    UNIQUE (client_id, fy, quarter)
);
-- The report reads a year's (or a quarter's) certificates in one range.
CREATE INDEX tds_certificate_quarter ON tds_certificate(fy, quarter, client_id);

-- The report and the daily scan sum a quarter's TDS: a range of payment_received (received_on,
-- id), then each payment's allocations that carry TDS. Only those are in this index, with the
-- amount, so the allocations are read from the index alone and the money-only ones (most of
-- them) are never touched.
CREATE INDEX payment_allocation_tds ON payment_allocation(payment_id, tds) WHERE tds > 0;

-- The reminder kind tds_certificate_due. SQLite cannot alter a CHECK: the table is made again
-- with the new list, every row copied, and its indexes recreated (V11 made them; no trigger and
-- no other table refers to it).
CREATE TABLE reminder_new (
    id               TEXT PRIMARY KEY,
    rule_kind        TEXT NOT NULL CHECK (rule_kind IN
                       ('renewal_due', 'amc_expiring', 'invoice_overdue', 'quote_followup', 'follow_up', 'email_bounced',
                        'tds_certificate_due')),
    status           TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'sent', 'dismissed', 'failed')),
    -- At most one reminder per key: what it is about, its date and its rung of the ladder
    -- (tds_certificate_due: the client, the financial year and the quarter).
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
    -- statutory date) and the rung of the ladder that raised the reminder (days before or after it).
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
