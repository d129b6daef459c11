-- The email log became a page of its own (issue 33): a module's mail is listed by its module,
-- and any list by a range of days on `at`. The client and document lists have their indexes (V5).
CREATE INDEX email_log_module ON email_log(module_id, id);
CREATE INDEX email_log_at ON email_log(at);
