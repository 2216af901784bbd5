-- Where an imported game came from ("mafiaratings:4842"), so that a game is never imported twice.
ALTER TABLE games ADD COLUMN source TEXT;
CREATE UNIQUE INDEX games_source ON games (source);
