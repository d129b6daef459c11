-- The dashboard's and the cockpit's tiles at the speed of a list (issue 39): figures kept where
-- they are written, so a tile reads a range of a few short rows instead of building the list
-- behind it. Each keeps dates, never "days ago", so a tile is right when the day changes without
-- a write. None of these triggers is on document, document_line, payment or allocation.

-- The stalled projects (projects/milestones.rs `stalled`): every active project with a pending
-- step, with its last activity (the latest ticked step's day, else the day it was created;
-- NULL: neither, its age unknown). Stalled at `days` is the range last_on <= today - days.
CREATE TABLE open_project (
    client_module_id TEXT PRIMARY KEY,
    last_on          TEXT
) WITHOUT ROWID;
CREATE INDEX open_project_last ON open_project(last_on);
INSERT INTO open_project (client_module_id, last_on)
    SELECT cm.id, COALESCE((SELECT MAX(done_on) FROM project_milestone d WHERE d.client_module_id = cm.id),
                           substr(cm.created_at, 1, 10))
      FROM client_module cm
     WHERE cm.active = 1
       AND EXISTS (SELECT 1 FROM project_milestone p WHERE p.client_module_id = cm.id AND p.done_on IS NULL);

-- Each trigger puts the project's row back as its steps and itself now say.
CREATE TRIGGER open_project_step_insert AFTER INSERT ON project_milestone BEGIN
    DELETE FROM open_project WHERE client_module_id = NEW.client_module_id;
    INSERT INTO open_project (client_module_id, last_on)
        SELECT cm.id, COALESCE((SELECT MAX(done_on) FROM project_milestone d WHERE d.client_module_id = cm.id),
                               substr(cm.created_at, 1, 10))
          FROM client_module cm
         WHERE cm.id = NEW.client_module_id AND cm.active = 1
           AND EXISTS (SELECT 1 FROM project_milestone p WHERE p.client_module_id = cm.id AND p.done_on IS NULL);
END;
CREATE TRIGGER open_project_step_delete AFTER DELETE ON project_milestone BEGIN
    DELETE FROM open_project WHERE client_module_id = OLD.client_module_id;
    INSERT INTO open_project (client_module_id, last_on)
        SELECT cm.id, COALESCE((SELECT MAX(done_on) FROM project_milestone d WHERE d.client_module_id = cm.id),
                               substr(cm.created_at, 1, 10))
          FROM client_module cm
         WHERE cm.id = OLD.client_module_id AND cm.active = 1
           AND EXISTS (SELECT 1 FROM project_milestone p WHERE p.client_module_id = cm.id AND p.done_on IS NULL);
END;
CREATE TRIGGER open_project_step_update AFTER UPDATE OF done_on, client_module_id ON project_milestone
    WHEN OLD.done_on IS NOT NEW.done_on OR OLD.client_module_id IS NOT NEW.client_module_id
BEGIN
    DELETE FROM open_project WHERE client_module_id IN (OLD.client_module_id, NEW.client_module_id);
    INSERT INTO open_project (client_module_id, last_on)
        SELECT cm.id, COALESCE((SELECT MAX(done_on) FROM project_milestone d WHERE d.client_module_id = cm.id),
                               substr(cm.created_at, 1, 10))
          FROM client_module cm
         WHERE cm.id IN (OLD.client_module_id, NEW.client_module_id) AND cm.active = 1
           AND EXISTS (SELECT 1 FROM project_milestone p WHERE p.client_module_id = cm.id AND p.done_on IS NULL);
END;
CREATE TRIGGER open_project_update AFTER UPDATE OF active, created_at ON client_module
    WHEN OLD.active IS NOT NEW.active OR OLD.created_at IS NOT NEW.created_at
BEGIN
    DELETE FROM open_project WHERE client_module_id = NEW.id;
    INSERT INTO open_project (client_module_id, last_on)
        SELECT NEW.id, COALESCE((SELECT MAX(done_on) FROM project_milestone d WHERE d.client_module_id = NEW.id),
                                substr(NEW.created_at, 1, 10))
         WHERE NEW.active = 1
           AND EXISTS (SELECT 1 FROM project_milestone p WHERE p.client_module_id = NEW.id AND p.done_on IS NULL);
END;
CREATE TRIGGER open_project_delete AFTER DELETE ON client_module BEGIN
    DELETE FROM open_project WHERE client_module_id = OLD.id;
END;

