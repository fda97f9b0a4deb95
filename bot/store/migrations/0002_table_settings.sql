-- 0002: the bot's own per-table settings (player limit, turn clock, reminder interval),
-- as JSON, beside the engine's options.
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
