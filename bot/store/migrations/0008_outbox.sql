-- The outbox: posts and DMs that must follow a stored move (the turn's channel post, the next
-- player's turn-start DM), written in the same transaction as the move and sent by a worker
-- (bot/outbox.py) that retries with backoff and survives restarts.  A row is claimed before
-- it is sent (claimed_by/claimed_at: a lease), so two senders never send it at once; the
-- send carries an enforced nonce, so a send repeated after a crash returns the same message.
CREATE TABLE outbox (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL,                       -- the game version the move produced
    kind       TEXT    NOT NULL CHECK (kind IN ('turn_post', 'turn_dm')),
    payload    TEXT    NOT NULL DEFAULT '{}',          -- JSON: what the sender needs beyond the game
    created_at REAL    NOT NULL,
    due_at     REAL    NOT NULL,
    attempts   INTEGER NOT NULL DEFAULT 0,
    claimed_by TEXT,
    claimed_at REAL,
    sent_at    REAL,
    message_id INTEGER,
    failed     INTEGER NOT NULL DEFAULT 0 CHECK (failed IN (0, 1)),
    last_error TEXT
);

CREATE INDEX outbox_pending ON outbox (due_at) WHERE sent_at IS NULL AND failed = 0;
CREATE INDEX outbox_game ON outbox (game_id, id);
