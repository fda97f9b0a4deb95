-- PostgreSQL twin of bot/store/migrations/0011_outbox_answer.sql (same number and name; types: BIGINT for
-- Discord ids and counts, DOUBLE PRECISION for times, identity columns for row ids).
-- 0011: a turn post that may have become an interaction's public answer names that
-- interaction ("<application id>:<token>"), kept through releases and retries: a sender that
-- could not confirm Discord's answer (a 429 on the lookup, a 500 after Discord took it, a
-- timeout, a crash) leaves the row to the outbox worker, which asks Discord for that answer
-- (@original, valid 15 minutes) before it posts the table in the channel.
ALTER TABLE outbox ADD COLUMN answer TEXT;