-- The subscriptions due for renewal (renewals/store.rs MODULE_DUE): how many of each module
-- renew on each day, per book (the client's account owner, '' for none), counting the active
-- subscriptions of clients not lost. The tiles price each (module, day) once.
CREATE TABLE renewal_due (
    due_on    TEXT NOT NULL,
    owner_id  TEXT NOT NULL,
    module_id TEXT NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (due_on, owner_id, module_id)
) WITHOUT ROWID;
INSERT INTO renewal_due (due_on, owner_id, module_id, n)
    SELECT cm.next_renewal, COALESCE(c.owner_id, ''), cm.module_id, COUNT(*)
      FROM client_module cm JOIN client c ON c.id = cm.client_id
     WHERE cm.active = 1 AND cm.next_renewal IS NOT NULL AND c.status <> 'lost'
     GROUP BY 1, 2, 3;

CREATE TRIGGER renewal_due_insert AFTER INSERT ON client_module
    WHEN NEW.active = 1 AND NEW.next_renewal IS NOT NULL
BEGIN
    INSERT INTO renewal_due (due_on, owner_id, module_id, n)
        SELECT NEW.next_renewal, COALESCE(owner_id, ''), NEW.module_id, 1 FROM client
         WHERE id = NEW.client_id AND status <> 'lost'
        ON CONFLICT (due_on, owner_id, module_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER renewal_due_delete AFTER DELETE ON client_module
    WHEN OLD.active = 1 AND OLD.next_renewal IS NOT NULL
BEGIN
    UPDATE renewal_due SET n = n - 1
     WHERE due_on = OLD.next_renewal AND module_id = OLD.module_id
       AND owner_id = (SELECT COALESCE(owner_id, '') FROM client WHERE id = OLD.client_id AND status <> 'lost');
END;
CREATE TRIGGER renewal_due_update AFTER UPDATE OF active, next_renewal, module_id, client_id ON client_module
    WHEN OLD.active IS NOT NEW.active OR OLD.next_renewal IS NOT NEW.next_renewal
      OR OLD.module_id IS NOT NEW.module_id OR OLD.client_id IS NOT NEW.client_id
BEGIN
    UPDATE renewal_due SET n = n - 1
     WHERE OLD.active = 1 AND due_on = OLD.next_renewal AND module_id = OLD.module_id
       AND owner_id = (SELECT COALESCE(owner_id, '') FROM client WHERE id = OLD.client_id AND status <> 'lost');
    INSERT INTO renewal_due (due_on, owner_id, module_id, n)
        SELECT NEW.next_renewal, COALESCE(owner_id, ''), NEW.module_id, 1 FROM client
         WHERE id = NEW.client_id AND status <> 'lost' AND NEW.active = 1 AND NEW.next_renewal IS NOT NULL
        ON CONFLICT (due_on, owner_id, module_id) DO UPDATE SET n = n + 1;
END;
-- A client lost or won back, or given to another owner, moves its subscriptions.
CREATE TRIGGER renewal_due_client AFTER UPDATE OF status, owner_id ON client
    WHEN (OLD.status <> 'lost') IS NOT (NEW.status <> 'lost') OR OLD.owner_id IS NOT NEW.owner_id
BEGIN
    INSERT INTO renewal_due (due_on, owner_id, module_id, n)
        SELECT next_renewal, COALESCE(OLD.owner_id, ''), module_id, -COUNT(*) FROM client_module
         WHERE client_id = OLD.id AND active = 1 AND next_renewal IS NOT NULL AND OLD.status <> 'lost'
         GROUP BY next_renewal, module_id
        ON CONFLICT (due_on, owner_id, module_id) DO UPDATE SET n = n + excluded.n;
    INSERT INTO renewal_due (due_on, owner_id, module_id, n)
        SELECT next_renewal, COALESCE(NEW.owner_id, ''), module_id, COUNT(*) FROM client_module
         WHERE client_id = NEW.id AND active = 1 AND next_renewal IS NOT NULL AND NEW.status <> 'lost'
         GROUP BY next_renewal, module_id
        ON CONFLICT (due_on, owner_id, module_id) DO UPDATE SET n = n + excluded.n;
END;

-- The tickets still open at a day's end (tickets/reads.rs `still_open_at`, the cockpit's
-- series): per day, how many tickets were opened on it and how many stopped being open on it
-- (resolved, counted on the later of the day resolved and the day opened, so a ticket resolved
-- "before" it was opened is never open). Open at the end of E = opened up to E - closed up to E.
CREATE TABLE ticket_day (
    day    TEXT PRIMARY KEY,
    opened INTEGER NOT NULL DEFAULT 0,
    closed INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO ticket_day (day, opened, closed)
    SELECT day, SUM(opened), SUM(closed) FROM (
        SELECT opened_on AS day, 1 AS opened, 0 AS closed FROM ticket
        UNION ALL
        SELECT MAX(opened_on, resolved_on), 0, 1 FROM ticket WHERE resolved_on IS NOT NULL)
     GROUP BY day;
CREATE TRIGGER ticket_day_insert AFTER INSERT ON ticket BEGIN
    INSERT INTO ticket_day (day, opened) VALUES (NEW.opened_on, 1)
        ON CONFLICT (day) DO UPDATE SET opened = opened + 1;
    INSERT INTO ticket_day (day, closed) SELECT MAX(NEW.opened_on, NEW.resolved_on), 1 WHERE NEW.resolved_on IS NOT NULL
        ON CONFLICT (day) DO UPDATE SET closed = closed + 1;
END;
CREATE TRIGGER ticket_day_delete AFTER DELETE ON ticket BEGIN
    UPDATE ticket_day SET opened = opened - 1 WHERE day = OLD.opened_on;
    UPDATE ticket_day SET closed = closed - 1
     WHERE OLD.resolved_on IS NOT NULL AND day = MAX(OLD.opened_on, OLD.resolved_on);
END;
CREATE TRIGGER ticket_day_update AFTER UPDATE OF opened_on, resolved_on ON ticket
    WHEN OLD.opened_on IS NOT NEW.opened_on OR OLD.resolved_on IS NOT NEW.resolved_on
BEGIN
    UPDATE ticket_day SET opened = opened - 1 WHERE day = OLD.opened_on;
    UPDATE ticket_day SET closed = closed - 1
     WHERE OLD.resolved_on IS NOT NULL AND day = MAX(OLD.opened_on, OLD.resolved_on);
    INSERT INTO ticket_day (day, opened) VALUES (NEW.opened_on, 1)
        ON CONFLICT (day) DO UPDATE SET opened = opened + 1;
    INSERT INTO ticket_day (day, closed) SELECT MAX(NEW.opened_on, NEW.resolved_on), 1 WHERE NEW.resolved_on IS NOT NULL
        ON CONFLICT (day) DO UPDATE SET closed = closed + 1;
END;

-- The office's money by month (revenue/store.rs `office_months`, the cockpit's 12-month series):
-- client_month (V17) summed over its clients, kept from it row by row, so a year is 12 rows
-- instead of 60,000. One upsert of a short row per change of client_month.
CREATE TABLE office_month (
    month     TEXT PRIMARY KEY,
    billed    INTEGER NOT NULL DEFAULT 0,
    collected INTEGER NOT NULL DEFAULT 0,
    owed      INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
INSERT INTO office_month (month, billed, collected, owed)
    SELECT month, SUM(billed), SUM(collected), SUM(billed - settled) FROM client_month GROUP BY month;
CREATE TRIGGER office_month_insert AFTER INSERT ON client_month BEGIN
    INSERT INTO office_month (month, billed, collected, owed)
        VALUES (NEW.month, NEW.billed, NEW.collected, NEW.billed - NEW.settled)
        ON CONFLICT (month) DO UPDATE SET billed = billed + excluded.billed,
           collected = collected + excluded.collected, owed = owed + excluded.owed;
END;
CREATE TRIGGER office_month_update AFTER UPDATE OF month, billed, collected, settled ON client_month BEGIN
    UPDATE office_month
       SET billed = billed - OLD.billed, collected = collected - OLD.collected,
           owed = owed - (OLD.billed - OLD.settled)
     WHERE month = OLD.month;
    INSERT INTO office_month (month, billed, collected, owed)
        VALUES (NEW.month, NEW.billed, NEW.collected, NEW.billed - NEW.settled)
        ON CONFLICT (month) DO UPDATE SET billed = billed + excluded.billed,
           collected = collected + excluded.collected, owed = owed + excluded.owed;
END;
CREATE TRIGGER office_month_delete AFTER DELETE ON client_month BEGIN
    UPDATE office_month
       SET billed = billed - OLD.billed, collected = collected - OLD.collected,
           owed = owed - (OLD.billed - OLD.settled)
     WHERE month = OLD.month;
END;

-- The open quotations (pipeline/store.rs, the open pipeline's quotations; the tiles' bands):
-- each issued or sent quotation of a client neither lost nor inactive that no live document
-- continues, with its total and the moment its conversation began (its first `sent` event,
-- else its issue date), which the tiles read against today's ladder. Each trigger puts back
-- the rows of the quotations the change can touch: the document and its parent, the document
-- of a `sent` event, a client's quotations. On document, the WHEN lets every other write by
-- (an invoice without a parent is not looked at).
CREATE TABLE open_quote (
    document_id TEXT PRIMARY KEY,
    client_id   TEXT NOT NULL,
    anchor      TEXT,
    total       INTEGER
) WITHOUT ROWID;
CREATE INDEX open_quote_client ON open_quote(client_id);
INSERT INTO open_quote (document_id, client_id, anchor, total)
    SELECT d.id, d.client_id,
           COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent'), d.doc_date),
           d.total
      FROM document d JOIN client c ON c.id = d.client_id
     WHERE d.type = 'QUOTATION' AND d.status IN ('issued', 'sent') AND c.status NOT IN ('lost', 'inactive')
       AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled');

CREATE TRIGGER open_quote_document_insert AFTER INSERT ON document
    WHEN NEW.type = 'QUOTATION' OR NEW.parent_id IS NOT NULL
BEGIN
    DELETE FROM open_quote WHERE document_id IN (NEW.id, NEW.parent_id);
    INSERT INTO open_quote (document_id, client_id, anchor, total)
        SELECT d.id, d.client_id,
               COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent'), d.doc_date),
               d.total
          FROM document d JOIN client c ON c.id = d.client_id
         WHERE d.id IN (NEW.id, NEW.parent_id)
           AND d.type = 'QUOTATION' AND d.status IN ('issued', 'sent') AND c.status NOT IN ('lost', 'inactive')
           AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled');
END;
CREATE TRIGGER open_quote_document_update AFTER UPDATE OF type, status, client_id, total, doc_date, parent_id ON document
    WHEN NEW.type = 'QUOTATION' OR OLD.type = 'QUOTATION' OR NEW.parent_id IS NOT NULL OR OLD.parent_id IS NOT NULL
BEGIN
    DELETE FROM open_quote WHERE document_id IN (NEW.id, OLD.parent_id, NEW.parent_id);
    INSERT INTO open_quote (document_id, client_id, anchor, total)
        SELECT d.id, d.client_id,
               COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent'), d.doc_date),
               d.total
          FROM document d JOIN client c ON c.id = d.client_id
         WHERE d.id IN (NEW.id, OLD.parent_id, NEW.parent_id)
           AND d.type = 'QUOTATION' AND d.status IN ('issued', 'sent') AND c.status NOT IN ('lost', 'inactive')
           AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled');
END;
CREATE TRIGGER open_quote_document_delete AFTER DELETE ON document
    WHEN OLD.type = 'QUOTATION' OR OLD.parent_id IS NOT NULL
BEGIN
    DELETE FROM open_quote WHERE document_id IN (OLD.id, OLD.parent_id);
    INSERT INTO open_quote (document_id, client_id, anchor, total)
        SELECT d.id, d.client_id,
               COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent'), d.doc_date),
               d.total
          FROM document d JOIN client c ON c.id = d.client_id
         WHERE d.id = OLD.parent_id
           AND d.type = 'QUOTATION' AND d.status IN ('issued', 'sent') AND c.status NOT IN ('lost', 'inactive')
           AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled');
END;
-- A quotation's first `sent` moves its anchor.
CREATE TRIGGER open_quote_sent_insert AFTER INSERT ON document_event WHEN NEW.kind = 'sent' BEGIN
    UPDATE open_quote
       SET anchor = COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = NEW.document_id AND e.kind = 'sent'),
                             (SELECT doc_date FROM document WHERE id = NEW.document_id))
     WHERE document_id = NEW.document_id;
