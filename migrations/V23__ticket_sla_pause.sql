-- The SLA clock pauses while a ticket waits on the client (issue 34, decisions 12). sla_from is
-- the office day the clock counts from: opened_on, moved later by the whole days each finished
-- wait lasted. waiting_since is the office day the present wait began (NULL unless the ticket is
-- waiting_on_client). A ticket is past the SLA when its clock runs (open or in progress) and
-- sla_from is more than ticket.sla_days before today: one range on the index below, as the
-- still-open list's own index reads opened_on.
ALTER TABLE ticket ADD COLUMN sla_from TEXT;
ALTER TABLE ticket ADD COLUMN waiting_since TEXT;
UPDATE ticket SET sla_from = opened_on;
-- A ticket waiting now waits since its last move into waiting (the UTC day of that timeline
-- entry: the office day, but for a move made between midnight and 05:30), else since it opened.
-- Waits finished before this version are not counted back.
UPDATE ticket SET waiting_since = COALESCE(
        (SELECT substr(MAX(e.at), 1, 10) FROM ticket_event e
          WHERE e.ticket_id = ticket.id AND e.kind = 'status' AND e.to_status = 'waiting_on_client'),
        opened_on)
    WHERE status = 'waiting_on_client';

-- Every writer of tickets (the API, the demo, an import) gets sla_from without naming it, and a
-- backdated or corrected opened_on moves it by as many days.
CREATE TRIGGER ticket_sla_from_insert AFTER INSERT ON ticket WHEN NEW.sla_from IS NULL BEGIN
    UPDATE ticket SET sla_from = NEW.opened_on WHERE id = NEW.id;
END;
CREATE TRIGGER ticket_sla_from_opened AFTER UPDATE OF opened_on ON ticket
    WHEN OLD.opened_on IS NOT NEW.opened_on BEGIN
    UPDATE ticket SET sla_from = date(NEW.sla_from,
            printf('%+d days', CAST(julianday(NEW.opened_on) - julianday(OLD.opened_on) AS INTEGER)))
        WHERE id = NEW.id;
END;

CREATE INDEX ticket_sla_running ON ticket (sla_from, id) WHERE status IN ('open', 'in_progress');
