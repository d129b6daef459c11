-- The day's worklists (spec 2.10, 4.6, issue 19): support tickets with their timeline, and what
-- the pipeline needs to find bare leads without walking every client.

-- A support call. Its age is counted in office days from opened_on (never in the future; may
-- be backdated when a call is logged late); resolved_on is set when it is resolved or closed
-- and cleared when it is reopened. type comes from the ticket.types setting in force when it
-- was written; kind is free text the list suggests from the kinds already used.
CREATE TABLE ticket (
    id          TEXT PRIMARY KEY,
    client_id   TEXT NOT NULL REFERENCES client(id),
    subject     TEXT NOT NULL,
    description TEXT,
    type        TEXT NOT NULL DEFAULT 'service',
    kind        TEXT,
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'in_progress', 'waiting_on_client', 'resolved', 'closed')),
    opened_on   TEXT NOT NULL,
    resolved_on TEXT,
    -- Defaults to the person who opened it.
    assignee_id TEXT REFERENCES staff(id),
    created_by  TEXT REFERENCES staff(id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
-- A client's tickets (the client page, the staff book), newest first.
CREATE INDEX ticket_client ON ticket(client_id, opened_on);
-- The still-open worklist, oldest first: a few thousand of the office's tens of thousands,
-- walked in order without a sort. The WHERE is the list's own clause, word for word, so the
-- planner can use it.
CREATE INDEX ticket_still_open ON ticket(opened_on, id) WHERE status IN ('open', 'in_progress', 'waiting_on_client');
-- The other chips, newest first, and "assigned to me".
CREATE INDEX ticket_status ON ticket(status, opened_on, id);
CREATE INDEX ticket_assignee ON ticket(assignee_id, status, opened_on);

-- The chips' counts without counting 50,000 rows on every read: one row per status, type and
-- assignee with its number of tickets, kept by triggers (as the tallies of V7), so a list
-- filtered only by those columns sums a few rows.
CREATE TABLE ticket_tally (
    status      TEXT NOT NULL,
    type        TEXT NOT NULL,
    assignee_id TEXT NOT NULL,
    n           INTEGER NOT NULL,
    PRIMARY KEY (status, type, assignee_id)
) WITHOUT ROWID;
CREATE TRIGGER ticket_tally_insert AFTER INSERT ON ticket BEGIN
    INSERT INTO ticket_tally (status, type, assignee_id, n)
        VALUES (NEW.status, NEW.type, COALESCE(NEW.assignee_id, ''), 1)
        ON CONFLICT (status, type, assignee_id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER ticket_tally_delete AFTER DELETE ON ticket BEGIN
    UPDATE ticket_tally SET n = n - 1
     WHERE status = OLD.status AND type = OLD.type AND assignee_id = COALESCE(OLD.assignee_id, '');
END;
CREATE TRIGGER ticket_tally_update AFTER UPDATE OF status, type, assignee_id ON ticket
    WHEN OLD.status IS NOT NEW.status OR OLD.type IS NOT NEW.type OR OLD.assignee_id IS NOT NEW.assignee_id
BEGIN
    UPDATE ticket_tally SET n = n - 1
     WHERE status = OLD.status AND type = OLD.type AND assignee_id = COALESCE(OLD.assignee_id, '');
    INSERT INTO ticket_tally (status, type, assignee_id, n)
        VALUES (NEW.status, NEW.type, COALESCE(NEW.assignee_id, ''), 1)
        ON CONFLICT (status, type, assignee_id) DO UPDATE SET n = n + 1;
END;

-- The kinds already used, with how often, for the list's suggestions.
CREATE TABLE ticket_kind_tally (
    kind TEXT PRIMARY KEY,
    n    INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TRIGGER ticket_kind_insert AFTER INSERT ON ticket WHEN NEW.kind IS NOT NULL BEGIN
    INSERT INTO ticket_kind_tally (kind, n) VALUES (NEW.kind, 1)
        ON CONFLICT (kind) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER ticket_kind_delete AFTER DELETE ON ticket WHEN OLD.kind IS NOT NULL BEGIN
    UPDATE ticket_kind_tally SET n = n - 1 WHERE kind = OLD.kind;
    DELETE FROM ticket_kind_tally WHERE kind = OLD.kind AND n <= 0;
END;
CREATE TRIGGER ticket_kind_update AFTER UPDATE OF kind ON ticket WHEN OLD.kind IS NOT NEW.kind BEGIN
    UPDATE ticket_kind_tally SET n = n - 1 WHERE kind = OLD.kind;
    DELETE FROM ticket_kind_tally WHERE kind = OLD.kind AND n <= 0;
    INSERT INTO ticket_kind_tally (kind, n) SELECT NEW.kind, 1 WHERE NEW.kind IS NOT NULL
        ON CONFLICT (kind) DO UPDATE SET n = n + 1;
END;

-- A ticket's timeline: opened, status (from_status -> to_status), note, billed (document_id),
-- assigned. Written in the transaction of the change.
CREATE TABLE ticket_event (
    id          TEXT PRIMARY KEY,
    ticket_id   TEXT NOT NULL REFERENCES ticket(id),
    kind        TEXT NOT NULL CHECK (kind IN ('opened', 'status', 'note', 'billed', 'assigned')),
    at          TEXT NOT NULL,
    user_id     TEXT REFERENCES staff(id),
    from_status TEXT,
    to_status   TEXT,
    note        TEXT,
    document_id TEXT REFERENCES document(id),
    assignee_id TEXT REFERENCES staff(id)
);
CREATE INDEX ticket_event_ticket ON ticket_event(ticket_id, id);

-- Bare clients: those with no document and no subscription yet, each a lead of the pipeline
-- (spec 4.6). Asking "no document and no module" of 5,000 clients is 10,000 index probes,
-- 1.2 ms on the large office, on every read of a list that otherwise takes 0.2 ms; this table
-- holds the answer (tens of rows), kept by triggers in the transaction of the change.
-- Documents and subscriptions are never deleted or moved to another client today; the delete
-- triggers keep the table honest if they ever are.
CREATE TABLE bare_client (client_id TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO bare_client (client_id)
    SELECT c.id FROM client c
     WHERE NOT EXISTS (SELECT 1 FROM document d WHERE d.client_id = c.id)
       AND NOT EXISTS (SELECT 1 FROM client_module m WHERE m.client_id = c.id);
CREATE TRIGGER bare_client_new AFTER INSERT ON client BEGIN
    INSERT OR IGNORE INTO bare_client (client_id) VALUES (NEW.id);
END;
CREATE TRIGGER bare_client_gone AFTER DELETE ON client BEGIN
    DELETE FROM bare_client WHERE client_id = OLD.id;
END;
CREATE TRIGGER bare_client_document AFTER INSERT ON document BEGIN
    DELETE FROM bare_client WHERE client_id = NEW.client_id;
END;
CREATE TRIGGER bare_client_module AFTER INSERT ON client_module BEGIN
    DELETE FROM bare_client WHERE client_id = NEW.client_id;
END;
CREATE TRIGGER bare_client_document_gone AFTER DELETE ON document BEGIN
    INSERT OR IGNORE INTO bare_client (client_id)
        SELECT OLD.client_id WHERE EXISTS (SELECT 1 FROM client WHERE id = OLD.client_id)
           AND NOT EXISTS (SELECT 1 FROM document WHERE client_id = OLD.client_id)
           AND NOT EXISTS (SELECT 1 FROM client_module WHERE client_id = OLD.client_id);
END;
CREATE TRIGGER bare_client_module_gone AFTER DELETE ON client_module BEGIN
    INSERT OR IGNORE INTO bare_client (client_id)
        SELECT OLD.client_id WHERE EXISTS (SELECT 1 FROM client WHERE id = OLD.client_id)
           AND NOT EXISTS (SELECT 1 FROM document WHERE client_id = OLD.client_id)
           AND NOT EXISTS (SELECT 1 FROM client_module WHERE client_id = OLD.client_id);
END;
