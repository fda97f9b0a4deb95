-- 0013: how each person wants the pictures only they see (their turn-start DM, the turn
-- panel, Board and Studio, /cubist look): 'iso' (the high camera, the default; no row) or
-- 'flat' (seen from straight above).  Checked in code, so a new style needs no migration.
CREATE TABLE user_pictures (
    user_id    INTEGER PRIMARY KEY,
    style      TEXT    NOT NULL,
    updated_at REAL    NOT NULL
);
