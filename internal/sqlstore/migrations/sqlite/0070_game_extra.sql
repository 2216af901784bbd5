-- A game imported from another platform keeps its record's own fields (a JSON object: the import's note, the
-- platform as "source", when the game ended, the platform's fields an export needs), so that its record says what
-- the import's did; '' for the club's own games.
ALTER TABLE games ADD COLUMN extra TEXT NOT NULL DEFAULT '';
