-- The document list sorted by total (decisions 10: the owner's "largest first"): a page is a
-- walk of this index instead of a sort of every document (page 1 on the large office: 21 ms
-- without it, docs/benchmark.md).
CREATE INDEX document_total ON document(total, id);
