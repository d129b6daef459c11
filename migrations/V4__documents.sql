-- Quotations, proforma invoices, invoices and credit notes, their lines and timeline, and the
-- gapless number series.

CREATE TABLE document (
    id             TEXT PRIMARY KEY,
    type           TEXT NOT NULL CHECK (type IN ('QUOTATION', 'PROFORMA', 'INVOICE', 'CREDIT_NOTE')),
    status         TEXT NOT NULL CHECK (status IN ('draft', 'issued', 'sent', 'accepted', 'lost', 'invoiced', 'cancelled')),
    -- Given at issue, in the issuing transaction; never reused (a cancelled document keeps it).
    doc_no         TEXT UNIQUE,
    doc_date       TEXT,
    -- INVOICE only: doc_date + billing.payment_terms_days unless given.
    due_date       TEXT,
    client_id      TEXT NOT NULL REFERENCES client(id),
    -- The document this one was converted, superseded or credited from.
    parent_id      TEXT REFERENCES document(id),
    source         TEXT NOT NULL DEFAULT 'hq',
    created_by     TEXT REFERENCES staff(id),
    notes          TEXT,
    terms          TEXT,
    round_to_rupee INTEGER NOT NULL DEFAULT 0 CHECK (round_to_rupee IN (0, 1)),
    -- Place of supply: 1 when the client is in the company's state (CGST + SGST), 0 for IGST.
    intra_state    INTEGER NOT NULL DEFAULT 1,
    -- Totals in paise, sums of the lines (round_off brings total to the rupee when asked).
    subtotal       INTEGER NOT NULL DEFAULT 0,
    cgst           INTEGER NOT NULL DEFAULT 0,
    sgst           INTEGER NOT NULL DEFAULT 0,
    igst           INTEGER NOT NULL DEFAULT 0,
    round_off      INTEGER NOT NULL DEFAULT 0,
    total          INTEGER NOT NULL DEFAULT 0,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX document_client ON document(client_id, id);
CREATE INDEX document_parent ON document(parent_id);
CREATE INDEX document_type_status ON document(type, status, id);

CREATE TABLE document_line (
    id          TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES document(id),
    position    INTEGER NOT NULL,
    module_id   TEXT REFERENCES module(id),
    description TEXT NOT NULL,
    sac         TEXT,
    qty         INTEGER NOT NULL CHECK (qty > 0),
    -- Set when the request gave the price: kept through conversion and re-pricing.
    explicit_price INTEGER,
    unit_price  INTEGER NOT NULL CHECK (unit_price >= 0),
    gst_rate    INTEGER NOT NULL,
    -- override, rate_card or price_book: where unit_price came from.
    price_source TEXT NOT NULL,
    taxable     INTEGER NOT NULL,
    cgst        INTEGER NOT NULL,
    sgst        INTEGER NOT NULL,
    igst        INTEGER NOT NULL,
    total       INTEGER NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX document_line_doc ON document_line(document_id, position);

CREATE TABLE document_event (
    id          TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES document(id),
    -- issued, sent, accepted, lost, converted, superseded, cancelled, credited
    kind        TEXT NOT NULL,
    at          TEXT NOT NULL,
    user_id     TEXT REFERENCES staff(id),
    reason      TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX document_event_doc ON document_event(document_id, id);

-- One row per prefix and financial year; incremented in the issuing transaction, so numbers are gapless.
CREATE TABLE number_series (
    prefix   TEXT NOT NULL,
    fy       TEXT NOT NULL,
    last_seq INTEGER NOT NULL,
    PRIMARY KEY (prefix, fy)
);
