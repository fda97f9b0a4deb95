-- 0010: a game may live in a thread of its own (issue 15: ``/cubist lobby new`` opens a
-- thread from the channel's lobby post and moves the lobby there).  ``opened_in`` keeps the
-- channel it was opened in (NULL: the channel it lives in), so the channel's cooldown between
-- two lobbies still counts games that moved to threads.
ALTER TABLE games ADD COLUMN opened_in INTEGER;
