-- Tournaments (seed 002 §7-§8, §T6, §P7): participants, stages with their seating schedules, table judges,
-- games in their slots, protests, and the chief judge's approvals of a winner's high extra points.
CREATE TABLE tournaments (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  starts_on TEXT NOT NULL,
  ends_on TEXT NOT NULL,
  place TEXT NOT NULL,
  rules TEXT NOT NULL,
  chief_judge INTEGER NOT NULL REFERENCES users (id),
  created_by INTEGER NOT NULL REFERENCES users (id),
  lot_seed INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE tournament_players (
  id INTEGER PRIMARY KEY,
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  player_id INTEGER REFERENCES players (id),
  name TEXT NOT NULL,
  approved INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (tournament_id, name)
);
CREATE TABLE tournament_stages (
  id INTEGER PRIMARY KEY,
  tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
  name TEXT NOT NULL,
  rounds INTEGER NOT NULL,
  per_table INTEGER NOT NULL,
  seed INTEGER NOT NULL,
  schedule TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE tournament_judges (
  stage_id INTEGER NOT NULL REFERENCES tournament_stages (id),
  table_no INTEGER NOT NULL,
  user_id INTEGER NOT NULL REFERENCES users (id),
  PRIMARY KEY (stage_id, table_no)
);
ALTER TABLE games ADD COLUMN stage_id INTEGER REFERENCES tournament_stages (id);
ALTER TABLE games ADD COLUMN round_no INTEGER;
ALTER TABLE games ADD COLUMN table_no INTEGER;
CREATE UNIQUE INDEX games_slot ON games (stage_id, round_no, table_no);
CREATE TABLE protests (
  id INTEGER PRIMARY KEY,
  game_id INTEGER NOT NULL REFERENCES games (id),
  participant_id INTEGER NOT NULL REFERENCES tournament_players (id),
  matter TEXT NOT NULL,
  text TEXT NOT NULL,
  at INTEGER NOT NULL,
  decided INTEGER NOT NULL DEFAULT 0,
  decided_by INTEGER REFERENCES users (id),
  decided_at INTEGER,
  upheld INTEGER NOT NULL DEFAULT 0,
  reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX protests_game ON protests (game_id);
CREATE TABLE extra_approvals (
  game_id INTEGER NOT NULL REFERENCES games (id),
  seat INTEGER NOT NULL,
  approved_by INTEGER NOT NULL REFERENCES users (id),
  at INTEGER NOT NULL,
  PRIMARY KEY (game_id, seat)
);
