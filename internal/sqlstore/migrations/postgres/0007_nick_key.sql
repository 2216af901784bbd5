-- A player's nickname folded to lower case by the program (Unicode, the same on every database), unique: seating
-- and imports find club players by their nicknames, so two players never share one. Filled for older rows at Open.
ALTER TABLE players ADD COLUMN nick_key TEXT;
CREATE UNIQUE INDEX players_nick_key ON players (nick_key);
