-- PostgreSQL twin of bot/store/migrations/0012_openskill.sql (same number and name; types: BIGINT for
-- Discord ids and counts, DOUBLE PRECISION for times, identity columns for row ids).
-- 0012: ratings by OpenSkill (Weng-Lin Plackett-Luce, bot/rating.py) in place of pairwise Elo.
-- `ratings.rating` stays the number shown: the skill estimate mu, on the Elo scale (1500 to
-- start, a 400-point gap is 10:1 odds between settled players).  `sigma` is its uncertainty;
-- NULL marks an Elo rating from before this migration, which the player's next rated game
-- carries over (mu = the Elo rating, sigma from the games already played).
ALTER TABLE ratings ADD COLUMN sigma DOUBLE PRECISION;

-- Each seat's uncertainty before and after a rated game (NULL: a game rated by Elo).
ALTER TABLE rating_changes ADD COLUMN sigma_before DOUBLE PRECISION;
ALTER TABLE rating_changes ADD COLUMN sigma_after DOUBLE PRECISION;
