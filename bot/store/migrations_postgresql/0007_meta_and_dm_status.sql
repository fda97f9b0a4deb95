-- PostgreSQL twin of bot/store/migrations/0007_meta_and_dm_status.sql (same number and name; types: BIGINT for
-- Discord ids and counts, DOUBLE PRECISION for times, identity columns for row ids).
-- Small facts the bot keeps about itself (e.g. the hash of the slash commands last synced,
-- so that commands are synced only when their definitions changed).
CREATE TABLE bot_meta (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);

-- Whether a person accepts DMs from the bot, across games: a closed DM costs one 403 per
-- person and period, not one per command.  checked_at: when the bot last tried.
CREATE TABLE dm_status (
    user_id    BIGINT PRIMARY KEY,
    reachable  BIGINT NOT NULL CHECK (reachable IN (0, 1)),
    checked_at DOUBLE PRECISION    NOT NULL
);
