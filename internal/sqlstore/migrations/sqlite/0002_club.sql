-- The club: member statuses and their log, club nights with registrations and strikes, and the per-seat results
-- of saved games that the rating is built from.
ALTER TABLE users ADD COLUMN status TEXT NOT NULL DEFAULT 'active'
  CHECK (status IN ('pending', 'active', 'low_priority', 'excluded'));

CREATE TABLE member_log (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  at INTEGER NOT NULL,
  by_user INTEGER NOT NULL REFERENCES users (id),
  field TEXT NOT NULL,
  from_value TEXT NOT NULL,
  to_value TEXT NOT NULL,
  reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX member_log_user ON member_log (user_id, id);

CREATE TABLE club_nights (
  id INTEGER PRIMARY KEY,
  starts_at INTEGER NOT NULL,
  place TEXT NOT NULL,
  tables INTEGER NOT NULL CHECK (tables BETWEEN 1 AND 50),
  per_table INTEGER NOT NULL CHECK (per_table BETWEEN 7 AND 10),
  created_by INTEGER NOT NULL REFERENCES users (id),
  created_at INTEGER NOT NULL
);
CREATE INDEX club_nights_start ON club_nights (starts_at);

CREATE TABLE registrations (
  id INTEGER PRIMARY KEY,
  night_id INTEGER NOT NULL REFERENCES club_nights (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  state TEXT NOT NULL CHECK (state IN ('main', 'reserve', 'cancelled')),
  at INTEGER NOT NULL,
  cancelled_at INTEGER,
  late INTEGER NOT NULL DEFAULT 0,
  no_show INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX registrations_night ON registrations (night_id, state, id);
CREATE INDEX registrations_user ON registrations (user_id);

CREATE TABLE strikes (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  night_id INTEGER NOT NULL REFERENCES club_nights (id),
  kind TEXT NOT NULL CHECK (kind IN ('late_cancellation', 'no_show')),
  at INTEGER NOT NULL,
  UNIQUE (user_id, night_id, kind)
);

ALTER TABLE games ADD COLUMN night_id INTEGER REFERENCES club_nights (id);

CREATE TABLE game_results (
  game_id INTEGER NOT NULL REFERENCES games (id),
  seat INTEGER NOT NULL,
  player_id INTEGER REFERENCES players (id),
  role TEXT NOT NULL,
  won INTEGER NOT NULL,
  points INTEGER NOT NULL,
  rated INTEGER NOT NULL,
  played_at INTEGER NOT NULL,
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_rating ON game_results (rated, played_at, player_id);
CREATE INDEX game_results_player ON game_results (player_id, played_at);
