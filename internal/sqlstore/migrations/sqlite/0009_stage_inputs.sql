-- What the seating generator was given besides the seed: the players in order and the pairs kept apart, so
-- that the recorded seed reproduces the schedule.
ALTER TABLE tournament_stages ADD COLUMN players TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tournament_stages ADD COLUMN apart TEXT NOT NULL DEFAULT '[]';
