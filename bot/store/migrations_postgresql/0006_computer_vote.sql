-- PostgreSQL twin of bot/store/migrations/0006_computer_vote.sql: the away vote may also hand
-- the seat to a computer player (choice 'computer'). PostgreSQL changes the CHECK in place.
ALTER TABLE away_votes DROP CONSTRAINT away_votes_choice_check;
ALTER TABLE away_votes ADD CONSTRAINT away_votes_choice_check CHECK (choice IN ('skip', 'remove', 'computer'));
