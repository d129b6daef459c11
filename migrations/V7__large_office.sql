-- Reading a large office (5000 societies, ten years: ~200k documents, ~900k audit rows) in a
-- few milliseconds: tallies for honest totals, suffix tables for substring search, what each
-- invoice still owes kept beside it, and indexes the lists and reports walk in order.
-- docs/benchmark.md has the measurements behind each piece. Everything derived here is kept
-- by triggers in the transaction of the change, so no code path can forget it, and can be
-- rebuilt from the tables it comes from.

-- Honest totals. COUNT(*) over 195k documents or 194k "issued" audit rows walks every entry
-- (1 ms and 250 ms); a list whose filters are only equalities on these columns sums a few
-- tally rows instead. created_by / user_id NULL is kept as ''.
CREATE TABLE document_tally (
    type       TEXT NOT NULL,
    status     TEXT NOT NULL,
    created_by TEXT NOT NULL,
    n          INTEGER NOT NULL,
    PRIMARY KEY (type, status, created_by)
) WITHOUT ROWID;
INSERT INTO document_tally (type, status, created_by, n)
    SELECT type, status, COALESCE(created_by, ''), COUNT(*) FROM document GROUP BY 1, 2, 3;
CREATE TRIGGER document_tally_insert AFTER INSERT ON document BEGIN
    INSERT INTO document_tally (type, status, created_by, n)
        VALUES (NEW.type, NEW.status, COALESCE(NEW.created_by, ''), 1)
        ON CONFLICT (type, status, created_by) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER document_tally_delete AFTER DELETE ON document BEGIN
    UPDATE document_tally SET n = n - 1
     WHERE type = OLD.type AND status = OLD.status AND created_by = COALESCE(OLD.created_by, '');
END;
CREATE TRIGGER document_tally_update AFTER UPDATE OF type, status, created_by ON document
    WHEN OLD.type IS NOT NEW.type OR OLD.status IS NOT NEW.status OR OLD.created_by IS NOT NEW.created_by
BEGIN
    UPDATE document_tally SET n = n - 1
     WHERE type = OLD.type AND status = OLD.status AND created_by = COALESCE(OLD.created_by, '');
    INSERT INTO document_tally (type, status, created_by, n)
        VALUES (NEW.type, NEW.status, COALESCE(NEW.created_by, ''), 1)
        ON CONFLICT (type, status, created_by) DO UPDATE SET n = n + 1;
END;

CREATE TABLE audit_tally (
    entity  TEXT NOT NULL,
    action  TEXT NOT NULL,
    user_id TEXT NOT NULL,
    n       INTEGER NOT NULL,
    PRIMARY KEY (entity, action, user_id)
) WITHOUT ROWID;
INSERT INTO audit_tally (entity, action, user_id, n)
    SELECT entity, action, COALESCE(user_id, ''), COUNT(*) FROM audit GROUP BY 1, 2, 3;
CREATE TRIGGER audit_tally_insert AFTER INSERT ON audit BEGIN
    INSERT INTO audit_tally (entity, action, user_id, n)
        VALUES (NEW.entity, NEW.action, COALESCE(NEW.user_id, ''), 1)
        ON CONFLICT (entity, action, user_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER audit_tally_delete AFTER DELETE ON audit BEGIN
    UPDATE audit_tally SET n = n - 1
     WHERE entity = OLD.entity AND action = OLD.action AND user_id = COALESCE(OLD.user_id, '');
END;
CREATE TRIGGER audit_tally_update AFTER UPDATE OF entity, action, user_id ON audit
    WHEN OLD.entity IS NOT NEW.entity OR OLD.action IS NOT NEW.action OR OLD.user_id IS NOT NEW.user_id
BEGIN
    UPDATE audit_tally SET n = n - 1
     WHERE entity = OLD.entity AND action = OLD.action AND user_id = COALESCE(OLD.user_id, '');
    INSERT INTO audit_tally (entity, action, user_id, n)
        VALUES (NEW.entity, NEW.action, COALESCE(NEW.user_id, ''), 1)
        ON CONFLICT (entity, action, user_id) DO UPDATE SET n = n + 1;
END;

-- Substring search. `q` matches like LIKE '%q%' (ASCII case-insensitive, literal). Every
-- suffix of the lower-cased text is a row, so "text contains q" is "some suffix starts with
-- lower(q)": one range of this primary key, whatever the length of q. An FTS5 trigram index
-- was measured first: 4.5 ms for INV/25-26-01, whose trigrams (inv, nv/, v/2, ...) each sit in
-- tens of thousands of numbers; this answers in 0.05 ms. Rows name the document or client by
-- its id, not its rowid, which VACUUM (and so a backup) may renumber.
-- Triggers cannot use WITH RECURSIVE, hence the positions table; names are at most 200
-- characters (the API's limit), numbers much shorter. (A row-value `(suffix, id) IN (...)`
-- delete was planned as a scan of the whole table: 5 ms; `id = ? AND suffix IN` is a probe.)
CREATE TABLE search_position (n INTEGER PRIMARY KEY);
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1024)
INSERT INTO search_position (n) SELECT n FROM s;

