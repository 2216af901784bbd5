package sqlstore

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"mafiaclub/internal/club"
)

// The club's Telegram (issue 28): the members' links and codes, and the Telegram outbox. A notice's message is
// queued by notify (notices.go), in the notice's own transaction.

// TelegramCode keeps a linking code's hash, dropping the member's earlier codes and every expired one.
func (db *DB) TelegramCode(ctx context.Context, userID int64, codeHash string, expires time.Time) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "telegram code")
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM telegram_codes WHERE user_id = ? OR expires_at < ?`, userID, ms(db.now())); err != nil {
		return translate(err, "telegram code")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO telegram_codes (code_hash, user_id, expires_at) VALUES (?, ?, ?)`, codeHash, userID, ms(expires)); err != nil {
		return translate(err, "telegram code")
	}
	return translate(tx.Commit(), "telegram code")
}

// TelegramLink uses a code up and links the chat to its member, in one transaction.
func (db *DB) TelegramLink(ctx context.Context, codeHash string, chatID int64, now time.Time) (int64, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, translate(err, "telegram code")
	}
	defer tx.Rollback()
	var userID int64
	// the DELETE takes the code (and, on PostgreSQL, its row lock): two chats sending one code never both link
	err = tx.QueryRowContext(ctx, `DELETE FROM telegram_codes WHERE code_hash = ? AND expires_at > ? RETURNING user_id`,
		codeHash, ms(now)).Scan(&userID)
	if err == sql.ErrNoRows {
		return 0, club.Errorf(club.NotFound, "no such code")
	}
	if err != nil {
		return 0, translate(err, "telegram code")
	}
	if err := dropChat(ctx, tx, `chat = ? AND post IS NULL`, strconv.FormatInt(chatID, 10)); err != nil {
		return 0, err
	}
	if err := dropChat(ctx, tx, `user_id = ? AND post IS NULL`, userID); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM telegram_links WHERE chat_id = ? OR user_id = ?`, chatID, userID); err != nil {
		return 0, translate(err, "telegram link")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO telegram_links (user_id, chat_id, linked_at) VALUES (?, ?, ?)`, userID, chatID, ms(now)); err != nil {
		return 0, translate(err, "telegram link")
	}
	return userID, translate(tx.Commit(), "telegram link")
}

// dropChat drops the unsent messages the condition selects: their chat is no longer the member's.
func dropChat(ctx context.Context, tx *txn, where string, arg any) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM telegram_outbox WHERE sent_at IS NULL AND dropped_at IS NULL AND `+where, arg)
	return translate(err, "telegram outbox")
}

// TelegramUnlink removes a member's link and his unsent messages.
func (db *DB) TelegramUnlink(ctx context.Context, userID int64) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "telegram link")
	}
	defer tx.Rollback()
	if err := dropChat(ctx, tx, `user_id = ? AND post IS NULL`, userID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM telegram_links WHERE user_id = ?`, userID); err != nil {
		return translate(err, "telegram link")
	}
	return translate(tx.Commit(), "telegram link")
}

// TelegramUnlinkChat removes a chat's link and returns its member.
func (db *DB) TelegramUnlinkChat(ctx context.Context, chatID int64) (int64, error) {
	var userID int64
	err := db.w.QueryRowContext(ctx, `SELECT user_id FROM telegram_links WHERE chat_id = ?`, chatID).Scan(&userID)
	if err != nil {
		return 0, translate(err, "telegram link")
	}
	return userID, db.TelegramUnlink(ctx, userID)
}

// TelegramLinkOf returns a member's link.
func (db *DB) TelegramLinkOf(ctx context.Context, userID int64) (*club.TelegramLink, error) {
	var l club.TelegramLink
	var linked, dead int64
	err := db.r.QueryRowContext(ctx, `SELECT user_id, chat_id, linked_at, COALESCE(dead_at, 0), dead_reason FROM telegram_links WHERE user_id = ?`,
		userID).Scan(&l.UserID, &l.ChatID, &linked, &dead, &l.DeadReason)
	if err != nil {
		return nil, translate(err, "telegram link")
	}
	l.LinkedAt = fromMS(linked)
	if dead != 0 {
		l.DeadAt = fromMS(dead)
	}
	return &l, nil
}

// TelegramChatUser returns the member of a chat's working link.
func (db *DB) TelegramChatUser(ctx context.Context, chatID int64) (int64, error) {
	var id int64
	err := db.r.QueryRowContext(ctx, `SELECT user_id FROM telegram_links WHERE chat_id = ? AND dead_at IS NULL`, chatID).Scan(&id)
	return id, translate(err, "telegram link")
}

// TelegramLinkDead marks a chat's link dead and drops its unsent messages.
func (db *DB) TelegramLinkDead(ctx context.Context, chatID int64, reason string, now time.Time) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "telegram link")
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE telegram_links SET dead_at = ?, dead_reason = ? WHERE chat_id = ? AND dead_at IS NULL`,
		ms(now), reason, chatID); err != nil {
		return translate(err, "telegram link")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE telegram_outbox SET dropped_at = ?, last_error = ? WHERE chat = ? AND post IS NULL
		AND sent_at IS NULL AND dropped_at IS NULL`, ms(now), reason, strconv.FormatInt(chatID, 10)); err != nil {
		return translate(err, "telegram outbox")
	}
	return translate(tx.Commit(), "telegram link")
}

