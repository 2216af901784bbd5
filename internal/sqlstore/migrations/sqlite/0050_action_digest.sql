-- The digest of the action each idempotency key was recorded with, so that the same key sent with another action
-- is refused instead of being answered as done. Keys recorded before have none ('').
ALTER TABLE action_keys ADD COLUMN digest TEXT NOT NULL DEFAULT '';
