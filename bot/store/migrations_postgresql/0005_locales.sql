-- PostgreSQL twin of bot/store/migrations/0005_locales.sql (same number and name; types: BIGINT for
-- Discord ids and counts, DOUBLE PRECISION for times, identity columns for row ids).
-- 0005: languages: each user's last seen Discord locale (for DMs) and each server's
-- chosen language for channel posts (/cubist language).

CREATE TABLE user_locales (
    user_id    BIGINT PRIMARY KEY,
    locale     TEXT    NOT NULL,  -- as Discord sends it: 'fr', 'en-US', 'pt-BR'...
    updated_at DOUBLE PRECISION    NOT NULL
);

-- One row per server that changed a setting; no row: the defaults.  The language is
-- checked in code (a new catalogue must not need a migration).
CREATE TABLE guild_settings (
    guild_id   BIGINT PRIMARY KEY,
    language   TEXT,              -- NULL: follow the server's own locale
    updated_at DOUBLE PRECISION    NOT NULL
);
