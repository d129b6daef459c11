-- SMS credit balances pulled from the gateway (spec 4.9, issue 18).

-- When the balance was last asked for, and what went wrong at that poll: the gateway's ERROR
-- text, a malformed reply or no answer. NULL when the poll read a balance. The balance itself
-- (sms_balance) is only ever written from a reply that carried one: a flag never guesses.
ALTER TABLE client_module ADD COLUMN sms_checked_at TEXT;
ALTER TABLE client_module ADD COLUMN sms_flag TEXT;

-- One row per poll, unaudited telemetry (spec 2.10): ok, error (the gateway's ERROR line),
-- malformed (not code|STATUS|payload, or too large) or unreachable (no answer, the timeout, the
-- address refused).
CREATE TABLE sms_balance_check (
    id               TEXT PRIMARY KEY,
    client_module_id TEXT NOT NULL REFERENCES client_module(id),
    at               TEXT NOT NULL,
    outcome          TEXT NOT NULL CHECK (outcome IN ('ok', 'error', 'malformed', 'unreachable')),
    balance          INTEGER,
    error            TEXT,
    latency_ms       INTEGER NOT NULL
);
CREATE INDEX sms_balance_check_subscription ON sms_balance_check(client_module_id, at);

-- The balances report reads one module's active subscriptions lowest balance first.
CREATE INDEX client_module_balance ON client_module(module_id, sms_balance) WHERE active = 1;
