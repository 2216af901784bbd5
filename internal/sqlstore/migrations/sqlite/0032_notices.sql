-- Club nights an admin edits (a note) or cancels; members' notices: an inbox on the site, and an outbox of
-- e-mails written in the same transaction as the change they tell of, sent and retried by the sender; the
-- reminder the day before a night, once per registration; members' e-mail addresses; the club's settings.
ALTER TABLE club_nights ADD COLUMN note TEXT NOT NULL DEFAULT '';
ALTER TABLE club_nights ADD COLUMN cancelled_at INTEGER;
ALTER TABLE registrations ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';
ALTER TABLE users ADD COLUMN email_off INTEGER NOT NULL DEFAULT 0;

CREATE TABLE notices (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  kind TEXT NOT NULL,
  night_id INTEGER REFERENCES club_nights (id),
  detail TEXT NOT NULL DEFAULT '',
  at INTEGER NOT NULL,
  read_at INTEGER
);
CREATE INDEX notices_user ON notices (user_id, id);

CREATE TABLE outbox (
  id INTEGER PRIMARY KEY,
  notice_id INTEGER NOT NULL REFERENCES notices (id),
  address TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  sent_at INTEGER,
  last_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX outbox_due ON outbox (sent_at, next_at);

-- the club's settings (the strikes rule) live in club_settings (0020_broadcast.sql)