CREATE TABLE document_no_search (
    suffix      TEXT NOT NULL,
    document_id TEXT NOT NULL,
    PRIMARY KEY (suffix, document_id)
) WITHOUT ROWID;
INSERT INTO document_no_search (suffix, document_id)
    SELECT lower(substr(d.doc_no, p.n)), d.id FROM document d JOIN search_position p ON p.n <= length(d.doc_no)
     WHERE d.doc_no IS NOT NULL ORDER BY 1, 2;
CREATE TRIGGER document_no_search_insert AFTER INSERT ON document WHEN NEW.doc_no IS NOT NULL BEGIN
    INSERT INTO document_no_search (suffix, document_id)
        SELECT lower(substr(NEW.doc_no, n)), NEW.id FROM search_position WHERE n <= length(NEW.doc_no);
END;
CREATE TRIGGER document_no_search_update AFTER UPDATE OF id, doc_no ON document
    WHEN OLD.id IS NOT NEW.id OR OLD.doc_no IS NOT NEW.doc_no
BEGIN
    DELETE FROM document_no_search WHERE document_id = OLD.id AND suffix IN
        (SELECT lower(substr(OLD.doc_no, n)) FROM search_position WHERE n <= length(OLD.doc_no));
    INSERT INTO document_no_search (suffix, document_id)
        SELECT lower(substr(NEW.doc_no, n)), NEW.id FROM search_position WHERE n <= length(NEW.doc_no);
END;
CREATE TRIGGER document_no_search_delete AFTER DELETE ON document WHEN OLD.doc_no IS NOT NULL BEGIN
    DELETE FROM document_no_search WHERE document_id = OLD.id AND suffix IN
        (SELECT lower(substr(OLD.doc_no, n)) FROM search_position WHERE n <= length(OLD.doc_no));
END;

CREATE TABLE client_name_search (
    suffix    TEXT NOT NULL,
    client_id TEXT NOT NULL,
    PRIMARY KEY (suffix, client_id)
) WITHOUT ROWID;
INSERT INTO client_name_search (suffix, client_id)
    SELECT lower(substr(c.name, p.n)), c.id FROM client c JOIN search_position p ON p.n <= length(c.name)
     ORDER BY 1, 2;
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

