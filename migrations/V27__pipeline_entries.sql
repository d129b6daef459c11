-- The pipeline at the speed of a list (issue 39): its rows kept beside the data, in the list's
-- own order, so a page of the 15,000 lost quotations of the large office is read from an index
-- rather than derived for every row and sorted (186 ms of SQL before).
--
-- One row per conversation the pipeline shows under `all` (pipeline/store.rs): a quotation
-- issued, sent or lost, with no live child, of a client not inactive; or a bare lead (a client
-- marked `lead`, or one with no document or module that the legacy import did not bring), not
-- inactive, with no quotation beyond a draft. Each row keeps what is costly to derive: whether
-- it is lost, its anchor (the quotation's first `sent` moment, else its issue date; a lead's
-- creation) and the office day of that anchor, which orders the list. Names, numbers, totals,
-- owners and reminders are read live for the page's rows only.
--
-- The office day of a moment depends on `company.utc_offset`, a dated setting: the days are
-- kept for the offset in `pipeline_day_offset` (that of the latest value set), and the list
-- reads them only while that is the offset in force; otherwise it derives each day as before.

CREATE TABLE pipeline_day_offset (seconds INTEGER);
-- The default (+05:30) until the setting is first written.
INSERT INTO pipeline_day_offset (seconds) VALUES (19800);

CREATE TABLE pipeline_entry (
    -- The quotation's id, or the lead's client id.
    row_id      TEXT PRIMARY KEY,
    client_id   TEXT NOT NULL,
    -- NULL for a bare lead.
    document_id TEXT,
    -- 1: shown under `lost` (a lost quotation, or any of a lost client); 0: under `open`.
    lost        INTEGER NOT NULL,
    -- The first `sent` moment (UTC), else the issue date; a lead's creation moment.
    anchor      TEXT,
    -- The office day of the anchor at the offset in pipeline_day_offset.
    day         TEXT
) WITHOUT ROWID;
-- The open and the lost lists in their order, and their counts.
CREATE INDEX pipeline_entry_show ON pipeline_entry(lost, day, row_id);
-- The whole pipeline (`all`) in its order.
CREATE INDEX pipeline_entry_day ON pipeline_entry(day, row_id);
-- A staff book's rows.
CREATE INDEX pipeline_entry_client ON pipeline_entry(client_id);

-- Writing an id here recomputes its row (a quotation's or a lead's; ids are unique across
-- tables) from the tables it is derived from: the one rule, used by every trigger below.
CREATE VIEW pipeline_stale (id) AS SELECT NULL WHERE 0;
CREATE TRIGGER pipeline_refresh INSTEAD OF INSERT ON pipeline_stale WHEN NEW.id IS NOT NULL BEGIN
    DELETE FROM pipeline_entry WHERE row_id = NEW.id;
    INSERT INTO pipeline_entry (row_id, client_id, document_id, lost, anchor, day)
    SELECT q.id, q.client_id, q.id, q.lost, q.anchor,
           CASE WHEN length(q.anchor) = 10 THEN q.anchor
                ELSE date(q.anchor, printf('%+d seconds', (SELECT seconds FROM pipeline_day_offset))) END
      FROM (SELECT d.id, d.client_id, d.status = 'lost' OR c.status = 'lost' AS lost,
                   COALESCE((SELECT MIN(e.at) FROM document_event e WHERE e.document_id = d.id AND e.kind = 'sent'),
                            d.doc_date) AS anchor
              FROM document d JOIN client c ON c.id = d.client_id
             WHERE d.id = NEW.id AND d.type = 'QUOTATION' AND d.status IN ('issued', 'sent', 'lost')
               AND c.status <> 'inactive'
               AND NOT EXISTS (SELECT 1 FROM document k WHERE k.parent_id = d.id AND k.status <> 'cancelled')) q;
    INSERT INTO pipeline_entry (row_id, client_id, document_id, lost, anchor, day)
    SELECT c.id, c.id, NULL, c.status = 'lost', c.created_at,
           CASE WHEN length(c.created_at) = 10 THEN c.created_at
                ELSE date(c.created_at, printf('%+d seconds', (SELECT seconds FROM pipeline_day_offset))) END
      FROM client c
     WHERE c.id = NEW.id AND c.status <> 'inactive'
       AND (c.status = 'lead' OR c.id IN (SELECT client_id FROM bare_client) AND c.imported_at IS NULL)
       AND NOT EXISTS (SELECT 1 FROM document q WHERE q.client_id = c.id AND +q.type = 'QUOTATION'
                       AND q.status NOT IN ('draft', 'cancelled'));
END;

-- A quotation written, or a child of one (a conversion, a supersession): the quotation, its
-- parent, and its client's lead row. Other documents (an invoice without a parent) skip it.
CREATE TRIGGER pipeline_document_new AFTER INSERT ON document
    WHEN NEW.type = 'QUOTATION' OR NEW.parent_id IS NOT NULL
BEGIN
    INSERT INTO pipeline_stale (id) VALUES (NEW.id), (NEW.parent_id), (NEW.client_id);
