-- Accounts, players, games and their event logs. Times are Unix milliseconds (UTC), the same in every dialect.
CREATE TABLE players (
  id INTEGER PRIMARY KEY,
  nick TEXT NOT NULL,
  real_name TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);
CREATE INDEX players_nick ON players (nick COLLATE NOCASE);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  login TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('member', 'host', 'admin')),
  password_hash TEXT NOT NULL,
  player_id INTEGER REFERENCES players (id),
  lang TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);

CREATE TABLE sessions (
  token_hash BLOB PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at INTEGER NOT NULL
);

CREATE TABLE games (
  id INTEGER PRIMARY KEY,
  rules TEXT NOT NULL,
  options TEXT NOT NULL,
  rated INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('live', 'saved')),
  host_id INTEGER NOT NULL REFERENCES users (id),
  version INTEGER NOT NULL DEFAULT 0,
  events INTEGER NOT NULL DEFAULT 0,
  winner TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  saved_at INTEGER
);
CREATE INDEX games_status ON games (status, created_at);

CREATE TABLE game_seats (
  game_id INTEGER NOT NULL REFERENCES games (id),
  seat INTEGER NOT NULL,
  role TEXT NOT NULL,
  name TEXT NOT NULL,
  player_id INTEGER REFERENCES players (id),
  PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_seats_player ON game_seats (player_id);

CREATE TABLE game_events (
  game_id INTEGER NOT NULL REFERENCES games (id),
  seq INTEGER NOT NULL,
  event TEXT NOT NULL,
  at INTEGER NOT NULL,
  by_user INTEGER NOT NULL REFERENCES users (id),
  PRIMARY KEY (game_id, seq)
);

CREATE TABLE game_audit (
  id INTEGER PRIMARY KEY,
  game_id INTEGER NOT NULL REFERENCES games (id),
  at INTEGER NOT NULL,
  by_user INTEGER NOT NULL REFERENCES users (id),
  action TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT ''
);
CREATE INDEX game_audit_game ON game_audit (game_id, id);
