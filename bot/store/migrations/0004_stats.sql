-- 0004: statistics of finished games and per-server ratings, written in the transaction that
-- finishes a game (beside its `results` rows).
-- A player key is 'user:<discord id>' for a person and 'ai:<level>' for a computer level.

-- What each seat did in a finished game, beyond its score and museum dice (in `results`).
CREATE TABLE seat_stats (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    player_key    TEXT    NOT NULL,
    installations INTEGER NOT NULL CHECK (installations >= 0),
    best_card     INTEGER,  -- NULL: no installation completed
    best_name     TEXT,     -- kept as text: the card data may be swapped later
    best_points   INTEGER,
    PRIMARY KEY (game_id, seat),
    CHECK ((best_card IS NULL) = (best_points IS NULL))
) WITHOUT ROWID;

CREATE INDEX seat_stats_player ON seat_stats (player_key);

-- How often each seat used each artist kind (only kinds it used).
CREATE TABLE artist_uses (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL,
    artist  TEXT    NOT NULL,  -- engine.ArtistKind value
    uses    INTEGER NOT NULL CHECK (uses > 0),
    PRIMARY KEY (game_id, seat, artist)
) WITHOUT ROWID;

-- The current rating of every player of a server.  guild_id 0: games outside a server.
CREATE TABLE ratings (
    guild_id     INTEGER NOT NULL,
    player_key   TEXT    NOT NULL,
    user_id      INTEGER,           -- NULL for a computer level
    display_name TEXT    NOT NULL,  -- the latest name seen at a finished table
    rating       REAL    NOT NULL,
    games        INTEGER NOT NULL DEFAULT 0 CHECK (games >= 0),
    wins         INTEGER NOT NULL DEFAULT 0 CHECK (wins >= 0),
    updated_at   REAL    NOT NULL,
    PRIMARY KEY (guild_id, player_key)
) WITHOUT ROWID;

CREATE INDEX ratings_board ON ratings (guild_id, rating DESC);

-- Each seat's rating change, one row per seat of a rated game: the history, and what makes
-- rating a game idempotent.
CREATE TABLE rating_changes (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    guild_id   INTEGER NOT NULL,
    player_key TEXT    NOT NULL,
    rating_before REAL NOT NULL,
    delta      REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