// telegramCols are a Telegram message's columns (o), with its notice's (x, n) and its member's (u), all but the
// notice's nullable when the message is a post.
const telegramCols = `o.id, o.chat, COALESCE(o.user_id, 0), COALESCE(o.post, ''), o.at, o.attempts, COALESCE(o.sent_at, 0),
	COALESCE(o.dropped_at, 0), o.last_error, COALESCE(u.lang, ''), COALESCE(u.name, ''),
	COALESCE(x.id, 0), COALESCE(x.user_id, 0), COALESCE(x.kind, ''), COALESCE(x.night_id, 0), COALESCE(x.detail, ''), COALESCE(x.at, 0), COALESCE(x.read_at, 0),
	COALESCE(n.starts_at, 0), COALESCE(n.place, ''), COALESCE(n.tables, 0), COALESCE(n.per_table, 0), COALESCE(n.note, ''),
	COALESCE(n.cancelled_at, 0)
	FROM telegram_outbox o LEFT JOIN users u ON u.id = o.user_id LEFT JOIN notices x ON x.id = o.notice_id
	LEFT JOIN club_nights n ON n.id = x.night_id`

func (db *DB) telegramMessages(ctx context.Context, where string, a ...any) ([]club.TelegramMessage, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+telegramCols+` WHERE `+where, a...)
	if err != nil {
		return nil, translate(err, "telegram outbox")
	}
	defer rows.Close()
	var out []club.TelegramMessage
	for rows.Next() {
		var m club.TelegramMessage
		var at, sent, dropped int64
		x, err := scanNotice(rowsAfter{rows, []any{&m.ID, &m.Chat, &m.UserID, &m.Post, &at, &m.Attempts, &sent, &dropped, &m.LastError, &m.Lang, &m.Name}})
		if err != nil {
			return nil, translate(err, "telegram outbox")
		}
		if x.ID != 0 {
			m.Notice = x
		}
		m.At = fromMS(at)
		if sent != 0 {
			m.SentAt = fromMS(sent)
		}
		if dropped != 0 {
			m.DroppedAt = fromMS(dropped)
		}
		out = append(out, m)
	}
	return out, translate(rows.Err(), "telegram outbox")
}

// rowsAfter scans first into its own destinations, then into the ones given: scanNotice reads the notice's
// columns after the message's.
type rowsAfter struct {
	rows  *sql.Rows
	first []any
}

func (r rowsAfter) Scan(dst ...any) error { return r.rows.Scan(append(r.first, dst...)...) }

// TelegramDue lists the messages due at now, the longest waiting first.
func (db *DB) TelegramDue(ctx context.Context, now time.Time, limit int) ([]club.TelegramMessage, error) {
	return db.telegramMessages(ctx, `o.sent_at IS NULL AND o.dropped_at IS NULL AND o.next_at <= ? ORDER BY o.next_at, o.id LIMIT ?`, ms(now), limit)
}

// TelegramSent records a message as sent.
func (db *DB) TelegramSent(ctx context.Context, id int64, now time.Time) error {
	_, err := db.w.ExecContext(ctx, `UPDATE telegram_outbox SET sent_at = ?, attempts = attempts + 1 WHERE id = ?`, ms(now), id)
	return translate(err, "telegram outbox")
}

// TelegramFailed records a failed attempt and the time of the next.
func (db *DB) TelegramFailed(ctx context.Context, id int64, reason string, next time.Time) error {
	_, err := db.w.ExecContext(ctx, `UPDATE telegram_outbox SET attempts = attempts + 1, last_error = ?, next_at = ?
		WHERE id = ? AND sent_at IS NULL AND dropped_at IS NULL`, reason, ms(next), id)
	return translate(err, "telegram outbox")
}

// TelegramDropped gives a message up with its reason.
func (db *DB) TelegramDropped(ctx context.Context, id int64, reason string, now time.Time) error {
	_, err := db.w.ExecContext(ctx, `UPDATE telegram_outbox SET attempts = attempts + 1, last_error = ?, dropped_at = ?
		WHERE id = ? AND sent_at IS NULL AND dropped_at IS NULL`, reason, ms(now), id)
	return translate(err, "telegram outbox")
}

// TelegramFailures lists the messages that failed at least once, newest first.
func (db *DB) TelegramFailures(ctx context.Context, limit int) ([]club.TelegramMessage, error) {
	return db.telegramMessages(ctx, `o.last_error != '' ORDER BY o.id DESC LIMIT ?`, limit)
}

// TelegramPost queues a post once per key. The channel's scan asks again for every recent night and game each
// round: a key queued already is found by a read, so that it takes no write (SQLite's one writer).
func (db *DB) TelegramPost(ctx context.Context, key, chat string, now time.Time) (bool, error) {
	var one int
	switch err := db.r.QueryRowContext(ctx, `SELECT 1 FROM telegram_outbox WHERE post = ?`, key).Scan(&one); err {
	case nil:
		return false, nil
	case sql.ErrNoRows:
	default:
		return false, translate(err, "telegram outbox")
	}
	res, err := db.w.ExecContext(ctx, `INSERT INTO telegram_outbox (chat, post, at, next_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		chat, key, ms(now), ms(now))
	if err != nil {
		return false, translate(err, "telegram outbox")
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}
