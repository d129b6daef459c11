-- Moving in (issue 17): the staged legacy import and the legacy invoices it records.
--
-- One import is staged at a time: staging again replaces it. Each row keeps the file's text as
-- written (corrections replace it), what the checks made of it, and its problem markers, so the
-- status is a few aggregates over this table and a correction re-checks in place.
CREATE TABLE import_batch (
    id           TEXT PRIMARY KEY,
    file_name    TEXT,
    -- JSON [{ header, field }]: how the file's headers were read (field NULL: ignored).
    columns      TEXT NOT NULL,
    staged_by    TEXT REFERENCES staff(id),
    staged_at    TEXT NOT NULL,
    committed_at TEXT,
    committed_by TEXT REFERENCES staff(id),
    -- JSON: what the commit created, updated and seeded.
    result       TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);

CREATE TABLE import_row (
    -- The spreadsheet row: the header is row 1, so the first data row is 2.
    row              INTEGER PRIMARY KEY,
    name             TEXT NOT NULL DEFAULT '',
    gstin            TEXT NOT NULL DEFAULT '',
    district         TEXT NOT NULL DEFAULT '',
    sector           TEXT NOT NULL DEFAULT '',
    remote_access_id TEXT NOT NULL DEFAULT '',
    os               TEXT NOT NULL DEFAULT '',
    invoice_no       TEXT NOT NULL DEFAULT '',
    invoice_date     TEXT NOT NULL DEFAULT '',
    invoice_total    TEXT NOT NULL DEFAULT '',
    invoice_balance  TEXT NOT NULL DEFAULT '',
    -- What the checks read (imports/rules.rs): the client's key (its name normalized), the
    -- invoice's date (YYYY-MM-DD), financial year and amounts in paise; NULL where unreadable.
    client_key       TEXT NOT NULL DEFAULT '',
    doc_date         TEXT,
    fy               TEXT,
    total            INTEGER,
    balance          INTEGER,
    -- JSON [{ kind, field, message }] of what stops the commit; NULL when nothing does.
    problems         TEXT,
    -- The registry's client this row's client already is (offered as update or skip).
    match_id         TEXT,
    action           TEXT NOT NULL DEFAULT 'update' CHECK (action IN ('update', 'skip')),
    excluded         INTEGER NOT NULL DEFAULT 0 CHECK (excluded IN (0, 1)),
    -- 1 when the invoice is already in the registry as this client's legacy invoice (an
    -- earlier commit of the same file): left as it is.
    invoice_known    INTEGER NOT NULL DEFAULT 0 CHECK (invoice_known IN (0, 1))
);
CREATE INDEX import_row_problem ON import_row(row) WHERE problems IS NOT NULL AND excluded = 0;

-- A legacy invoice (source 'legacy') carries the old system's number, date and total, one line
-- standing for the whole, no tax split and no re-pricing. What was paid on it before the move
-- is legacy_paid (its total less the balance the file gave, all of it when none): it counts as
-- settled on the invoice's date, so the old system's paid invoices never show as dues and an
-- unpaid balance is chased and allocated like any other.
ALTER TABLE document ADD COLUMN legacy_paid INTEGER NOT NULL DEFAULT 0 CHECK (legacy_paid >= 0);
CREATE INDEX document_source_legacy ON document(doc_no) WHERE source = 'legacy';

-- The settlement triggers of V7 with legacy_paid in the formula's opening row: what was paid
-- before the move, on the invoice's date. For every other invoice legacy_paid is 0 and the
-- opening row is V7's own ('0000-00-00', 0), so nothing else changes.
-- An insert that gives the figures itself (a legacy invoice: an import writes 50,000 at once,
-- and the trigger's UPDATE rewrote each row's receivable index entry a second time) is left as
-- it is.
DROP TRIGGER settlement_invoice_insert;
CREATE TRIGGER settlement_invoice_insert AFTER INSERT ON document
    WHEN NEW.type = 'INVOICE' AND NEW.outstanding IS NULL