END;
CREATE TRIGGER pipeline_document_changed AFTER UPDATE OF type, status, doc_date, client_id, parent_id ON document
    WHEN NEW.type = 'QUOTATION' OR OLD.type = 'QUOTATION' OR NEW.parent_id IS NOT NULL OR OLD.parent_id IS NOT NULL
BEGIN
    INSERT INTO pipeline_stale (id)
        VALUES (NEW.id), (OLD.parent_id), (NEW.parent_id), (OLD.client_id), (NEW.client_id);
END;
CREATE TRIGGER pipeline_document_gone AFTER DELETE ON document
    WHEN OLD.type = 'QUOTATION' OR OLD.parent_id IS NOT NULL
BEGIN
    INSERT INTO pipeline_stale (id) VALUES (OLD.id), (OLD.parent_id), (OLD.client_id);
END;
-- A quotation sent (its first `sent` moment is its anchor); a `sent` event moved or removed
-- (events are only appended today; these keep the rows honest if one ever is).
CREATE TRIGGER pipeline_document_sent AFTER INSERT ON document_event WHEN NEW.kind = 'sent' BEGIN
    INSERT INTO pipeline_stale (id) VALUES (NEW.document_id);
END;
CREATE TRIGGER pipeline_document_sent_changed AFTER UPDATE OF document_id, kind, at ON document_event
    WHEN OLD.kind = 'sent' OR NEW.kind = 'sent'
BEGIN
    INSERT INTO pipeline_stale (id) VALUES (OLD.document_id), (NEW.document_id);
END;
CREATE TRIGGER pipeline_document_sent_gone AFTER DELETE ON document_event WHEN OLD.kind = 'sent' BEGIN
    INSERT INTO pipeline_stale (id) VALUES (OLD.document_id);
END;
-- A client made, lost, won back, made inactive or imported: its lead row and its quotations.
CREATE TRIGGER pipeline_client_new AFTER INSERT ON client BEGIN
    INSERT INTO pipeline_stale (id) VALUES (NEW.id);
END;
CREATE TRIGGER pipeline_client_changed AFTER UPDATE OF status, imported_at, created_at ON client
    WHEN OLD.status IS NOT NEW.status OR OLD.imported_at IS NOT NEW.imported_at OR OLD.created_at IS NOT NEW.created_at
BEGIN
    INSERT INTO pipeline_stale (id) VALUES (NEW.id);
    INSERT INTO pipeline_stale (id) SELECT id FROM document WHERE client_id = NEW.id AND type = 'QUOTATION';
END;
CREATE TRIGGER pipeline_client_gone AFTER DELETE ON client BEGIN
    DELETE FROM pipeline_entry WHERE client_id = OLD.id;
END;
-- A client's first document or module, or its last one gone (migrations/V16).
CREATE TRIGGER pipeline_bare_new AFTER INSERT ON bare_client BEGIN
    INSERT INTO pipeline_stale (id) VALUES (NEW.client_id);
END;
CREATE TRIGGER pipeline_bare_gone AFTER DELETE ON bare_client BEGIN
    INSERT INTO pipeline_stale (id) VALUES (OLD.client_id);
END;
-- The offset of the latest value of `company.utc_offset` set, in seconds, as settings.rs reads
-- `+HH:MM` (what it cannot read is the default, +05:30). A value this reads otherwise than Rust
-- does only makes the list derive its days (the offsets then differ), never misorders it.
CREATE VIEW pipeline_offset_latest (seconds) AS
SELECT COALESCE(
    (SELECT CASE WHEN o GLOB '[+-][0-9][0-9]:[0-9][0-9]'
                      AND CAST(substr(o, 2, 2) AS INTEGER) <= 14 AND CAST(substr(o, 5, 2) AS INTEGER) <= 59
                 THEN (CASE substr(o, 1, 1) WHEN '-' THEN -1 ELSE 1 END)
                      * (CAST(substr(o, 2, 2) AS INTEGER) * 3600 + CAST(substr(o, 5, 2) AS INTEGER) * 60)
            END
       FROM (SELECT json_extract(value, '$') AS o FROM setting WHERE key = 'company.utc_offset'
              ORDER BY effective_from DESC, id DESC LIMIT 1)),
    19800);
-- The offset set: the days are kept for the latest value.
CREATE TRIGGER pipeline_offset_set AFTER INSERT ON setting WHEN NEW.key = 'company.utc_offset' BEGIN
    UPDATE pipeline_day_offset SET seconds = (SELECT seconds FROM pipeline_offset_latest);
    UPDATE pipeline_entry
       SET day = date(anchor, printf('%+d seconds', (SELECT seconds FROM pipeline_day_offset)))
     WHERE length(anchor) <> 10
       AND day IS NOT date(anchor, printf('%+d seconds', (SELECT seconds FROM pipeline_day_offset)));
END;

-- The rows of the data as it stands.
UPDATE pipeline_day_offset SET seconds = (SELECT seconds FROM pipeline_offset_latest);
INSERT INTO pipeline_stale (id) SELECT id FROM document WHERE type = 'QUOTATION';
INSERT INTO pipeline_stale (id) SELECT id FROM client;
