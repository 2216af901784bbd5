-- The idempotency keys of host actions: a retried request (its answer lost on the way) carries the key of the
-- first, and is recognised as recorded instead of being recorded twice or refused as someone else's change.
CREATE TABLE action_keys (
  game_id BIGINT NOT NULL REFERENCES games (id),
  akey TEXT NOT NULL,
  version BIGINT NOT NULL,
  PRIMARY KEY (game_id, akey)
);
