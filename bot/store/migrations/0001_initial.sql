-- 0001: the initial schema.
-- Times are Unix seconds (REAL, UTC); ids are Discord snowflakes (INTEGER).

CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER,
    channel_id   INTEGER NOT NULL,
    creator_id   INTEGER NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}',
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL,
    started_at   REAL,
    finished_at  REAL,
    seed         INTEGER,
    players      INTEGER CHECK (players IS NULL OR players BETWEEN 2 AND 4),
    -- Number of moves applied: the optimistic-concurrency token (snapshots.version matches).
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    current_seat INTEGER,  -- copied from the engine state so "whose turn" is a plain query
    turn         INTEGER,
    CHECK (status NOT IN ('active', 'finished') OR (seed IS NOT NULL AND players IS NOT NULL)),
    CHECK (status <> 'finished' OR finished_at IS NOT NULL)
);

-- One open game (lobby or in play) per channel; finished and cancelled games are history.
CREATE UNIQUE INDEX games_open_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_status ON games (status, id);
CREATE INDEX games_guild ON games (guild_id, finished_at);

CREATE TABLE seats (
    game_id           INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat              INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    user_id           INTEGER,  -- NULL for a computer player
    display_name      TEXT    NOT NULL,
    colour            TEXT,
    is_computer       INTEGER NOT NULL DEFAULT 0 CHECK (is_computer IN (0, 1)),
    ai_level          INTEGER,
    dm_reachable      INTEGER CHECK (dm_reachable IN (0, 1)),  -- NULL: not known yet
    reminders_enabled INTEGER NOT NULL DEFAULT 1 CHECK (reminders_enabled IN (0, 1)),
    reminder_interval INTEGER NOT NULL DEFAULT 43200 CHECK (reminder_interval > 0),  -- seconds
    quiet_start       INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),  -- minutes after local midnight
    quiet_end         INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
    time_zone         TEXT    NOT NULL DEFAULT 'UTC',
    snoozed_until     REAL,
    joined_at         REAL    NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((is_computer = 1) = (user_id IS NULL)),
    CHECK ((quiet_start IS NULL) = (quiet_end IS NULL))
) WITHOUT ROWID;

CREATE UNIQUE INDEX seats_user_once ON seats (game_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX seats_colour_once ON seats (game_id, colour) WHERE colour IS NOT NULL;
CREATE INDEX seats_user ON seats (user_id);

-- The source of truth: a game is its seed, options, player count and this list.
CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL CHECK (ply >= 1),
    move       TEXT    NOT NULL,
    user_id    INTEGER,  -- who sent it (NULL: computer player or the bot itself)
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;

-- The latest engine JSON (engine.dump_game) of each started game, for fast loading.
CREATE TABLE snapshots (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    json    TEXT    NOT NULL
);

-- At most one pending reminder per game (for the seat whose turn it is).
CREATE TABLE reminders (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    due_at       REAL    NOT NULL,
    sent_count   INTEGER NOT NULL DEFAULT 0 CHECK (sent_count >= 0),
    last_sent_at REAL
);

CREATE INDEX reminders_due ON reminders (due_at);

CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,
    score       INTEGER NOT NULL,
    museum_dice INTEGER NOT NULL,
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    winner      INTEGER NOT NULL CHECK (winner IN (0, 1)),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

CREATE INDEX results_user ON results (user_id);
