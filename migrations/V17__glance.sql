-- What the owner and the office see at a glance (spec 2.10, 4.7, 4.9; issue 20): cloud cost
-- usage, and the monthly figures the cockpit, the module revenue and the client profitability
-- read, kept where they are written instead of summed from ten years of documents per request.

-- Cloud cost usage (spec 2.10): what running a society's cloud server cost in a month, paise
-- before GST. One row per client and month: a second entry for the same month replaces the
-- first (PUT /api/cloud-costs, or the monthly pull from the provider).
CREATE TABLE cloud_cost (
    client_id  TEXT NOT NULL REFERENCES client(id),
    month      TEXT NOT NULL CHECK (month GLOB '[0-9][0-9][0-9][0-9]-[01][0-9]'),
    amount     INTEGER NOT NULL CHECK (amount >= 0),
    -- manual (entered in the console or through the API) or pull (the provider's report).
    source     TEXT NOT NULL CHECK (source IN ('manual', 'pull')),
    updated_by TEXT REFERENCES staff(id),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (client_id, month)
) WITHOUT ROWID;
-- A month's ranking, costliest first.
CREATE INDEX cloud_cost_month ON cloud_cost(month, amount);

-- Each client's money by month (YYYY-MM), kept by the triggers below in the transaction of
-- the change (as document.outstanding is, V7), so a year of the office is 60,000 short rows
-- of one range instead of every invoice, credit note and payment of the year:
--   billed     issued invoices less issued credit notes, GST included, by doc_date's month
--              ("issued": not draft, not cancelled; the GST summary's definition);
--   taxable    the same documents' taxable value (subtotal), GST excluded;
--   collected  payments recorded (not cancelled), by received_on's month; TDS is not money
--              received and is not in it;
--   settled    what settled those invoices: allocations (money and TDS) by the month of the
--              later of the payment and the invoice (an advance settles nothing before the
--              invoice exists), and what the old system had already received (legacy_paid) by
--              the invoice's month. So what the office was owed at the end of a month is every
--              month's billed less settled up to it (the dues aging's figure, summed).
-- Rows are never deleted: a cancelled document leaves a row of zeros behind.
CREATE TABLE client_month (
    month     TEXT NOT NULL,
    client_id TEXT NOT NULL,
    billed    INTEGER NOT NULL DEFAULT 0,
    taxable   INTEGER NOT NULL DEFAULT 0,
    collected INTEGER NOT NULL DEFAULT 0,
    settled   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (month, client_id)
) WITHOUT ROWID;

-- The taxable value billed per module, client and month: the lines of the same documents that
-- name a module (a credit note's lines subtract). The module revenue report reads a range of it.
CREATE TABLE module_month (
    month     TEXT NOT NULL,
    module_id TEXT NOT NULL,
    client_id TEXT NOT NULL,
    taxable   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (month, module_id, client_id)
) WITHOUT ROWID;

INSERT INTO client_month (month, client_id, billed, taxable, collected, settled)
    SELECT month, client_id, SUM(billed), SUM(taxable), SUM(collected), SUM(settled) FROM (
        SELECT substr(doc_date, 1, 7) AS month, client_id,
               CASE type WHEN 'INVOICE' THEN total ELSE -total END AS billed,
               CASE type WHEN 'INVOICE' THEN subtotal ELSE -subtotal END AS taxable, 0 AS collected,
               CASE type WHEN 'INVOICE' THEN legacy_paid ELSE 0 END AS settled
          FROM document
         WHERE type IN ('INVOICE', 'CREDIT_NOTE') AND status NOT IN ('draft', 'cancelled') AND doc_date IS NOT NULL
        UNION ALL
        SELECT substr(received_on, 1, 7), client_id, 0, 0, amount, 0 FROM payment WHERE status = 'recorded'
        UNION ALL
        SELECT substr(MAX(p.received_on, d.doc_date), 1, 7), d.client_id, 0, 0, 0, a.amount + a.tds
          FROM payment_allocation a JOIN payment p ON p.id = a.payment_id JOIN document d ON d.id = a.document_id)
     GROUP BY month, client_id;

INSERT INTO module_month (month, module_id, client_id, taxable)
    SELECT substr(d.doc_date, 1, 7), l.module_id, d.client_id,
           SUM(CASE d.type WHEN 'INVOICE' THEN l.taxable ELSE -l.taxable END)
      FROM document d JOIN document_line l ON l.document_id = d.id
     WHERE d.type IN ('INVOICE', 'CREDIT_NOTE') AND d.status NOT IN ('draft', 'cancelled')
       AND d.doc_date IS NOT NULL AND l.module_id IS NOT NULL
     GROUP BY 1, 2, 3;

-- A document counts while it is an issued invoice or credit note with a date. Each trigger
-- takes the old row's share out and puts the new row's in; `WHERE true` and the like keep
-- SQLite's parser from reading the upsert's ON as a join's.
CREATE TRIGGER client_month_document_insert AFTER INSERT ON document
    WHEN NEW.type IN ('INVOICE', 'CREDIT_NOTE') AND NEW.status NOT IN ('draft', 'cancelled') AND NEW.doc_date IS NOT NULL
BEGIN
    INSERT INTO client_month (month, client_id, billed, taxable, settled)
        VALUES (substr(NEW.doc_date, 1, 7), NEW.client_id,
                CASE NEW.type WHEN 'INVOICE' THEN NEW.total ELSE -NEW.total END,
                CASE NEW.type WHEN 'INVOICE' THEN NEW.subtotal ELSE -NEW.subtotal END,
                CASE NEW.type WHEN 'INVOICE' THEN NEW.legacy_paid ELSE 0 END)
        ON CONFLICT (month, client_id) DO UPDATE SET billed = billed + excluded.billed,
           taxable = taxable + excluded.taxable, settled = settled + excluded.settled;
END;

CREATE TRIGGER client_month_document_delete AFTER DELETE ON document
    WHEN OLD.type IN ('INVOICE', 'CREDIT_NOTE') AND OLD.status NOT IN ('draft', 'cancelled') AND OLD.doc_date IS NOT NULL
BEGIN
    UPDATE client_month
       SET billed = billed - CASE OLD.type WHEN 'INVOICE' THEN OLD.total ELSE -OLD.total END,
           taxable = taxable - CASE OLD.type WHEN 'INVOICE' THEN OLD.subtotal ELSE -OLD.subtotal END,
           settled = settled - CASE OLD.type WHEN 'INVOICE' THEN OLD.legacy_paid ELSE 0 END
     WHERE month = substr(OLD.doc_date, 1, 7) AND client_id = OLD.client_id;
    -- (Its lines went before it, each taking its share out of module_month.)
END;

CREATE TRIGGER client_month_document_update
    AFTER UPDATE OF type, status, doc_date, total, subtotal, client_id, legacy_paid ON document
    WHEN (OLD.type IN ('INVOICE', 'CREDIT_NOTE') AND OLD.status NOT IN ('draft', 'cancelled') AND OLD.doc_date IS NOT NULL)
      OR (NEW.type IN ('INVOICE', 'CREDIT_NOTE') AND NEW.status NOT IN ('draft', 'cancelled') AND NEW.doc_date IS NOT NULL)
BEGIN
    -- The old share out.
    INSERT INTO client_month (month, client_id, billed, taxable, settled)
        SELECT substr(OLD.doc_date, 1, 7), OLD.client_id,
               -CASE OLD.type WHEN 'INVOICE' THEN OLD.total ELSE -OLD.total END,
               -CASE OLD.type WHEN 'INVOICE' THEN OLD.subtotal ELSE -OLD.subtotal END,
               -CASE OLD.type WHEN 'INVOICE' THEN OLD.legacy_paid ELSE 0 END
         WHERE OLD.type IN ('INVOICE', 'CREDIT_NOTE') AND OLD.status NOT IN ('draft', 'cancelled') AND OLD.doc_date IS NOT NULL
        ON CONFLICT (month, client_id) DO UPDATE SET billed = billed + excluded.billed,
           taxable = taxable + excluded.taxable, settled = settled + excluded.settled;
    INSERT INTO module_month (month, module_id, client_id, taxable)
        SELECT substr(OLD.doc_date, 1, 7), module_id, OLD.client_id,
               -SUM(CASE OLD.type WHEN 'INVOICE' THEN taxable ELSE -taxable END)
          FROM document_line
         WHERE document_id = OLD.id AND module_id IS NOT NULL
           AND OLD.type IN ('INVOICE', 'CREDIT_NOTE') AND OLD.status NOT IN ('draft', 'cancelled') AND OLD.doc_date IS NOT NULL
         GROUP BY module_id
        ON CONFLICT (month, module_id, client_id) DO UPDATE SET taxable = taxable + excluded.taxable;
    -- The new share in.
    INSERT INTO client_month (month, client_id, billed, taxable, settled)
        SELECT substr(NEW.doc_date, 1, 7), NEW.client_id,
               CASE NEW.type WHEN 'INVOICE' THEN NEW.total ELSE -NEW.total END,
               CASE NEW.type WHEN 'INVOICE' THEN NEW.subtotal ELSE -NEW.subtotal END,
               CASE NEW.type WHEN 'INVOICE' THEN NEW.legacy_paid ELSE 0 END
         WHERE NEW.type IN ('INVOICE', 'CREDIT_NOTE') AND NEW.status NOT IN ('draft', 'cancelled') AND NEW.doc_date IS NOT NULL
        ON CONFLICT (month, client_id) DO UPDATE SET billed = billed + excluded.billed,
           taxable = taxable + excluded.taxable, settled = settled + excluded.settled;
    INSERT INTO module_month (month, module_id, client_id, taxable)
        SELECT substr(NEW.doc_date, 1, 7), module_id, NEW.client_id,
               SUM(CASE NEW.type WHEN 'INVOICE' THEN taxable ELSE -taxable END)
          FROM document_line
         WHERE document_id = NEW.id AND module_id IS NOT NULL
           AND NEW.type IN ('INVOICE', 'CREDIT_NOTE') AND NEW.status NOT IN ('draft', 'cancelled') AND NEW.doc_date IS NOT NULL
         GROUP BY module_id
        ON CONFLICT (month, module_id, client_id) DO UPDATE SET taxable = taxable + excluded.taxable;
END;

-- A line written or changed under a document that already counts (the legacy import writes
-- issued documents first and their lines after).
CREATE TRIGGER module_month_line_insert AFTER INSERT ON document_line WHEN NEW.module_id IS NOT NULL
BEGIN
    INSERT INTO module_month (month, module_id, client_id, taxable)
        SELECT substr(d.doc_date, 1, 7), NEW.module_id, d.client_id,
               CASE d.type WHEN 'INVOICE' THEN NEW.taxable ELSE -NEW.taxable END
          FROM document d
         WHERE d.id = NEW.document_id AND d.type IN ('INVOICE', 'CREDIT_NOTE')
           AND d.status NOT IN ('draft', 'cancelled') AND d.doc_date IS NOT NULL
        ON CONFLICT (month, module_id, client_id) DO UPDATE SET taxable = taxable + excluded.taxable;
END;

CREATE TRIGGER module_month_line_delete AFTER DELETE ON document_line WHEN OLD.module_id IS NOT NULL
BEGIN
    INSERT INTO module_month (month, module_id, client_id, taxable)
        SELECT substr(d.doc_date, 1, 7), OLD.module_id, d.client_id,
               -CASE d.type WHEN 'INVOICE' THEN OLD.taxable ELSE -OLD.taxable END
          FROM document d
         WHERE d.id = OLD.document_id AND d.type IN ('INVOICE', 'CREDIT_NOTE')
           AND d.status NOT IN ('draft', 'cancelled') AND d.doc_date IS NOT NULL
        ON CONFLICT (month, module_id, client_id) DO UPDATE SET taxable = taxable + excluded.taxable;
END;

CREATE TRIGGER module_month_line_update AFTER UPDATE OF module_id, taxable, document_id ON document_line
    WHEN OLD.module_id IS NOT NEW.module_id OR OLD.taxable IS NOT NEW.taxable OR OLD.document_id IS NOT NEW.document_id
BEGIN
    INSERT INTO module_month (month, module_id, client_id, taxable)
        SELECT substr(d.doc_date, 1, 7), OLD.module_id, d.client_id,
               -CASE d.type WHEN 'INVOICE' THEN OLD.taxable ELSE -OLD.taxable END
          FROM document d
         WHERE d.id = OLD.document_id AND OLD.module_id IS NOT NULL AND d.type IN ('INVOICE', 'CREDIT_NOTE')
           AND d.status NOT IN ('draft', 'cancelled') AND d.doc_date IS NOT NULL
        ON CONFLICT (month, module_id, client_id) DO UPDATE SET taxable = taxable + excluded.taxable;
    INSERT INTO module_month (month, module_id, client_id, taxable)
        SELECT substr(d.doc_date, 1, 7), NEW.module_id, d.client_id,
               CASE d.type WHEN 'INVOICE' THEN NEW.taxable ELSE -NEW.taxable END
          FROM document d
         WHERE d.id = NEW.document_id AND NEW.module_id IS NOT NULL AND d.type IN ('INVOICE', 'CREDIT_NOTE')
           AND d.status NOT IN ('draft', 'cancelled') AND d.doc_date IS NOT NULL
        ON CONFLICT (month, module_id, client_id) DO UPDATE SET taxable = taxable + excluded.taxable;
END;

CREATE TRIGGER client_month_payment_insert AFTER INSERT ON payment WHEN NEW.status = 'recorded'
BEGIN
    INSERT INTO client_month (month, client_id, collected)
        VALUES (substr(NEW.received_on, 1, 7), NEW.client_id, NEW.amount)
        ON CONFLICT (month, client_id) DO UPDATE SET collected = collected + excluded.collected;
END;

CREATE TRIGGER client_month_payment_delete AFTER DELETE ON payment WHEN OLD.status = 'recorded'
BEGIN
    UPDATE client_month SET collected = collected - OLD.amount
     WHERE month = substr(OLD.received_on, 1, 7) AND client_id = OLD.client_id;
END;

CREATE TRIGGER client_month_payment_update AFTER UPDATE OF status, amount, received_on, client_id ON payment
    WHEN OLD.status = 'recorded' OR NEW.status = 'recorded'
BEGIN
    INSERT INTO client_month (month, client_id, collected)
        SELECT substr(OLD.received_on, 1, 7), OLD.client_id, -OLD.amount WHERE OLD.status = 'recorded'
        ON CONFLICT (month, client_id) DO UPDATE SET collected = collected + excluded.collected;
    INSERT INTO client_month (month, client_id, collected)
        SELECT substr(NEW.received_on, 1, 7), NEW.client_id, NEW.amount WHERE NEW.status = 'recorded'
        ON CONFLICT (month, client_id) DO UPDATE SET collected = collected + excluded.collected;
END;

-- Settlements: each allocation by the month of the later of its payment and its invoice.
CREATE TRIGGER client_month_allocation_insert AFTER INSERT ON payment_allocation BEGIN
    INSERT INTO client_month (month, client_id, settled)
        SELECT substr(MAX(p.received_on, d.doc_date), 1, 7), d.client_id, NEW.amount + NEW.tds
          FROM payment p, document d WHERE p.id = NEW.payment_id AND d.id = NEW.document_id
        ON CONFLICT (month, client_id) DO UPDATE SET settled = settled + excluded.settled;
END;
CREATE TRIGGER client_month_allocation_delete AFTER DELETE ON payment_allocation BEGIN
    INSERT INTO client_month (month, client_id, settled)
        SELECT substr(MAX(p.received_on, d.doc_date), 1, 7), d.client_id, -(OLD.amount + OLD.tds)
          FROM payment p, document d WHERE p.id = OLD.payment_id AND d.id = OLD.document_id
        ON CONFLICT (month, client_id) DO UPDATE SET settled = settled + excluded.settled;
END;
CREATE TRIGGER client_month_allocation_update AFTER UPDATE OF amount, tds, payment_id, document_id ON payment_allocation
BEGIN
    INSERT INTO client_month (month, client_id, settled)
        SELECT substr(MAX(p.received_on, d.doc_date), 1, 7), d.client_id, -(OLD.amount + OLD.tds)
          FROM payment p, document d WHERE p.id = OLD.payment_id AND d.id = OLD.document_id
        ON CONFLICT (month, client_id) DO UPDATE SET settled = settled + excluded.settled;
    INSERT INTO client_month (month, client_id, settled)
        SELECT substr(MAX(p.received_on, d.doc_date), 1, 7), d.client_id, NEW.amount + NEW.tds
          FROM payment p, document d WHERE p.id = NEW.payment_id AND d.id = NEW.document_id
        ON CONFLICT (month, client_id) DO UPDATE SET settled = settled + excluded.settled;
END;
-- A payment's day corrected: its allocations settle in the new month.
CREATE TRIGGER client_month_payment_moved AFTER UPDATE OF received_on ON payment
    WHEN OLD.received_on IS NOT NEW.received_on
BEGIN
    INSERT INTO client_month (month, client_id, settled)
        SELECT substr(MAX(OLD.received_on, d.doc_date), 1, 7), d.client_id, -(a.amount + a.tds)
          FROM payment_allocation a JOIN document d ON d.id = a.document_id WHERE a.payment_id = NEW.id
        ON CONFLICT (month, client_id) DO UPDATE SET settled = settled + excluded.settled;
    INSERT INTO client_month (month, client_id, settled)
        SELECT substr(MAX(NEW.received_on, d.doc_date), 1, 7), d.client_id, a.amount + a.tds
          FROM payment_allocation a JOIN document d ON d.id = a.document_id WHERE a.payment_id = NEW.id
        ON CONFLICT (month, client_id) DO UPDATE SET settled = settled + excluded.settled;
END;

-- The global search's tickets: newest first, the subject read from the index rather than the
-- table (which does not fit the readers' cache). A common word stops after six hits (0.07 ms
-- for "printer" on the large office, 8.4 ms walking the table); text no subject holds reads the
-- whole index once (4.3 ms against 6.0).
CREATE INDEX ticket_recent_subject ON ticket(opened_on, id, subject, status, client_id, assignee_id);
