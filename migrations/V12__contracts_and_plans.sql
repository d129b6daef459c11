-- Service contracts and recurring plans (issue 16, second part): what the generation of a
-- plan's invoices needs beyond the columns V11 gave the plan.

-- The invoice the last generation issued from the plan, so the plans page links to it.
ALTER TABLE recurring_plan ADD COLUMN last_invoice_id TEXT REFERENCES document(id);

-- The day of the month the plan runs on (1 to 31), taken from next_run whenever next_run is set
-- by hand. A run moves next_run by whole months and then back to this day, or to the month's
-- last day when the month is shorter: a plan of the 31st runs on 28 February and again on
-- 31 March, instead of drifting to the 28th for good as adding a month to the last date would.
-- NULL (a row written without it): next_run's own day.
ALTER TABLE recurring_plan ADD COLUMN run_day INTEGER CHECK (run_day IS NULL OR run_day BETWEEN 1 AND 31);

-- The plans list by client (its filter) in id order.
CREATE INDEX recurring_plan_client ON recurring_plan(client_id, id);