-- What an invoice owes, kept beside it (INVOICE rows only; NULL on other types). Its
-- settlements are the money and TDS allocated to it (dated by the payment's received_on) and
-- its issued credit notes (dated by their doc_date); all are >= 0, so what it owes on a date
-- only falls as the date moves on.
--   outstanding         total less every settlement: documents::store::OUTSTANDING, stored.
--   settled_on          the first date on which it owed nothing ('0000-00-00' when it never
--                       owed anything); NULL while it still owes.
--   last_settlement_on  the latest settlement date ('0000-00-00' with none): as of any date
--                       from it on, what it owes is `outstanding`.
-- The dues aging reads only the invoices not settled by its as-of date (settled_on is NULL or
-- later) instead of every invoice ever issued: 21 ms instead of 388 ms on the large office.
ALTER TABLE document ADD COLUMN outstanding INTEGER;
ALTER TABLE document ADD COLUMN settled_on TEXT;
ALTER TABLE document ADD COLUMN last_settlement_on TEXT;

-- The one formula, repeated in each trigger (SQLite has no stored procedures). The events of
-- invoice X in date order, with a running sum; a credit note without a date counts on no date.
-- `+type` in the triggers' WHERE keeps SQLite on the id index: on the type index it walked
-- every invoice (140 ms a write).
UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
    SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
      FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
            SELECT '0000-00-00' AS on_date, 0 AS amount
            UNION ALL
            SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
             WHERE a.document_id = document.id
            UNION ALL
            SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
             WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
 WHERE type = 'INVOICE';

CREATE TRIGGER settlement_allocation_insert AFTER INSERT ON payment_allocation BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id = NEW.document_id AND +type = 'INVOICE';
END;
CREATE TRIGGER settlement_allocation_delete AFTER DELETE ON payment_allocation BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id = OLD.document_id AND +type = 'INVOICE';
END;
CREATE TRIGGER settlement_allocation_update AFTER UPDATE OF payment_id, document_id, amount, tds ON payment_allocation BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id IN (OLD.document_id, NEW.document_id) AND +type = 'INVOICE';
END;
CREATE TRIGGER settlement_payment_update AFTER UPDATE OF received_on ON payment BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id IN (SELECT document_id FROM payment_allocation WHERE payment_id = NEW.id) AND +type = 'INVOICE';
END;
-- A new invoice has nothing settled yet (allocations and credit notes name an existing
-- invoice), and a change of total with nothing settled (a draft's lines) needs no sums either:
-- these, the whole of issuing, stay off the formula, which costs a third of an invoice's write.
CREATE TRIGGER settlement_invoice_insert AFTER INSERT ON document WHEN NEW.type = 'INVOICE' BEGIN
    UPDATE document SET outstanding = NEW.total, last_settlement_on = '0000-00-00',
           settled_on = CASE WHEN NEW.total <= 0 THEN '0000-00-00' END
     WHERE rowid = NEW.rowid;
END;
CREATE TRIGGER settlement_invoice_total AFTER UPDATE OF total ON document
    WHEN NEW.type = 'INVOICE' AND OLD.type = 'INVOICE' AND OLD.total IS NOT NEW.total
BEGIN
    UPDATE document SET outstanding = NEW.total, settled_on = CASE WHEN NEW.total <= 0 THEN '0000-00-00' END
     WHERE rowid = NEW.rowid AND last_settlement_on = '0000-00-00';
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE rowid = NEW.rowid AND last_settlement_on IS NOT '0000-00-00' AND +type = 'INVOICE';
END;
-- What counts of a credit note: its type, status, total, date and invoice.
CREATE TRIGGER settlement_credit_note_insert AFTER INSERT ON document
    WHEN NEW.type = 'CREDIT_NOTE' AND NEW.parent_id IS NOT NULL
BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id = NEW.parent_id AND +type = 'INVOICE';
END;
CREATE TRIGGER settlement_credit_note_update AFTER UPDATE OF type, status, total, doc_date, parent_id ON document
    WHEN (OLD.type = 'CREDIT_NOTE' OR NEW.type = 'CREDIT_NOTE')
     AND (OLD.type IS NOT NEW.type OR OLD.status IS NOT NEW.status OR OLD.total IS NOT NEW.total
          OR OLD.doc_date IS NOT NEW.doc_date OR OLD.parent_id IS NOT NEW.parent_id)
BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id IN (OLD.parent_id, NEW.parent_id) AND +type = 'INVOICE';
END;
-- (The API never changes a type; should anything, the figures follow.)
CREATE TRIGGER settlement_type_update AFTER UPDATE OF type ON document
    WHEN OLD.type IS NOT NEW.type AND NEW.type = 'INVOICE'
BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE rowid = NEW.rowid AND +type = 'INVOICE';
END;
CREATE TRIGGER settlement_document_delete AFTER DELETE ON document WHEN OLD.type = 'CREDIT_NOTE' BEGIN
    UPDATE document SET (outstanding, settled_on, last_settlement_on) = (
        SELECT document.total - SUM(amount), MIN(CASE WHEN settled >= document.total THEN on_date END), MAX(on_date)
          FROM (SELECT on_date, amount, SUM(amount) OVER (ORDER BY on_date) AS settled FROM (
                SELECT '0000-00-00' AS on_date, 0 AS amount
                UNION ALL
                SELECT p.received_on, a.amount + a.tds FROM payment_allocation a JOIN payment p ON p.id = a.payment_id
                 WHERE a.document_id = document.id
                UNION ALL
                SELECT COALESCE(n.doc_date, '~'), n.total FROM document n
                 WHERE n.parent_id = document.id AND +n.type = 'CREDIT_NOTE' AND n.status NOT IN ('cancelled', 'draft'))))
     WHERE id = OLD.parent_id AND +type = 'INVOICE';
END;

-- The dues aging's candidates (settled_on NULL or after the as-of date), with every column it
-- reads, so it never touches the document rows. Drafts and cancelled invoices are left out, so
-- making a draft writes nothing here.
-- (status is in it too: SQLite reads the row for a column the query names, even one the
-- index's WHERE already settles.)
CREATE INDEX document_receivable ON document (settled_on, doc_date, client_id, created_by,
    last_settlement_on, outstanding, id, doc_no, due_date, total, subtotal, status)
    WHERE type = 'INVOICE' AND status NOT IN ('draft', 'cancelled');

-- The GST summary's invoices and credit notes of a period, with the figures it adds up.
CREATE INDEX document_gst ON document (type, doc_date, created_by, subtotal, cgst, sgst, igst, total, status)
    WHERE type IN ('INVOICE', 'CREDIT_NOTE') AND status NOT IN ('draft', 'cancelled');

-- A client's name (and book) by its id, without reading the row: the dues aging and the
-- stalled list name thousands of clients.
CREATE INDEX client_id_name ON client (id, name, owner_id);

-- Staff see the documents they created, newest first.
CREATE INDEX document_created_by ON document (created_by, id);

-- The client list filtered by category, in name order, district checked in the index.
CREATE INDEX client_category_name ON client (category, name COLLATE NOCASE, id, district);

-- A module's roster walks clients in name order and asks each for its active link.
CREATE INDEX client_module_roster ON client_module (client_id, module_id, active, id);
-- The few inactive projects, which the board leaves out.
CREATE INDEX client_module_inactive ON client_module (id) WHERE active = 0;
-- A project as the stalled list shows it, without reading the row.
CREATE INDEX client_module_project ON client_module (id, active, client_id, module_id, status, created_at);

-- What the projects board counts: per step, the milestones still pending on active projects
-- (6,800 milestones to look at, each with its project, otherwise: 2 ms a board).
CREATE TABLE project_step_tally (
    key     TEXT PRIMARY KEY,
    pending INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO project_step_tally (key, pending)
    SELECT pm.key, SUM(pm.done_on IS NULL AND cm.active = 1)
      FROM project_milestone pm JOIN client_module cm ON cm.id = pm.client_module_id GROUP BY pm.key;
CREATE TRIGGER project_step_tally_insert AFTER INSERT ON project_milestone WHEN NEW.done_on IS NULL BEGIN
    INSERT INTO project_step_tally (key, pending)
        SELECT NEW.key, 1 FROM client_module WHERE id = NEW.client_module_id AND active = 1
        ON CONFLICT (key) DO UPDATE SET pending = pending + 1;
END;
CREATE TRIGGER project_step_tally_delete AFTER DELETE ON project_milestone WHEN OLD.done_on IS NULL BEGIN
    UPDATE project_step_tally SET pending = pending - 1
     WHERE key = OLD.key AND EXISTS (SELECT 1 FROM client_module WHERE id = OLD.client_module_id AND active = 1);
END;
CREATE TRIGGER project_step_tally_update AFTER UPDATE OF done_on, key, client_module_id ON project_milestone
    WHEN (OLD.done_on IS NULL) IS NOT (NEW.done_on IS NULL) OR OLD.key IS NOT NEW.key
      OR OLD.client_module_id IS NOT NEW.client_module_id
BEGIN
    UPDATE project_step_tally SET pending = pending - 1
     WHERE key = OLD.key AND OLD.done_on IS NULL
       AND EXISTS (SELECT 1 FROM client_module WHERE id = OLD.client_module_id AND active = 1);
    INSERT INTO project_step_tally (key, pending)
        SELECT NEW.key, 1 FROM client_module WHERE id = NEW.client_module_id AND active = 1 AND NEW.done_on IS NULL
        ON CONFLICT (key) DO UPDATE SET pending = pending + 1;
END;
CREATE TRIGGER project_step_tally_active AFTER UPDATE OF active ON client_module
    WHEN OLD.active IS NOT NEW.active
BEGIN
    INSERT INTO project_step_tally (key, pending)
        SELECT key, CASE WHEN NEW.active = 1 THEN COUNT(*) ELSE -COUNT(*) END FROM project_milestone
         WHERE client_module_id = NEW.id AND done_on IS NULL GROUP BY key
        ON CONFLICT (key) DO UPDATE SET pending = pending + excluded.pending;
END;

-- The projects board: per step, its first position and label on an active project; the
-- stalled list: projects with a pending step and their latest tick.
CREATE INDEX project_milestone_key_position ON project_milestone (key, position, client_module_id);
CREATE INDEX project_milestone_key_label ON project_milestone (key, label, client_module_id);
-- The projects with a pending step, each once and in order (done_on is in it, always NULL, so
-- that SQLite reads the index alone).
CREATE INDEX project_milestone_open ON project_milestone (client_module_id, done_on) WHERE done_on IS NULL;
-- Its tail also covers a staff member's board, read project by project.
CREATE INDEX project_milestone_done ON project_milestone (client_module_id, done_on, key, position, label);
