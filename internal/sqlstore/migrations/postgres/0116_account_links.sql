-- One-time links to an account: a sign-in link sent to the member's linked Telegram chat when he asks for one on
-- the login page (his password may be held by the delay of a login being guessed), and later the link of a
-- forgotten password; purpose says which. Only the token's SHA-256 is kept, with the SHA-256 of the nonce the
-- browser that asked keeps in a cookie (the link works in that browser only) and when it expires. Using a link
-- deletes it, in one statement: of two uses, one wins. Expired links go when a new one is made.
-- A member's e-mail address counts as his only once he followed the link sent to it (purpose 'confirm_email'):
-- email_confirmed is the address as confirmed, so changing the address unconfirms it.
ALTER TABLE users ADD COLUMN email_confirmed TEXT NOT NULL DEFAULT '';

CREATE TABLE account_links (
  token_hash BYTEA PRIMARY KEY,
  purpose TEXT NOT NULL,
  user_id BIGINT NOT NULL REFERENCES users (id),
  device_hash BYTEA NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX account_links_expires ON account_links (expires_at);
