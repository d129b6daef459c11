-- Searches at the speed of a list (issue 39): the ticket list searched for a word, and the
-- global search's tickets, receipt numbers and phones, find their rows through an index of
-- the text instead of reading every ticket, receipt number or phone. Kept by triggers in the
-- transaction of the change, as the suffix tables of V7, and filled here from the rows;
-- tests/api/large_office.rs (check_search) holds each to what it is derived from.

-- The tickets' subjects and descriptions, for "contains q" (LIKE '%q%': ASCII letters fold,
-- everything else literal). An FTS5 trigram index of the text lower-cased as LIKE folds it
-- (SQLite's lower() folds ASCII only, and the tokenizer is told not to fold anything itself):
-- a phrase query of q's trigrams finds exactly the rows whose subject or description holds
-- lower(q), so the rows found need no second look at the ticket. Text under three characters
-- has no trigram and is still matched by LIKE. Contentless (the text is the ticket's) and
-- keyed by the ticket's rowid, which VACUUM and VACUUM INTO keep (the ticket table has
-- indexes; tests/api/large_office.rs checks that a backup with a gap in the rowids answers the
-- same). A migration that rebuilds the ticket table must refill ticket_text.
CREATE VIRTUAL TABLE ticket_text USING fts5(
    subject, description,
    tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1
);
INSERT INTO ticket_text (rowid, subject, description)
    SELECT rowid, lower(subject), lower(description) FROM ticket;
CREATE TRIGGER ticket_text_insert AFTER INSERT ON ticket BEGIN
    INSERT INTO ticket_text (rowid, subject, description)
        VALUES (NEW.rowid, lower(NEW.subject), lower(NEW.description));
END;
CREATE TRIGGER ticket_text_update AFTER UPDATE OF subject, description ON ticket
    WHEN OLD.subject IS NOT NEW.subject OR OLD.description IS NOT NEW.description
BEGIN
    DELETE FROM ticket_text WHERE rowid = OLD.rowid;
    INSERT INTO ticket_text (rowid, subject, description)
        VALUES (NEW.rowid, lower(NEW.subject), lower(NEW.description));
END;
CREATE TRIGGER ticket_text_delete AFTER DELETE ON ticket BEGIN
    DELETE FROM ticket_text WHERE rowid = OLD.rowid;
END;

-- Receipt numbers, for a part of one (`27-0004`): the suffixes of the lower-cased number, as
-- document_no_search holds documents' (V7), so "contains q" is one key range. Walking the
-- unique index on receipt_no from the highest number down until the sixth hit read every
-- receipt of the office for a part that few numbers hold.
CREATE TABLE payment_no_search (
    suffix     TEXT NOT NULL,
    payment_id TEXT NOT NULL,
    PRIMARY KEY (suffix, payment_id)
) WITHOUT ROWID;
INSERT INTO payment_no_search (suffix, payment_id)
    SELECT lower(substr(p.receipt_no, s.n)), p.id FROM payment p JOIN search_position s ON s.n <= length(p.receipt_no)
     ORDER BY 1, 2;
CREATE TRIGGER payment_no_search_insert AFTER INSERT ON payment BEGIN
    INSERT INTO payment_no_search (suffix, payment_id)
        SELECT lower(substr(NEW.receipt_no, n)), NEW.id FROM search_position WHERE n <= length(NEW.receipt_no);
END;
CREATE TRIGGER payment_no_search_update AFTER UPDATE OF id, receipt_no ON payment
    WHEN OLD.id IS NOT NEW.id OR OLD.receipt_no IS NOT NEW.receipt_no
BEGIN
    DELETE FROM payment_no_search WHERE payment_id = OLD.id AND suffix IN
        (SELECT lower(substr(OLD.receipt_no, n)) FROM search_position WHERE n <= length(OLD.receipt_no));
    INSERT INTO payment_no_search (suffix, payment_id)
        SELECT lower(substr(NEW.receipt_no, n)), NEW.id FROM search_position WHERE n <= length(NEW.receipt_no);
END;
CREATE TRIGGER payment_no_search_delete AFTER DELETE ON payment BEGIN
    DELETE FROM payment_no_search WHERE payment_id = OLD.id AND suffix IN
        (SELECT lower(substr(OLD.receipt_no, n)) FROM search_position WHERE n <= length(OLD.receipt_no));
END;

-- Phones, for text that is a phone number (search::rules::phone_query): every suffix of six
-- digits and more of the phone's ASCII digits in order, the client's own phone (contact_id '')
-- and each contact's. The digits kept are all of them, before `phone_digits` sets aside a
-- country code or a trunk 0, so its digits are always among these: the phones that may hold
-- the typed digits are one key range, and the rule decides on those few (instead of a LIKE
-- over every client and contact). Six, as a phone search needs at least six digits.
CREATE TABLE phone_search (
    suffix     TEXT NOT NULL,
    client_id  TEXT NOT NULL,
    contact_id TEXT NOT NULL,
    PRIMARY KEY (suffix, client_id, contact_id)
) WITHOUT ROWID;
INSERT INTO phone_search (suffix, client_id, contact_id)
    SELECT substr(f.digits, s.n), f.client_id, f.contact_id FROM (
        SELECT c.id AS client_id, '' AS contact_id,
               (SELECT group_concat(substr(c.phone, n, 1), '') FROM search_position
                 WHERE n <= length(c.phone) AND substr(c.phone, n, 1) GLOB '[0-9]') AS digits
          FROM client c WHERE c.phone IS NOT NULL
        UNION ALL
        SELECT k.client_id, k.id,
               (SELECT group_concat(substr(k.phone, n, 1), '') FROM search_position
                 WHERE n <= length(k.phone) AND substr(k.phone, n, 1) GLOB '[0-9]')
          FROM contact k WHERE k.phone IS NOT NULL) f
      JOIN search_position s ON s.n <= length(f.digits) - 5
     ORDER BY 1, 2, 3;
CREATE TRIGGER phone_search_client_insert AFTER INSERT ON client WHEN NEW.phone IS NOT NULL BEGIN
    INSERT INTO phone_search (suffix, client_id, contact_id)
        SELECT substr(d.digits, s.n), NEW.id, '' FROM (
            SELECT group_concat(substr(NEW.phone, n, 1), '') AS digits FROM search_position
             WHERE n <= length(NEW.phone) AND substr(NEW.phone, n, 1) GLOB '[0-9]') d
          JOIN search_position s ON s.n <= length(d.digits) - 5;
END;
CREATE TRIGGER phone_search_client_update AFTER UPDATE OF id, phone ON client
    WHEN OLD.id IS NOT NEW.id OR OLD.phone IS NOT NEW.phone
BEGIN
    DELETE FROM phone_search WHERE client_id = OLD.id AND contact_id = '' AND suffix IN (
        SELECT substr(d.digits, s.n) FROM (
            SELECT group_concat(substr(OLD.phone, n, 1), '') AS digits FROM search_position
             WHERE n <= length(OLD.phone) AND substr(OLD.phone, n, 1) GLOB '[0-9]') d
          JOIN search_position s ON s.n <= length(d.digits) - 5);
    INSERT INTO phone_search (suffix, client_id, contact_id)
        SELECT substr(d.digits, s.n), NEW.id, '' FROM (
            SELECT group_concat(substr(NEW.phone, n, 1), '') AS digits FROM search_position
             WHERE n <= length(NEW.phone) AND substr(NEW.phone, n, 1) GLOB '[0-9]') d
          JOIN search_position s ON s.n <= length(d.digits) - 5;
END;
CREATE TRIGGER phone_search_client_delete AFTER DELETE ON client WHEN OLD.phone IS NOT NULL BEGIN
    DELETE FROM phone_search WHERE client_id = OLD.id AND contact_id = '' AND suffix IN (
        SELECT substr(d.digits, s.n) FROM (
            SELECT group_concat(substr(OLD.phone, n, 1), '') AS digits FROM search_position
             WHERE n <= length(OLD.phone) AND substr(OLD.phone, n, 1) GLOB '[0-9]') d
          JOIN search_position s ON s.n <= length(d.digits) - 5);
END;
CREATE TRIGGER phone_search_contact_insert AFTER INSERT ON contact WHEN NEW.phone IS NOT NULL BEGIN
    INSERT INTO phone_search (suffix, client_id, contact_id)
        SELECT substr(d.digits, s.n), NEW.client_id, NEW.id FROM (
            SELECT group_concat(substr(NEW.phone, n, 1), '') AS digits FROM search_position
             WHERE n <= length(NEW.phone) AND substr(NEW.phone, n, 1) GLOB '[0-9]') d
          JOIN search_position s ON s.n <= length(d.digits) - 5;
END;
CREATE TRIGGER phone_search_contact_update AFTER UPDATE OF id, client_id, phone ON contact
    WHEN OLD.id IS NOT NEW.id OR OLD.client_id IS NOT NEW.client_id OR OLD.phone IS NOT NEW.phone
BEGIN
    DELETE FROM phone_search WHERE client_id = OLD.client_id AND contact_id = OLD.id AND suffix IN (
        SELECT substr(d.digits, s.n) FROM (
            SELECT group_concat(substr(OLD.phone, n, 1), '') AS digits FROM search_position
             WHERE n <= length(OLD.phone) AND substr(OLD.phone, n, 1) GLOB '[0-9]') d
          JOIN search_position s ON s.n <= length(d.digits) - 5);
    INSERT INTO phone_search (suffix, client_id, contact_id)
        SELECT substr(d.digits, s.n), NEW.client_id, NEW.id FROM (
            SELECT group_concat(substr(NEW.phone, n, 1), '') AS digits FROM search_position
             WHERE n <= length(NEW.phone) AND substr(NEW.phone, n, 1) GLOB '[0-9]') d
          JOIN search_position s ON s.n <= length(d.digits) - 5;
END;
CREATE TRIGGER phone_search_contact_delete AFTER DELETE ON contact WHEN OLD.phone IS NOT NULL BEGIN
    DELETE FROM phone_search WHERE client_id = OLD.client_id AND contact_id = OLD.id AND suffix IN (
        SELECT substr(d.digits, s.n) FROM (
            SELECT group_concat(substr(OLD.phone, n, 1), '') AS digits FROM search_position
             WHERE n <= length(OLD.phone) AND substr(OLD.phone, n, 1) GLOB '[0-9]') d
          JOIN search_position s ON s.n <= length(d.digits) - 5);
END;
