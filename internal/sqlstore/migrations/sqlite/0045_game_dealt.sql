-- Whether a game's roles were dealt at random on the server (1) or entered as dealt with real cards (0): a random
-- deal is handed out by the host, seat by seat, with each role's gesture, as the first steps of the game.
ALTER TABLE games ADD COLUMN dealt INTEGER NOT NULL DEFAULT 0;
