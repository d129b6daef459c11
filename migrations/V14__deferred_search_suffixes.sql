-- An import's commit (issue 17) adds thousands of clients and tens of thousands of documents
-- in one transaction. The V7/V8 triggers insert each row's search suffixes as the row goes in,
-- so they land all over the suffix tables' keys, each statement journaling the pages it
-- touches: 5,000 clients with 50,000 legacy invoices took 12.6 s to commit on the large office,
-- 9.5 s of it those 1,023,345 suffixes. While `search_deferred` holds its row (only inside such
-- a transaction: the commit adds it, and removes it before it commits) the insert triggers
-- leave the suffixes to the commit, which inserts them in key order, one statement per table
-- (`documents::store::index_numbers`, `clients::store::index_names`): 1.8 s, the commit 4.7 s
-- (5.4 s through the server in `cargo bench`, against 11.9 s).
CREATE TABLE search_deferred (one INTEGER PRIMARY KEY CHECK (one = 1));

DROP TRIGGER document_no_search_insert;
CREATE TRIGGER document_no_search_insert AFTER INSERT ON document
    WHEN NEW.doc_no IS NOT NULL AND NOT EXISTS (SELECT 1 FROM search_deferred)
BEGIN
    INSERT INTO document_no_search (suffix, document_id)
        SELECT lower(substr(NEW.doc_no, n)), NEW.id FROM search_position WHERE n <= length(NEW.doc_no);
END;

DROP TRIGGER client_name_search_insert;
CREATE TRIGGER client_name_search_insert AFTER INSERT ON client
    WHEN NOT EXISTS (SELECT 1 FROM search_deferred)
BEGIN
    INSERT INTO client_name_search (suffix, client_id)
        SELECT lower(substr(NEW.name, n)), NEW.id FROM search_position WHERE n <= length(NEW.name);
END;
