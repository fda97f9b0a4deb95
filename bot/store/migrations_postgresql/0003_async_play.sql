-- PostgreSQL twin of bot/store/migrations/0003_async_play.sql (same number and name; types: BIGINT for
-- Discord ids and counts, DOUBLE PRECISION for times, identity columns for row ids).
-- 0003: asynchronous play: the turn clock, votes on away players, the latest table post.

-- The clock of the turn in progress (one row per game, replaced when a new turn begins).
CREATE TABLE turn_clocks (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn        BIGINT NOT NULL,
    seat        BIGINT NOT NULL,
    started_at  DOUBLE PRECISION    NOT NULL,
    expires_at  DOUBLE PRECISION    NOT NULL,
    vote_posted BIGINT NOT NULL DEFAULT 0 CHECK (vote_posted IN (0, 1))
);

CREATE INDEX turn_clocks_due ON turn_clocks (vote_posted, expires_at);

-- Votes of the other players on an away player's turn (skip it, or remove the player).
CREATE TABLE away_votes (
    game_id    BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       BIGINT NOT NULL,
    voter_seat BIGINT NOT NULL,
    choice     TEXT    NOT NULL CHECK (choice IN ('skip', 'remove')),
    created_at DOUBLE PRECISION    NOT NULL,
    PRIMARY KEY (game_id, turn, voter_seat)
);

-- The newest table message of each game (reminders link to it).
CREATE TABLE table_posts (
    game_id    BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    message_id BIGINT NOT NULL,
    version    BIGINT NOT NULL
);
