-- The summaries of issue 39, part two: the client profitability and the cloud-cost ranking sum
-- a range of months per client. A financial year of client_month (V17) is 60,000 rows of the
-- large office and its cloud costs as many; each is summed here per client and financial year,
-- so a year (or a year to date: the months after today are empty) reads one row per client,
-- and the months of a range that do not make a year (revenue::rules::Months::by_year) are read
-- from client_month and cloud_cost as before. Kept by triggers on those two tables (so every
-- path that writes them keeps it too) in the transaction of the change.
--   fy           the financial year by the calendar year of its April (2025 is 2025-26);
--   taxable, collected   client_month's, summed over the year's months;
--   cost         cloud_cost's amounts of the year's months; cost_months how many rows (months
--                with a cost entry, zero amounts included).
CREATE TABLE client_year (
    fy          INTEGER NOT NULL,
    client_id   TEXT NOT NULL,
    taxable     INTEGER NOT NULL DEFAULT 0,
    collected   INTEGER NOT NULL DEFAULT 0,
    cost        INTEGER NOT NULL DEFAULT 0,
    cost_months INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (fy, client_id)
) WITHOUT ROWID;

INSERT INTO client_year (fy, client_id, taxable, collected, cost, cost_months)
    SELECT fy, client_id, SUM(taxable), SUM(collected), SUM(cost), SUM(cost_months) FROM (
        SELECT CAST(substr(month, 1, 4) AS INTEGER) - (substr(month, 6, 2) < '04') AS fy, client_id,
               taxable, collected, 0 AS cost, 0 AS cost_months
          FROM client_month
        UNION ALL
        SELECT CAST(substr(month, 1, 4) AS INTEGER) - (substr(month, 6, 2) < '04'), client_id, 0, 0, amount, 1
          FROM cloud_cost)
     GROUP BY fy, client_id;

-- client_month's rows are written by upserts: a new row fires the insert trigger, a changed
-- one the update trigger (only when taxable or collected moved: what settles an invoice, the
-- most frequent write after issuing, changes neither). Its month and client never change.
CREATE TRIGGER client_year_month_insert AFTER INSERT ON client_month
    WHEN NEW.taxable <> 0 OR NEW.collected <> 0
BEGIN
    INSERT INTO client_year (fy, client_id, taxable, collected)
        VALUES (CAST(substr(NEW.month, 1, 4) AS INTEGER) - (substr(NEW.month, 6, 2) < '04'), NEW.client_id,
                NEW.taxable, NEW.collected)
        ON CONFLICT (fy, client_id) DO UPDATE SET taxable = taxable + excluded.taxable,
           collected = collected + excluded.collected;
END;
CREATE TRIGGER client_year_month_update AFTER UPDATE OF taxable, collected ON client_month
    WHEN OLD.taxable IS NOT NEW.taxable OR OLD.collected IS NOT NEW.collected
BEGIN
    INSERT INTO client_year (fy, client_id, taxable, collected)
        VALUES (CAST(substr(NEW.month, 1, 4) AS INTEGER) - (substr(NEW.month, 6, 2) < '04'), NEW.client_id,
                NEW.taxable - OLD.taxable, NEW.collected - OLD.collected)
        ON CONFLICT (fy, client_id) DO UPDATE SET taxable = taxable + excluded.taxable,
           collected = collected + excluded.collected;
END;
CREATE TRIGGER client_year_month_delete AFTER DELETE ON client_month
    WHEN OLD.taxable <> 0 OR OLD.collected <> 0
BEGIN
    UPDATE client_year SET taxable = taxable - OLD.taxable, collected = collected - OLD.collected
     WHERE fy = CAST(substr(OLD.month, 1, 4) AS INTEGER) - (substr(OLD.month, 6, 2) < '04')
       AND client_id = OLD.client_id;
END;

-- A cost entered or pulled (an upsert: a second entry for a month updates the first).
CREATE TRIGGER client_year_cost_insert AFTER INSERT ON cloud_cost BEGIN
    INSERT INTO client_year (fy, client_id, cost, cost_months)
        VALUES (CAST(substr(NEW.month, 1, 4) AS INTEGER) - (substr(NEW.month, 6, 2) < '04'), NEW.client_id,
                NEW.amount, 1)
        ON CONFLICT (fy, client_id) DO UPDATE SET cost = cost + excluded.cost,
           cost_months = cost_months + excluded.cost_months;
END;
CREATE TRIGGER client_year_cost_update AFTER UPDATE OF client_id, month, amount ON cloud_cost BEGIN
    UPDATE client_year SET cost = cost - OLD.amount, cost_months = cost_months - 1
     WHERE fy = CAST(substr(OLD.month, 1, 4) AS INTEGER) - (substr(OLD.month, 6, 2) < '04')
       AND client_id = OLD.client_id;
    INSERT INTO client_year (fy, client_id, cost, cost_months)
        VALUES (CAST(substr(NEW.month, 1, 4) AS INTEGER) - (substr(NEW.month, 6, 2) < '04'), NEW.client_id,
                NEW.amount, 1)
        ON CONFLICT (fy, client_id) DO UPDATE SET cost = cost + excluded.cost,
           cost_months = cost_months + excluded.cost_months;
END;
CREATE TRIGGER client_year_cost_delete AFTER DELETE ON cloud_cost BEGIN
    UPDATE client_year SET cost = cost - OLD.amount, cost_months = cost_months - 1
     WHERE fy = CAST(substr(OLD.month, 1, 4) AS INTEGER) - (substr(OLD.month, 6, 2) < '04')
       AND client_id = OLD.client_id;
END;