END;
CREATE TRIGGER open_quote_sent_update AFTER UPDATE OF document_id, kind, at ON document_event
    WHEN OLD.kind = 'sent' OR NEW.kind = 'sent'
BEGIN
    UPDATE open_quote
       SET anchor = COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = open_quote.document_id AND e.kind = 'sent'),
                             (SELECT doc_date FROM document WHERE id = open_quote.document_id))
     WHERE document_id IN (OLD.document_id, NEW.document_id);
END;
CREATE TRIGGER open_quote_sent_delete AFTER DELETE ON document_event WHEN OLD.kind = 'sent' BEGIN
    UPDATE open_quote
       SET anchor = COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = OLD.document_id AND e.kind = 'sent'),
                             (SELECT doc_date FROM document WHERE id = OLD.document_id))
     WHERE document_id = OLD.document_id;
END;
-- A client lost, won back, made inactive or active again.
CREATE TRIGGER open_quote_client AFTER UPDATE OF status ON client
    WHEN (OLD.status IN ('lost', 'inactive')) IS NOT (NEW.status IN ('lost', 'inactive'))
BEGIN
    DELETE FROM open_quote WHERE client_id = NEW.id;
    INSERT INTO open_quote (document_id, client_id, anchor, total)
        SELECT d.id, d.client_id,
               COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent'), d.doc_date),
               d.total
          FROM document d
         WHERE d.client_id = NEW.id AND NEW.status NOT IN ('lost', 'inactive')
           AND d.type = 'QUOTATION' AND d.status IN ('issued', 'sent')
           AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled');
END;

-- The reminders due today and overdue (dashboard/store.rs `reminders_due`): the open ones up to
-- today, read from this index alone instead of every open reminder's row.
CREATE INDEX reminder_open_due ON reminder(due_on, owner_id, doc_id) WHERE status = 'open';
