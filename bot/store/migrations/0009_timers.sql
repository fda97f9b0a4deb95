-- 0009: one table for every timed event of a game (issue 18).  A row is a game's timer in
-- one of its slots (one timer per game and slot: 'nudge' for the turn-start DM, reminders
-- and the channel note; 'turn_clock'; ...); ``kind`` says what runs when it falls due, a
-- name from the bot's registry (bot/timers/registry.py), so a new kind of timed event needs
-- no schema change.  Pollers claim due rows with a lease (claimed_by / lease_until): a claim
-- is one atomic UPDATE ... RETURNING (on PostgreSQL: FOR UPDATE SKIP LOCKED), so several
-- processes never run one timer twice, and a claimer that died is replaced once its lease
-- runs out.  It replaces `reminders` (whose sent_count becomes the kind and its attempt)
-- and `turn_clocks` (whose columns move into the payload).
CREATE TABLE timers (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    slot        TEXT    NOT NULL,
    kind        TEXT    NOT NULL,
    due_at      REAL,                                  -- NULL: ran and kept for reading (a turn clock after its vote)
    attempt     INTEGER NOT NULL DEFAULT 0 CHECK (attempt >= 0),   -- runs of this kind so far
    failures    INTEGER NOT NULL DEFAULT 0 CHECK (failures >= 0),  -- runs in a row that raised
    payload     TEXT    NOT NULL DEFAULT '{}',         -- JSON: what the kind needs (the turn it is about...)
    created_at  REAL    NOT NULL,
    last_run_at REAL,
    claimed_by  TEXT,
    lease_until REAL,
    UNIQUE (game_id, slot)
);

CREATE INDEX timers_due ON timers (due_at) WHERE due_at IS NOT NULL;

-- A pending reminder: sent_count 0 = the turn-start DM is next; 1..3 = reminder n is next
-- (n - 1 sent); 4 = the channel note is next (sent_count > 4 never stays stored).
-- JSON is built with each database's own function.
-- dialect: sqlite
INSERT INTO timers (game_id, slot, kind, due_at, attempt, payload, created_at, last_run_at)
SELECT r.game_id, 'nudge',
       CASE WHEN r.sent_count = 0 THEN 'turn_start' WHEN r.sent_count <= 3 THEN 'reminder' ELSE 'channel_note' END,
       r.due_at,
       CASE WHEN r.sent_count BETWEEN 1 AND 3 THEN r.sent_count - 1 ELSE 0 END,
       json_object('turn', g.turn),
       coalesce(r.last_sent_at, r.due_at), r.last_sent_at
FROM reminders r JOIN games g ON g.id = r.game_id;

INSERT INTO timers (game_id, slot, kind, due_at, attempt, payload, created_at, last_run_at)
SELECT game_id, 'turn_clock', 'turn_clock',
       CASE WHEN vote_posted = 1 THEN NULL ELSE expires_at END,
       vote_posted,
       json_object('turn', turn, 'seat', seat, 'started_at', started_at, 'expires_at', expires_at),
       started_at, NULL
FROM turn_clocks;

-- dialect: postgresql
INSERT INTO timers (game_id, slot, kind, due_at, attempt, payload, created_at, last_run_at)
SELECT r.game_id, 'nudge',
       CASE WHEN r.sent_count = 0 THEN 'turn_start' WHEN r.sent_count <= 3 THEN 'reminder' ELSE 'channel_note' END,
       r.due_at,
       CASE WHEN r.sent_count BETWEEN 1 AND 3 THEN r.sent_count - 1 ELSE 0 END,
       json_build_object('turn', g.turn)::text,
       coalesce(r.last_sent_at, r.due_at), r.last_sent_at
FROM reminders r JOIN games g ON g.id = r.game_id;

INSERT INTO timers (game_id, slot, kind, due_at, attempt, payload, created_at, last_run_at)
SELECT game_id, 'turn_clock', 'turn_clock',
       CASE WHEN vote_posted = 1 THEN NULL ELSE expires_at END,
       vote_posted,
       json_build_object('turn', turn, 'seat', seat, 'started_at', started_at, 'expires_at', expires_at)::text,
       started_at, NULL
FROM turn_clocks;

-- dialect: both
DROP TABLE reminders;
DROP TABLE turn_clocks;
