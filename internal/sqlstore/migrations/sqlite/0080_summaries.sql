-- A club's old protocols (issue 26, item 7): games kept as summaries, without events. Each summary game is a saved
-- game (games, game_seats, game_results, with source 'summary:DATE/TABLE/GAME') whose facts, as the import's JSON
-- form of one game, are kept here with their digest; summary_log records each import and each deletion.
CREATE TABLE summary_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  by_user INTEGER NOT NULL REFERENCES users (id),
  action TEXT NOT NULL CHECK (action IN ('import', 'delete')),
  file TEXT NOT NULL DEFAULT '',
  digest TEXT NOT NULL DEFAULT '',
  games INTEGER NOT NULL DEFAULT 0,
  skipped INTEGER NOT NULL DEFAULT 0,
  detail TEXT NOT NULL DEFAULT ''
);
CREATE TABLE game_summaries (
  game_id INTEGER PRIMARY KEY REFERENCES games (id),
  log_id INTEGER NOT NULL REFERENCES summary_log (id),
  facts TEXT NOT NULL,
  digest TEXT NOT NULL
);
-- a result of a summary game, so that the pages that list results mark it without reading its game
ALTER TABLE game_results ADD COLUMN summary INTEGER NOT NULL DEFAULT 0;
