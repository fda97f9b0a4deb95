-- PostgreSQL twin of bot/store/migrations/0002_table_settings.sql (same number and name; types: BIGINT for
-- Discord ids and counts, DOUBLE PRECISION for times, identity columns for row ids).
-- 0002: the bot's own per-table settings (player limit, turn clock, reminder interval),
-- as JSON, beside the engine's options.
ALTER TABLE games ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
