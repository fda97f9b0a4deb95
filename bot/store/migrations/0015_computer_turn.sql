-- 0015: a computer's turn is a job that plays the turn (claimed, leased, taken over when its
-- claimer dies), no longer a wake-up of an in-process task: its kind is renamed.
UPDATE jobs SET kind = 'computer_turn' WHERE kind = 'computer_wake';
