-- Documents going out: public share links, the log of every email attempted, and the letterhead logo.

-- A public link to one document. The token is the only secret: 256 random bits from the OS as
-- 64 hex characters. It is never written to the audit (rows name the share id) or the logs.
CREATE TABLE document_share (
    id          TEXT PRIMARY KEY,
    document_id TEXT NOT NULL REFERENCES document(id),
    token       TEXT NOT NULL UNIQUE CHECK (length(token) = 64),
    expires_at  TEXT NOT NULL,
    revoked     INTEGER NOT NULL DEFAULT 0 CHECK (revoked IN (0, 1)),
    revoked_at  TEXT,
    created_by  TEXT REFERENCES staff(id),
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX document_share_doc ON document_share(document_id, id);

-- One row per attempted send, whatever its outcome: a failed send is recorded, never lost.
CREATE TABLE email_log (
    id          TEXT PRIMARY KEY,
    -- document, module_notify, test ...: what the email was about.
    purpose     TEXT NOT NULL,
    document_id TEXT REFERENCES document(id),
    client_id   TEXT REFERENCES client(id),
    module_id   TEXT REFERENCES module(id),
    to_address  TEXT NOT NULL,
    cc          TEXT,
    subject     TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('sent', 'failed')),
    provider_message_id TEXT,
    error       TEXT,
    sent_by     TEXT REFERENCES staff(id),
    at          TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX email_log_document ON email_log(document_id, id);
CREATE INDEX email_log_client ON email_log(client_id, id);

-- The letterhead logo: the newest row is in force. Kept as bytes (PNG or JPEG, checked by content).
CREATE TABLE template_logo (
    id          TEXT PRIMARY KEY,
    mime        TEXT NOT NULL CHECK (mime IN ('image/png', 'image/jpeg')),
    bytes       BLOB NOT NULL,
    sha256      TEXT NOT NULL,
    uploaded_by TEXT REFERENCES staff(id),
    created_at  TEXT NOT NULL
);