BEGIN
    UPDATE document SET outstanding = NEW.total - NEW.legacy_paid,
           last_settlement_on = CASE WHEN NEW.legacy_paid > 0 THEN NEW.doc_date ELSE '0000-00-00' END,
           settled_on = CASE WHEN NEW.total - NEW.legacy_paid <= 0
                             THEN CASE WHEN NEW.legacy_paid > 0 THEN NEW.doc_date ELSE '0000-00-00' END END
     WHERE rowid = NEW.rowid;
END;
DROP TRIGGER settlement_allocation_insert;
CREATE TRIGGER settlement_allocation_insert AFTER INSERT ON payment_allocation BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id = NEW.document_id AND +type = 'INVOICE';
END;
DROP TRIGGER settlement_allocation_delete;
CREATE TRIGGER settlement_allocation_delete AFTER DELETE ON payment_allocation BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id = OLD.document_id AND +type = 'INVOICE';
END;
DROP TRIGGER settlement_allocation_update;
CREATE TRIGGER settlement_allocation_update AFTER UPDATE OF payment_id, document_id, amount, tds ON payment_allocation BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id IN (OLD.document_id, NEW.document_id) AND +type = 'INVOICE';
END;
DROP TRIGGER settlement_payment_update;
CREATE TRIGGER settlement_payment_update AFTER UPDATE OF received_on ON payment BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id IN (SELECT document_id FROM payment_allocation WHERE payment_id = NEW.id) AND +type = 'INVOICE';
END;
DROP TRIGGER settlement_invoice_total;
CREATE TRIGGER settlement_invoice_total AFTER UPDATE OF total ON document
    WHEN NEW.type = 'INVOICE' AND OLD.type = 'INVOICE' AND OLD.total IS NOT NEW.total
BEGIN
    UPDATE document SET outstanding = NEW.total, settled_on = CASE WHEN NEW.total <= 0 THEN '0000-00-00' END
     WHERE rowid = NEW.rowid AND last_settlement_on = '0000-00-00';
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE rowid = NEW.rowid AND last_settlement_on IS NOT '0000-00-00' AND +type = 'INVOICE';
END;
DROP TRIGGER settlement_credit_note_insert;
CREATE TRIGGER settlement_credit_note_insert AFTER INSERT ON document
    WHEN NEW.type = 'CREDIT_NOTE' AND NEW.parent_id IS NOT NULL
BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id = NEW.parent_id AND +type = 'INVOICE';
END;
DROP TRIGGER settlement_credit_note_update;
CREATE TRIGGER settlement_credit_note_update AFTER UPDATE OF type, status, total, doc_date, parent_id ON document
    WHEN (OLD.type = 'CREDIT_NOTE' OR NEW.type = 'CREDIT_NOTE')
     AND (OLD.type IS NOT NEW.type OR OLD.status IS NOT NEW.status OR OLD.total IS NOT NEW.total
          OR OLD.doc_date IS NOT NEW.doc_date OR OLD.parent_id IS NOT NEW.parent_id)
BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id IN (OLD.parent_id, NEW.parent_id) AND +type = 'INVOICE';
END;
DROP TRIGGER settlement_type_update;
CREATE TRIGGER settlement_type_update AFTER UPDATE OF type ON document
    WHEN OLD.type IS NOT NEW.type AND NEW.type = 'INVOICE'
BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE rowid = NEW.rowid AND +type = 'INVOICE';
END;
DROP TRIGGER settlement_document_delete;
CREATE TRIGGER settlement_document_delete AFTER DELETE ON document WHEN OLD.type = 'CREDIT_NOTE' BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT CASE WHEN document.legacy_paid > 0 THEN document.doc_date ELSE '0000-00-00' END AS on_date, document.legacy_paid AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id = OLD.parent_id AND +type = 'INVOICE';
END;