-- The club's Telegram (issue 28): members' linked chats, the one-time codes that link them (hashed, short-lived),
-- and the Telegram outbox: a member's notice to his chat, written in the transaction of the notice itself (as its
-- e-mail), and the posts to the club's channel, each post once (its key); sent and retried by the Telegram sender,
-- a message Telegram refuses for good dropped with its reason, which the admin's page shows.
CREATE TABLE telegram_links (
  user_id INTEGER PRIMARY KEY REFERENCES users (id),
  chat_id INTEGER NOT NULL UNIQUE,
  linked_at INTEGER NOT NULL,
  dead_at INTEGER,
  dead_reason TEXT NOT NULL DEFAULT ''
);

CREATE TABLE telegram_codes (
  code_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  expires_at INTEGER NOT NULL
);
CREATE INDEX telegram_codes_user ON telegram_codes (user_id);

CREATE TABLE telegram_outbox (
  id INTEGER PRIMARY KEY,
  chat TEXT NOT NULL,
  user_id INTEGER REFERENCES users (id),
  notice_id INTEGER REFERENCES notices (id),
  post TEXT UNIQUE,
  at INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  sent_at INTEGER,
  dropped_at INTEGER,
  last_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX telegram_outbox_due ON telegram_outbox (sent_at, dropped_at, next_at);
