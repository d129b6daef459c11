-- Foundation: staff, sessions, login events, dated settings and the audit trail.
-- Timestamps are RFC 3339 text in UTC with second precision ('2026-11-22T09:30:00Z'),
-- so text comparison orders them correctly. Ids are ULID text: ORDER BY id is creation order.

CREATE TABLE staff (
    id                   TEXT PRIMARY KEY,
    -- Unique sign-in name. Defaults to the email when none is given (spec 2.1).
    username             TEXT NOT NULL UNIQUE COLLATE NOCASE,
    -- Contact address and the legacy sign-in fallback; immutable once created.
    email                TEXT NOT NULL UNIQUE COLLATE NOCASE,
    name                 TEXT NOT NULL DEFAULT '',
    role                 TEXT NOT NULL CHECK (role IN ('owner', 'manager', 'staff')),
    phone                TEXT,
    title                TEXT,
    active               INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    -- Consecutive failed sign-ins; cleared by a success and when a lock is set.
    failed_count         INTEGER NOT NULL DEFAULT 0,
    locked_until         TEXT,
    -- Set for an invited or reset user still on the password somebody else chose.
    must_change_password INTEGER NOT NULL DEFAULT 1 CHECK (must_change_password IN (0, 1)),
    -- argon2id PHC string; never leaves the store layer.
    password_hash        TEXT NOT NULL,
    created_at           TEXT NOT NULL,
    updated_at           TEXT NOT NULL
);

CREATE TABLE session (
    id           TEXT PRIMARY KEY,
    -- SHA-256 (hex) of the cookie token: a copied data file holds no usable session.
    token_hash   TEXT NOT NULL UNIQUE,
    staff_id     TEXT NOT NULL REFERENCES staff(id),
    created_at   TEXT NOT NULL,
    -- Touched at most once a minute; idle expiry is last_seen_at + 12 hours.
    last_seen_at TEXT NOT NULL,
    -- Absolute expiry: created_at + 7 days.
    expires_at   TEXT NOT NULL,
    ip           TEXT,
    user_agent   TEXT
);
CREATE INDEX session_staff ON session(staff_id);

CREATE TABLE login_event (
    id         TEXT PRIMARY KEY,
    at         TEXT NOT NULL,
    -- NULL when the name tried belongs to nobody.
    staff_id   TEXT REFERENCES staff(id),
    username   TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('success', 'failed', 'locked')),
    ip         TEXT,
    user_agent TEXT
);
CREATE INDEX login_event_staff ON login_event(staff_id, id);
CREATE INDEX login_event_outcome ON login_event(outcome, id);

-- Dated, append-only key/value settings: the value in force on a date is the row with the
-- latest effective_from not after it (ties: the latest written).
CREATE TABLE setting (
    id             TEXT PRIMARY KEY,
    key            TEXT NOT NULL,
    value          TEXT NOT NULL CHECK (json_valid(value)),
    effective_from TEXT NOT NULL,
    set_by         TEXT REFERENCES staff(id),
    set_at         TEXT NOT NULL
);
CREATE INDEX setting_key ON setting(key, effective_from, id);

-- Written in the same transaction as the change it records. Images never hold secrets.
CREATE TABLE audit (
    id        TEXT PRIMARY KEY,
    at        TEXT NOT NULL,
    user_id   TEXT REFERENCES staff(id),
    entity    TEXT NOT NULL,
    entity_id TEXT,
    action    TEXT NOT NULL,
    before    TEXT CHECK (before IS NULL OR json_valid(before)),
    after     TEXT CHECK (after IS NULL OR json_valid(after))
);
CREATE INDEX audit_entity ON audit(entity, entity_id, id);
CREATE INDEX audit_action ON audit(action, id);
CREATE INDEX audit_user ON audit(user_id, id);
CREATE INDEX audit_at ON audit(at);
