-- GSTR-1's lines without reading a line's row (issue 39): a month's 2,700 lines of the large
-- office lie on pages spread over the whole line table, and reading each row was a third of
-- the lines' time. The index every document's lines are read through keeps, after the
-- document and position it is ordered by, the columns the return reads of a line. The lines
-- of one document stay together, so a document's lines still come off a page or two.
DROP INDEX document_line_doc;
CREATE INDEX document_line_doc ON document_line(document_id, position, sac, gst_rate, taxable, igst, cgst, sgst,
    description);
