-- An optional photo on a player's profile (JPEG, PNG or WebP, at most 1 MB).
ALTER TABLE players ADD COLUMN photo BYTEA;
ALTER TABLE players ADD COLUMN photo_type TEXT NOT NULL DEFAULT '';
