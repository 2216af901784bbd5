-- The broadcast with roles (issue 13): a game's own delay in minutes (0: no broadcast for this game); a game
-- without a row follows the club's default, a setting of its own.
CREATE TABLE game_broadcast (
  game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
  delay_minutes INTEGER NOT NULL
);
CREATE TABLE club_settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
