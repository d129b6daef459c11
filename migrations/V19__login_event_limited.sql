-- Every sign-in attempt is recorded (spec 5.6, decisions 12), including one a rate limiter
-- refused: outcome 'limited'. A flood of refused attempts must not grow the table without bound,
-- so a refused attempt is folded into the 'limited' row its address (and identifier) already has
-- in the tripped limiter's window, counted in `attempts` (see auth/signin.rs `refuse_limited`).
-- Every other outcome is one row per attempt, attempts 1.
--
-- SQLite cannot change a CHECK, so the table is rebuilt: copied aside, dropped, made anew and
-- filled. Nothing references login_event and it has no triggers; its two indexes went with the
-- old table and are made again as V1 made them.

CREATE TEMP TABLE login_event_copy AS SELECT * FROM login_event;
DROP TABLE login_event;

CREATE TABLE login_event (
    id         TEXT PRIMARY KEY,
    -- For a 'limited' row: the first refused attempt of its window.
    at         TEXT NOT NULL,
    -- NULL when the name tried belongs to nobody.
    staff_id   TEXT REFERENCES staff(id),
    username   TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('success', 'failed', 'locked', 'limited')),
    ip         TEXT,
    user_agent TEXT,
    -- How many attempts the row stands for: more than 1 only on a 'limited' row.
    attempts   INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 1)
);

INSERT INTO login_event (id, at, staff_id, username, outcome, ip, user_agent)
    SELECT id, at, staff_id, username, outcome, ip, user_agent FROM login_event_copy;
DROP TABLE login_event_copy;

CREATE INDEX login_event_staff ON login_event(staff_id, id);
CREATE INDEX login_event_outcome ON login_event(outcome, id);
-- A refused attempt looks up its address's 'limited' row of the window: a partial index keeps
-- that lookup off the rest of the history.
CREATE INDEX login_event_limited ON login_event(ip, at) WHERE outcome = 'limited';
