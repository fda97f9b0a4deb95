-- The away vote may also hand the seat to a computer player (choice 'computer').
-- SQLite cannot change a CHECK constraint in place: the table is rebuilt; PostgreSQL changes it.
-- dialect: sqlite
CREATE TABLE away_votes_new (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    turn       INTEGER NOT NULL,
    voter_seat INTEGER NOT NULL,
    choice     TEXT    NOT NULL CHECK (choice IN ('skip', 'remove', 'computer')),
    created_at REAL    NOT NULL,
    PRIMARY KEY (game_id, turn, voter_seat)
) WITHOUT ROWID;

INSERT INTO away_votes_new (game_id, turn, voter_seat, choice, created_at)
    SELECT game_id, turn, voter_seat, choice, created_at FROM away_votes;

DROP TABLE away_votes;

ALTER TABLE away_votes_new RENAME TO away_votes;

-- dialect: postgresql
ALTER TABLE away_votes DROP CONSTRAINT away_votes_choice_check;
ALTER TABLE away_votes ADD CONSTRAINT away_votes_choice_check CHECK (choice IN ('skip', 'remove', 'computer'));
