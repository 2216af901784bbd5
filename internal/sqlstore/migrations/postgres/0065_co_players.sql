-- Each player's partners and opponents per rule set (issue 27, item 1): for his counted results, every other club
-- player's seat at the same game, in his team (partner = 1) or against it, with the games he won; kept in step by
-- the transactions that save, reopen and link games, as rating_months is, and built from the results by the
-- ratings' rebuild, which built = 0 asks for when the store opens.
CREATE TABLE co_players (
  rules TEXT NOT NULL,
  player_id BIGINT NOT NULL,
  other_id BIGINT NOT NULL,
  partner INTEGER NOT NULL,
  games INTEGER NOT NULL,
  wins INTEGER NOT NULL,
  PRIMARY KEY (rules, player_id, other_id, partner)
);
UPDATE rating_state SET built = 0;
