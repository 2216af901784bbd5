-- A player who leaves mid-tournament is replaced by a substitute: the substitute names the participant whose
-- place he took, and the one who left is marked, so that the standings say who played which games.
ALTER TABLE tournament_players ADD COLUMN replaces BIGINT REFERENCES tournament_players (id);
ALTER TABLE tournament_players ADD COLUMN left_tournament INTEGER NOT NULL DEFAULT 0;
