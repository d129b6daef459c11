-- GSTR-1's month at the speed of a list (issue 39): the issued invoices and credit notes of a
-- period in (doc_date, doc_no) order, with every column the return reads of them, so its lines
-- and its numbers read no document row (a month of the large office is some 700 of them, each
-- on its own page) and its lines come in the return's order, leaving only each document's own
-- lines to order. Cancelled ones are in it: the numbers' table lists them. The queries repeat
-- the WHERE word for word, as SQLite asks before it uses a partial index.
CREATE INDEX document_gstr1 ON document (doc_date, doc_no, type, status, source, total, intra_state,
    client_id, parent_id, id)
    WHERE type IN ('INVOICE', 'CREDIT_NOTE') AND status <> 'draft';
