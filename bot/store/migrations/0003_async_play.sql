-- 0003: asynchronous play: the turn clock, votes on away players, the latest table post.

-- The clock of the turn in progress (one row per game, replaced when a new turn begins).
CREATE TABLE turn_clocks (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    turn        INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    started_at  REAL    NOT NULL,
    expires_at  REAL    NOT NULL,
    vote_posted INTEGER NOT NULL DEFAULT 0 CHECK (vote_posted IN (0, 1))
);

CREATE INDEX turn_clocks_due ON turn_clocks (vote_posted, expires_at);

-- Votes of the other players on an away player's turn (skip it, or remove the player).
CREATE TABLE away_votes (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    voter_seat INTEGER NOT NULL,
    choice     TEXT    NOT NULL CHECK (choice IN ('skip', 'remove')),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, turn, voter_seat)
) WITHOUT ROWID;

-- The newest table message of each game (reminders link to it).
CREATE TABLE table_posts (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    version    INTEGER NOT NULL
);
