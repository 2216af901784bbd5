-- The standings read only this index: rated results by date, with everything they sum.
DROP INDEX game_results_rating;
CREATE INDEX game_results_rating ON game_results (rated, played_at, player_id, role, won, points);
