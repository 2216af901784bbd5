-- One rating, one system (issue 11): a result counts in the rating of its game's rule set when the game is rated
-- and is not a tournament game (a tournament has its own standings). Nothing saved changes its points: the new
-- columns say where a result counts and what its record shows; the points stay as they are.
ALTER TABLE game_results ADD COLUMN rules TEXT NOT NULL DEFAULT '';
ALTER TABLE game_results ADD COLUMN counted INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN team TEXT NOT NULL DEFAULT '';
-- the player's Elo in his rule set's rating before and after this game, in hundredths (NULL: not counted, a guest)
ALTER TABLE game_results ADD COLUMN elo_before INTEGER;
ALTER TABLE game_results ADD COLUMN elo_after INTEGER;
-- what the game's record shows of this seat (club.SeatStats); stats_ok is 0 until they were computed from it
ALTER TABLE game_results ADD COLUMN first_killed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN bm_named INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN bm_blacks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN checks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN checks_black INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN don_checks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN don_found INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN votes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN votes_black INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN noms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN noms_black INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN fouls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN disq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN stats_ok INTEGER NOT NULL DEFAULT 0;
UPDATE game_results SET
  rules = (SELECT g.rules FROM games g WHERE g.id = game_results.game_id),
  counted = CASE WHEN rated = 1 AND (SELECT g.stage_id FROM games g WHERE g.id = game_results.game_id) IS NULL THEN 1 ELSE 0 END,
  team = CASE WHEN role IN ('mafia', 'don') THEN 'black' ELSE 'red' END;
CREATE INDEX game_results_scope ON game_results (rules, counted, played_at, player_id, role, won, points);
CREATE INDEX game_results_player_scope ON game_results (player_id, rules, counted, played_at, game_id);

-- The counted games of each rule set in rating order (played_at, game_id), with the side's tallies before each:
-- the Elo pass reads them, and the club's statistics (red/black balance per table size and season).
CREATE TABLE rated_games (
  game_id BIGINT PRIMARY KEY REFERENCES games (id),
  rules TEXT NOT NULL,
  played_at BIGINT NOT NULL,
  players INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  games_before INTEGER NOT NULL,
  red_before INTEGER NOT NULL
);
CREATE INDEX rated_games_order ON rated_games (rules, played_at, game_id);

-- The standings of each rule set's rating, all time, kept in step by the transactions that save, reopen, correct
-- and link games: the rating page reads a page of them.
CREATE TABLE standings (
  rules TEXT NOT NULL,
  player_id BIGINT NOT NULL REFERENCES players (id),
  games INTEGER NOT NULL,
  wins INTEGER NOT NULL,
  points INTEGER NOT NULL,
  elo INTEGER NOT NULL,
  citizen_games INTEGER NOT NULL DEFAULT 0, citizen_wins INTEGER NOT NULL DEFAULT 0, citizen_points INTEGER NOT NULL DEFAULT 0,
  sheriff_games INTEGER NOT NULL DEFAULT 0, sheriff_wins INTEGER NOT NULL DEFAULT 0, sheriff_points INTEGER NOT NULL DEFAULT 0,
  mafia_games INTEGER NOT NULL DEFAULT 0, mafia_wins INTEGER NOT NULL DEFAULT 0, mafia_points INTEGER NOT NULL DEFAULT 0,
  don_games INTEGER NOT NULL DEFAULT 0, don_wins INTEGER NOT NULL DEFAULT 0, don_points INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (rules, player_id)
);
CREATE INDEX standings_points ON standings (rules, points DESC, wins DESC, games);
CREATE INDEX standings_elo ON standings (rules, elo DESC);

-- The ratings' version, raised by every change to them (the pages' ETag); built = 0 makes the store rebuild the
-- standings and the Elo from the results once, in Go, when it opens.
CREATE TABLE rating_state (
  id INTEGER PRIMARY KEY,
  version BIGINT NOT NULL,
  built INTEGER NOT NULL
);
INSERT INTO rating_state (id, version, built) VALUES (1, 1, 0);

-- The monthly sums, now per rule set and of counted results only.
DROP TABLE rating_months;
CREATE TABLE rating_months (
  player_id BIGINT NOT NULL REFERENCES players (id),
  rules TEXT NOT NULL,
  month INTEGER NOT NULL,
  role TEXT NOT NULL,
  games INTEGER NOT NULL,
  wins INTEGER NOT NULL,
  points INTEGER NOT NULL,
  PRIMARY KEY (rules, month, player_id, role)
);
CREATE INDEX rating_months_sums ON rating_months (rules, month, player_id, role, games, wins, points);
INSERT INTO rating_months (player_id, rules, month, role, games, wins, points)
  SELECT player_id, rules, month, role, COUNT(*), SUM(won), SUM(points) FROM (
    SELECT player_id, rules, role, won, points, CAST(EXTRACT(YEAR FROM to_timestamp(played_at / 1000.0) AT TIME ZONE 'UTC') * 100 + EXTRACT(MONTH FROM to_timestamp(played_at / 1000.0) AT TIME ZONE 'UTC') AS INTEGER) AS month
    FROM game_results WHERE counted = 1 AND player_id IS NOT NULL) r
  GROUP BY player_id, rules, month, role;
