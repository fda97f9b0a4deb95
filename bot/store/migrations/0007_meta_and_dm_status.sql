-- Small facts the bot keeps about itself (e.g. the hash of the slash commands last synced,
-- so that commands are synced only when their definitions changed).
CREATE TABLE bot_meta (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at REAL NOT NULL
) WITHOUT ROWID;

-- Whether a person accepts DMs from the bot, across games: a closed DM costs one 403 per
-- person and period, not one per command.  checked_at: when the bot last tried.
CREATE TABLE dm_status (
    user_id    INTEGER PRIMARY KEY,
    reachable  INTEGER NOT NULL CHECK (reachable IN (0, 1)),
    checked_at REAL    NOT NULL
);
