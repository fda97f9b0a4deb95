-- 0014: one durable job mechanism (issue 29).  The outbox's posts and DMs and the timers'
-- reminders, notes, wake-ups and clocks become rows of one table with one life: due, claimed
-- with a lease (claimed_by / lease_until: a dead claimer's job is claimed again once its
-- lease has run out), run, then finished or failed (tried again with one backoff, given up
-- after too many failures in a row), claimed by one poller.
--
-- A job with a slot is a game's standing job, at most one per game and slot ('nudge',
-- 'turn_clock'), set again and again as turns pass; `due_at` NULL keeps it for reading.  A
-- job without a slot is a one-off (a turn's channel post, a turn-start DM), done once:
-- `done_at` and the message it made, or `failed`.  Outbox rows keep their ids: the nonces of
-- their messages are made of them.
CREATE TABLE jobs (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    slot        TEXT,                                  -- NULL: a one-off
    kind        TEXT    NOT NULL,                      -- what runs: turn_post, turn_dm, turn_start, reminder, ...
    version     INTEGER,                               -- one-offs: the game version they are about
    payload     TEXT    NOT NULL DEFAULT '{}',         -- JSON: what the run needs beyond the game
    created_at  REAL    NOT NULL,
    due_at      REAL,                                  -- NULL: nothing more to run
    attempt     INTEGER NOT NULL DEFAULT 0 CHECK (attempt >= 0),   -- runs of this kind so far
    failures    INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),  -- runs in a row that failed
    claimed_by  TEXT,
    lease_until REAL,
    last_run_at REAL,
    done_at     REAL,                                  -- one-offs: when it was sent
    message_id  INTEGER,                               -- one-offs: the message it made
    failed      INTEGER NOT NULL DEFAULT 0 CHECK (failed IN (0, 1)),  -- one-offs: given up
    last_error  TEXT,
    answer      TEXT,                                  -- a post: the interaction whose answer it may be
    UNIQUE (game_id, slot)
);

INSERT INTO jobs (id, game_id, slot, kind, version, payload, created_at, due_at, failures, claimed_by,
                  lease_until, done_at, message_id, failed, last_error, answer)
SELECT id, game_id, NULL, kind, version, payload, created_at,
       CASE WHEN sent_at IS NULL AND failed = 0 THEN due_at ELSE NULL END,
       attempts, claimed_by, CASE WHEN claimed_at IS NULL THEN NULL ELSE claimed_at + 30 END,
       sent_at, message_id, failed, last_error, answer
FROM outbox;

INSERT INTO jobs (game_id, slot, kind, payload, created_at, due_at, attempt, failures, claimed_by, lease_until,
                  last_run_at)
SELECT game_id, slot, kind, payload, created_at, due_at, attempt, failures, claimed_by, lease_until, last_run_at
FROM timers ORDER BY id;

DROP TABLE outbox;
DROP TABLE timers;

CREATE INDEX jobs_due ON jobs (due_at) WHERE due_at IS NOT NULL;
CREATE INDEX jobs_game ON jobs (game_id, id);

-- dialect: postgresql
-- New jobs must not reuse the ids copied above.
SELECT setval(pg_get_serial_sequence('jobs', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM jobs), false);
