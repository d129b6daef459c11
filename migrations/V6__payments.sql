-- Payments from societies, their allocation to invoices (money and TDS), and receipts.

CREATE TABLE payment (
    id          TEXT PRIMARY KEY,
    client_id   TEXT NOT NULL REFERENCES client(id),
    received_on TEXT NOT NULL,
    -- The money received, in paise. TDS is not in it: the society pays that to the government.
    amount      INTEGER NOT NULL CHECK (amount > 0),
    mode        TEXT NOT NULL CHECK (mode IN ('cash', 'cheque', 'neft_rtgs', 'upi', 'other')),
    -- Cheque number or UTR.
    reference   TEXT,
    notes       TEXT,
    -- RCT/<yy>-<yy>-<seq> by the financial year of received_on; given in the recording
    -- transaction from number_series, so gapless.
    receipt_no  TEXT NOT NULL UNIQUE,
    created_by  TEXT REFERENCES staff(id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX payment_client ON payment(client_id, id);
CREATE INDEX payment_received ON payment(received_on, id);
CREATE INDEX payment_created_by ON payment(created_by, id);

-- What a payment settled: `amount` of its money and `tds` deducted by the society, against one
-- issued invoice of the same client. What is not allocated is an advance held for the client.
CREATE TABLE payment_allocation (
    id          TEXT PRIMARY KEY,
    payment_id  TEXT NOT NULL REFERENCES payment(id),
    document_id TEXT NOT NULL REFERENCES document(id),
    amount      INTEGER NOT NULL CHECK (amount >= 0),
    tds         INTEGER NOT NULL CHECK (tds >= 0),
    created_by  TEXT REFERENCES staff(id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    CHECK (amount + tds > 0)
);
CREATE INDEX payment_allocation_payment ON payment_allocation(payment_id, id);
CREATE INDEX payment_allocation_document ON payment_allocation(document_id);

-- Reports read invoices by date.
CREATE INDEX document_date ON document(type, doc_date);
