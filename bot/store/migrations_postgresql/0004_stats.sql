-- PostgreSQL twin of bot/store/migrations/0004_stats.sql (same number and name; types: BIGINT for
-- Discord ids and counts, DOUBLE PRECISION for times, identity columns for row ids).
-- 0004: statistics of finished games and per-server ratings, written in the transaction that
-- finishes a game (beside its `results` rows).
-- A player key is 'user:<discord id>' for a person and 'ai:<level>' for a computer level.

-- What each seat did in a finished game, beyond its score and museum dice (in `results`).
CREATE TABLE seat_stats (
    game_id       BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          BIGINT NOT NULL,
    player_key    TEXT    NOT NULL,
    installations BIGINT NOT NULL CHECK (installations >= 0),
    best_card     BIGINT,  -- NULL: no installation completed
    best_name     TEXT,     -- kept as text: the card data may be swapped later
    best_points   BIGINT,
    PRIMARY KEY (game_id, seat),
    CHECK ((best_card IS NULL) = (best_points IS NULL))
);

CREATE INDEX seat_stats_player ON seat_stats (player_key);

-- How often each seat used each artist kind (only kinds it used).
CREATE TABLE artist_uses (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    BIGINT NOT NULL,
    artist  TEXT    NOT NULL,  -- engine.ArtistKind value
    uses    BIGINT NOT NULL CHECK (uses > 0),
    PRIMARY KEY (game_id, seat, artist)
);

-- The current rating of every player of a server.  guild_id 0: games outside a server.
CREATE TABLE ratings (
    guild_id     BIGINT NOT NULL,
    player_key   TEXT    NOT NULL,
    user_id      BIGINT,           -- NULL for a computer level
    display_name TEXT    NOT NULL,  -- the latest name seen at a finished table
    rating       DOUBLE PRECISION    NOT NULL,
    games        BIGINT NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins         BIGINT NOT NULL DEFAULT 0 CHECK (wins >= 0),
    updated_at   DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (guild_id, player_key)
);

CREATE INDEX ratings_board ON ratings (guild_id, rating DESC);

-- Each seat's rating change, one row per seat of a rated game: the history, and what makes
-- rating a game idempotent.
CREATE TABLE rating_changes (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       BIGINT NOT NULL,
    guild_id   BIGINT NOT NULL,
    player_key TEXT    NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    delta      DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
