-- A club night's games and a tournament stage's games, newest first, as their pages and the standings read them:
-- without these the games were found by walking every saved game in time order (games_status), a few
-- milliseconds a page over 5,000 games and growing with the club's history.
CREATE INDEX games_night ON games (night_id, status, created_at);
CREATE INDEX games_stage ON games (stage_id, status, created_at);
