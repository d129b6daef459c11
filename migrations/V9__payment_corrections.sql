-- Correcting payments (decisions 10): a payment recorded in error is cancelled, never deleted.
-- Its receipt keeps its number; its allocations are removed in the cancelling transaction (the
-- settlement triggers give the invoices their outstanding back) and the audit row keeps them
-- with the reason. An advance given back is a refund row; what a payment still holds is its
-- amount less its allocations and refunds.

ALTER TABLE payment ADD COLUMN status TEXT NOT NULL DEFAULT 'recorded' CHECK (status IN ('recorded', 'cancelled'));
ALTER TABLE payment ADD COLUMN cancel_reason TEXT;
ALTER TABLE payment ADD COLUMN cancelled_on TEXT;
ALTER TABLE payment ADD COLUMN cancelled_by TEXT REFERENCES staff(id);

CREATE TABLE payment_refund (
    id          TEXT PRIMARY KEY,
    payment_id  TEXT NOT NULL REFERENCES payment(id),
    amount      INTEGER NOT NULL CHECK (amount > 0),
    refunded_on TEXT NOT NULL,
    reason      TEXT NOT NULL,
    created_by  TEXT REFERENCES staff(id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX payment_refund_payment ON payment_refund(payment_id, id);
