-- Who sits out each round of a stage (a JSON list per round of participants' ids): a stage seats any number of
-- players, and those its full tables leave over sit the round out in turn.
ALTER TABLE tournament_stages ADD COLUMN sit_out TEXT NOT NULL DEFAULT '[]';
