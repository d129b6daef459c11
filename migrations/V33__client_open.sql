-- The dues aging at the speed of a list (issue 39). On the large office some 9,200 invoices
-- are open (settled_on NULL, kept by the triggers of V7), and reading each one was most of the
-- aging's time; yet 8,000 of them sit in the last bucket, over 90 days past due, owing what
-- they store. So each client's open invoices are summed here, as stored, and the aging reads
-- one row a client, then only the open invoices whose bucket or amount may differ on its
-- as-of date: those falling due within 90 days of it, or dated or settled after it. Those are
-- found by the latest of the three dates (`document_open_latest`); their stored amounts come
-- off the client's sum and what they owe on the date goes into their buckets.

-- What the open invoices of a client store as outstanding, summed; a client with none has no
-- row (an open invoice owes something, V7).
CREATE TABLE client_open (
    client_id   TEXT PRIMARY KEY REFERENCES client(id),
    outstanding INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO client_open (client_id, outstanding)
    SELECT client_id, SUM(outstanding) FROM document
     WHERE type = 'INVOICE' AND status NOT IN ('draft', 'cancelled') AND settled_on IS NULL
     GROUP BY client_id HAVING SUM(outstanding) <> 0;

-- Each trigger takes the old row's share out and puts the new row's in, by adding (so the
-- order in which SQLite runs them and V7's, which sets a new invoice's outstanding, does not
-- matter), and drops a client's row when it comes to nothing. `WHERE true` and the like keep
-- SQLite's parser from reading the upsert's ON as a join's.
CREATE TRIGGER client_open_insert AFTER INSERT ON document
    WHEN NEW.type = 'INVOICE' AND NEW.status NOT IN ('draft', 'cancelled') AND NEW.settled_on IS NULL
BEGIN
    INSERT INTO client_open (client_id, outstanding) VALUES (NEW.client_id, COALESCE(NEW.outstanding, 0))
        ON CONFLICT (client_id) DO UPDATE SET outstanding = outstanding + excluded.outstanding;
    DELETE FROM client_open WHERE client_id = NEW.client_id AND outstanding = 0;
END;

CREATE TRIGGER client_open_delete AFTER DELETE ON document
    WHEN OLD.type = 'INVOICE' AND OLD.status NOT IN ('draft', 'cancelled') AND OLD.settled_on IS NULL
BEGIN
    INSERT INTO client_open (client_id, outstanding) VALUES (OLD.client_id, -COALESCE(OLD.outstanding, 0))
        ON CONFLICT (client_id) DO UPDATE SET outstanding = outstanding + excluded.outstanding;
    DELETE FROM client_open WHERE client_id = OLD.client_id AND outstanding = 0;
END;

CREATE TRIGGER client_open_update AFTER UPDATE OF type, status, settled_on, outstanding, client_id ON document
    WHEN (OLD.type = 'INVOICE' AND OLD.status NOT IN ('draft', 'cancelled') AND OLD.settled_on IS NULL)
      OR (NEW.type = 'INVOICE' AND NEW.status NOT IN ('draft', 'cancelled') AND NEW.settled_on IS NULL)
BEGIN
    INSERT INTO client_open (client_id, outstanding)
        SELECT OLD.client_id, -COALESCE(OLD.outstanding, 0)
         WHERE OLD.type = 'INVOICE' AND OLD.status NOT IN ('draft', 'cancelled') AND OLD.settled_on IS NULL
        ON CONFLICT (client_id) DO UPDATE SET outstanding = outstanding + excluded.outstanding;
    INSERT INTO client_open (client_id, outstanding)
        SELECT NEW.client_id, COALESCE(NEW.outstanding, 0)
         WHERE NEW.type = 'INVOICE' AND NEW.status NOT IN ('draft', 'cancelled') AND NEW.settled_on IS NULL
        ON CONFLICT (client_id) DO UPDATE SET outstanding = outstanding + excluded.outstanding;
    DELETE FROM client_open WHERE client_id IN (OLD.client_id, NEW.client_id) AND outstanding = 0;
END;

-- The open invoices by the latest of the dates that decide their bucket and amount: when
-- they fall due, their date, their last settlement (an absent one counts as latest, '~', so it
-- is always read). With every column the aging reads of them, and the WHERE the reads repeat
-- word for word, as SQLite asks before it uses a partial index.
CREATE INDEX document_open_latest ON document (
    max(COALESCE(due_date, doc_date, '~'), COALESCE(doc_date, '~'), COALESCE(last_settlement_on, '~')),
    client_id, due_date, doc_date, outstanding, last_settlement_on, id, status)
    WHERE type = 'INVOICE' AND status NOT IN ('draft', 'cancelled') AND settled_on IS NULL;
