-- The books' guards (issue 33). Cancelling a payment unticks the checklist steps ticked with it
-- (docs/api.md), in the cancelling transaction: the steps of one payment are found by this index
-- rather than by reading every project's checklist (about 150,000 steps on the large office).
CREATE INDEX project_milestone_payment ON project_milestone (payment_id) WHERE payment_id IS NOT NULL;

-- The legacy import may bring the old system's onboarding checklist (spec 2.11's
-- project.milestone_template): JSON [{ key, label }], written as that setting by the commit.
ALTER TABLE import_batch ADD COLUMN checklist TEXT;
