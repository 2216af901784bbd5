-- Monthly sums of the rated results per player and role (month = year*100 + month, in UTC), kept in step with
-- game_results by the transactions that save, reopen and link games. The standings read whole months here and
-- only the partial months at a season's edges from game_results.
CREATE TABLE rating_months (
  player_id BIGINT NOT NULL REFERENCES players (id),
  month INTEGER NOT NULL,
  role TEXT NOT NULL,
  games INTEGER NOT NULL,
  wins INTEGER NOT NULL,
  points INTEGER NOT NULL,
  PRIMARY KEY (player_id, month, role)
);
CREATE INDEX rating_months_month ON rating_months (month, player_id, role, games, wins, points);
INSERT INTO rating_months (player_id, month, role, games, wins, points)
  SELECT player_id, month, role, COUNT(*), SUM(won), SUM(points) FROM (
    SELECT player_id, role, won, points,
      CAST(strftime('%Y', played_at / 1000, 'unixepoch') AS INTEGER) * 100 + CAST(strftime('%m', played_at / 1000, 'unixepoch') AS INTEGER) AS month
    FROM game_results WHERE rated = 1 AND player_id IS NOT NULL) r
  GROUP BY player_id, month, role;
