package sqlstore

import (
	"context"
	"sort"
	"time"

	"mafiaclub/internal/club"
)

// notify writes a notice to a member and, when he has an e-mail address and has not turned e-mail off, its mail in
// the outbox, in the transaction of the change it tells of: the change and its notice are committed together or
// not at all.
func notify(ctx context.Context, tx *txn, userID int64, kind club.NoticeKind, nightID int64, detail string, now time.Time) error {
	var night any
	if nightID != 0 {
		night = nightID
	}
	id, err := tx.insert(ctx, `INSERT INTO notices (user_id, kind, night_id, detail, at) VALUES (?, ?, ?, ?, ?)`, userID, string(kind), night, detail, ms(now))
	if err != nil {
		return translate(err, "notice")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (notice_id, address, next_at)
		SELECT ?, email, ? FROM users WHERE id = ? AND email != '' AND email_off = 0`, id, ms(now), userID); err != nil {
		return translate(err, "outbox")
	}
	// and to his linked Telegram chat (issue 28, telegram.go)
	if _, err := tx.ExecContext(ctx, `INSERT INTO telegram_outbox (chat, user_id, notice_id, at, next_at)
		SELECT CAST(chat_id AS TEXT), user_id, ?, ?, ? FROM telegram_links WHERE user_id = ? AND dead_at IS NULL`, id, ms(now), ms(now), userID); err != nil {
		return translate(err, "telegram outbox")
	}
	return nil
}

// dropReminders takes out of the outbox the e-mails of a night's reminders to a member that are not sent yet: he is
// no longer registered (he cancelled, was excluded, or the night is called off), and a reminder of a night he will
// not come to is wrong. The notice stays in his inbox, where it shows the night as it is now.
func dropReminders(ctx context.Context, tx *txn, userID, nightID int64) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM outbox WHERE sent_at IS NULL AND notice_id IN
		(SELECT id FROM notices WHERE user_id = ? AND night_id = ? AND kind = ?)`, userID, nightID, string(club.NoticeReminder))
	if err != nil {
		return translate(err, "outbox")
	}
	_, err = tx.ExecContext(ctx, `DELETE FROM telegram_outbox WHERE sent_at IS NULL AND dropped_at IS NULL AND notice_id IN
		(SELECT id FROM notices WHERE user_id = ? AND night_id = ? AND kind = ?)`, userID, nightID, string(club.NoticeReminder))
	return translate(err, "telegram outbox")
}

// strike records a strike once, and tells the member when it is new.
func strike(ctx context.Context, tx *txn, userID, nightID int64, kind club.StrikeKind, now time.Time) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO strikes (user_id, night_id, kind, at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		userID, nightID, string(kind), ms(now))
	if err != nil {
		return translate(err, "strike")
	}
	if n, _ := res.RowsAffected(); n > 0 {
		return notify(ctx, tx, userID, club.NoticeStrike, nightID, string(kind), now)
	}
	return nil
}

// registered lists the members registered for a night (main line-up and reserve) with their states.
func registered(ctx context.Context, tx *txn, nightID int64) (map[int64]string, []int64, error) {
	rows, err := tx.QueryContext(ctx, `SELECT user_id, state FROM registrations WHERE night_id = ? AND state != 'cancelled' ORDER BY at, id`, nightID)
	if err != nil {
		return nil, nil, translate(err, "registration")
	}
	defer rows.Close()
	state := map[int64]string{}
	var order []int64
	for rows.Next() {
		var u int64
		var s string
		if err := rows.Scan(&u, &s); err != nil {
			return nil, nil, translate(err, "registration")
		}
		state[u] = s
		order = append(order, u)
	}
	return state, order, translate(rows.Err(), "registration")
}

// UpdateNight changes a night, moves members between its main line-up and reserve as its places require, and
// tells the registered members, in one transaction.
func (db *DB) UpdateNight(ctx context.Context, n *club.ClubNight, now time.Time) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "club night")
	}
	defer tx.Rollback()
	if err := tx.lock(ctx, "club_nights", n.ID); err != nil {
		return translate(err, "club night")
	}
	old, err := scanNight(tx.QueryRowContext(ctx, `SELECT `+nightCols+` FROM club_nights n WHERE n.id = ?`, n.ID))
	if err != nil {
		return translate(err, "club night")
	}
	if old.IsCancelled() {
		return club.Errorf(club.Conflict, "the club night is cancelled")
	}
	if old.StartsAt.Equal(n.StartsAt) && old.Place == n.Place && old.Tables == n.Tables && old.PerTable == n.PerTable && old.Note == n.Note {
		return nil // nothing changed: nobody is told
	}
	if _, err := tx.ExecContext(ctx, `UPDATE club_nights SET starts_at = ?, place = ?, tables = ?, per_table = ?, note = ? WHERE id = ?`,
		ms(n.StartsAt), n.Place, n.Tables, n.PerTable, n.Note, n.ID); err != nil {
		return translate(err, "club night")
	}
	before, order, err := registered(ctx, tx, n.ID)
	if err != nil {
		return err
	}
	main := 0
	for _, s := range before {
		if s == string(club.RegMain) {
			main++
		}
	}
	// fewer places: the last registered of the main line-up go to the reserve (at its head, by their time)
	for i := len(order) - 1; i >= 0 && main > n.MainSize(); i-- {
		u := order[i]
		if before[u] != string(club.RegMain) {
			continue
		}
		if _, err := tx.ExecContext(ctx, `UPDATE registrations SET state = 'reserve' WHERE night_id = ? AND user_id = ? AND state = 'main'`, n.ID, u); err != nil {
			return translate(err, "registration")
		}
		if err := notify(ctx, tx, u, club.NoticeDemoted, n.ID, "", now); err != nil {
			return err
		}
		main--
	}
	if err := fillMain(ctx, tx, n.ID, now); err != nil {
		return err
	}
	after, _, err := registered(ctx, tx, n.ID)
	if err != nil {
		return err
	}
	var was time.Time
	if !old.StartsAt.Equal(n.StartsAt) {
		was = old.StartsAt
	}
	detail := club.NightChangeDetail(*n, was)
	for _, u := range order {
		if after[u] == before[u] { // the members who moved have been told where they are now
			if err := notify(ctx, tx, u, club.NoticeNightChanged, n.ID, detail, now); err != nil {
				return err
			}
		}
	}
	return translate(tx.Commit(), "club night")
}

// CancelNight marks a night cancelled and tells the registered members, in one transaction.
func (db *DB) CancelNight(ctx context.Context, nightID int64, now time.Time) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "club night")
	}
	defer tx.Rollback()
	if err := tx.lock(ctx, "club_nights", nightID); err != nil {
		return translate(err, "club night")
	}
	res, err := tx.ExecContext(ctx, `UPDATE club_nights SET cancelled_at = ? WHERE id = ? AND cancelled_at IS NULL`, ms(now), nightID)
	if err != nil {
		return translate(err, "club night")
	}
	if k, _ := res.RowsAffected(); k == 0 {
		if _, err := scanNight(tx.QueryRowContext(ctx, `SELECT `+nightCols+` FROM club_nights n WHERE n.id = ?`, nightID)); err != nil {
			return translate(err, "club night")
		}
		return club.Errorf(club.Conflict, "the club night is cancelled already")
	}
	_, order, err := registered(ctx, tx, nightID)
	if err != nil {
		return err
	}
	for _, u := range order {
		if err := dropReminders(ctx, tx, u, nightID); err != nil {
			return err
		}
		if err := notify(ctx, tx, u, club.NoticeNightCancelled, nightID, "", now); err != nil {
			return err
		}
	}
	return translate(tx.Commit(), "club night")
}

// Remind writes the night's reminders not yet written, once per registration, in one transaction.
func (db *DB) Remind(ctx context.Context, nightID int64, now time.Time) (int, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, translate(err, "reminder")
	}
	defer tx.Rollback()
	if err := tx.lock(ctx, "club_nights", nightID); err != nil {
		return 0, translate(err, "club night")
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, user_id FROM registrations WHERE night_id = ? AND state != 'cancelled' AND reminded = 0 ORDER BY at, id`, nightID)
	if err != nil {
		return 0, translate(err, "registration")
	}
	var regs [][2]int64
	for rows.Next() {
		var r [2]int64
		if err := rows.Scan(&r[0], &r[1]); err != nil {
			rows.Close()
			return 0, translate(err, "registration")
		}
		regs = append(regs, r)
	}
	rows.Close()
	for _, r := range regs {
		if _, err := tx.ExecContext(ctx, `UPDATE registrations SET reminded = 1 WHERE id = ?`, r[0]); err != nil {
			return 0, translate(err, "registration")
		}
		if err := notify(ctx, tx, r[1], club.NoticeReminder, nightID, "", now); err != nil {
			return 0, err
		}
	}
	return len(regs), translate(tx.Commit(), "reminder")
}

const noticeCols = `x.id, x.user_id, x.kind, COALESCE(x.night_id, 0), x.detail, x.at, COALESCE(x.read_at, 0),
	COALESCE(n.starts_at, 0), COALESCE(n.place, ''), COALESCE(n.tables, 0), COALESCE(n.per_table, 0), COALESCE(n.note, ''),
	COALESCE(n.cancelled_at, 0)`

func scanNotice(row interface{ Scan(...any) error }, more ...any) (club.Notice, error) {
	var x club.Notice
	var kind string
	var at, read, starts, cancelled int64
	dst := append([]any{&x.ID, &x.UserID, &kind, &x.NightID, &x.Detail, &at, &read, &starts, &x.Night.Place, &x.Night.Tables,
		&x.Night.PerTable, &x.Night.Note, &cancelled}, more...)
	if err := row.Scan(dst...); err != nil {
		return x, err
	}
	x.Kind, x.At, x.Read = club.NoticeKind(kind), fromMS(at), read != 0
	if x.NightID != 0 {
		x.Night.ID, x.Night.StartsAt = x.NightID, fromMS(starts)
		if cancelled != 0 {
			x.Night.Cancelled = fromMS(cancelled)
		}
	}
	return x, nil
}

// Notices lists a member's notices, newest first.
func (db *DB) Notices(ctx context.Context, userID int64, limit int) ([]club.Notice, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+noticeCols+` FROM notices x LEFT JOIN club_nights n ON n.id = x.night_id
		WHERE x.user_id = ? ORDER BY x.id DESC LIMIT ?`, userID, limit)
	if err != nil {
		return nil, translate(err, "notice")
	}
	defer rows.Close()
	var out []club.Notice
	for rows.Next() {
		x, err := scanNotice(rows)
		if err != nil {
			return nil, translate(err, "notice")
		}
		out = append(out, x)
	}
	return out, translate(rows.Err(), "notice")
}

// UnreadNotices counts a member's unread notices.
func (db *DB) UnreadNotices(ctx context.Context, userID int64) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND read_at IS NULL`, userID).Scan(&n)
	return n, translate(err, "notice")
}

// MarkNoticesRead marks a member's notices read.
func (db *DB) MarkNoticesRead(ctx context.Context, userID int64, now time.Time) error {
	_, err := db.w.ExecContext(ctx, `UPDATE notices SET read_at = ? WHERE user_id = ? AND read_at IS NULL`, ms(now), userID)
	return translate(err, "notice")
}

// EmailSettings returns a member's e-mail address and whether he turned e-mail off.
func (db *DB) EmailSettings(ctx context.Context, userID int64) (string, bool, error) {
	var addr string
	var off int
	err := db.r.QueryRowContext(ctx, `SELECT email, email_off FROM users WHERE id = ?`, userID).Scan(&addr, &off)
	return addr, off != 0, translate(err, "member")
}

// SetEmail sets a member's e-mail address and whether he wants e-mail. Another address than his confirmed one
// forgets the confirmation: an address he gives up is not his for good.
func (db *DB) SetEmail(ctx context.Context, userID int64, address string, off bool) error {
	res, err := db.w.ExecContext(ctx, `UPDATE users SET email = ?, email_off = ?,
		email_confirmed = CASE WHEN email_confirmed = ? THEN email_confirmed ELSE '' END WHERE id = ?`, address, off, address, userID)
	if err != nil {
		return translate(err, "member")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.NotFound, "no such member")
	}
	return nil
}

// DueMail lists the unsent mails due at now, the longest waiting first.
func (db *DB) DueMail(ctx context.Context, now time.Time, limit int) ([]club.Mail, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+noticeCols+`, o.id, o.address, o.attempts, u.name, u.lang
		FROM outbox o JOIN notices x ON x.id = o.notice_id JOIN users u ON u.id = x.user_id LEFT JOIN club_nights n ON n.id = x.night_id
		WHERE o.sent_at IS NULL AND o.next_at <= ? ORDER BY o.next_at, o.id LIMIT ?`, ms(now), limit)
	if err != nil {
		return nil, translate(err, "outbox")
	}
	defer rows.Close()
	var out []club.Mail
	for rows.Next() {
		var m club.Mail
		if m.Notice, err = scanNotice(rows, &m.ID, &m.Address, &m.Attempts, &m.Name, &m.Lang); err != nil {
			return nil, translate(err, "outbox")
		}
		out = append(out, m)
	}
	return out, translate(rows.Err(), "outbox")
}

// MailSent records a mail as sent.
func (db *DB) MailSent(ctx context.Context, id int64, now time.Time) error {
	_, err := db.w.ExecContext(ctx, `UPDATE outbox SET sent_at = ?, attempts = attempts + 1, last_error = '' WHERE id = ?`, ms(now), id)
	return translate(err, "outbox")
}

// MailFailed records a failed attempt and the time of the next.
func (db *DB) MailFailed(ctx context.Context, id int64, reason string, next time.Time) error {
	_, err := db.w.ExecContext(ctx, `UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_at = ? WHERE id = ? AND sent_at IS NULL`, reason, ms(next), id)
	return translate(err, "outbox")
}

// StrikeReport counts the members' strikes in [from, to) and in [recentFrom, to), most strikes first.
func (db *DB) StrikeReport(ctx context.Context, from, to, recentFrom time.Time) ([]club.StrikeCount, error) {
	f, t, rf := ms(from), ms(to), ms(recentFrom)
	rows, err := db.r.QueryContext(ctx, `SELECT u.id, COALESCE(p.nick, u.name), u.login, u.status,
		SUM(CASE WHEN s.kind = 'late_cancellation' AND s.at >= ? AND s.at < ? THEN 1 ELSE 0 END),
		SUM(CASE WHEN s.kind = 'no_show' AND s.at >= ? AND s.at < ? THEN 1 ELSE 0 END),
		SUM(CASE WHEN s.at >= ? AND s.at < ? THEN 1 ELSE 0 END)
		FROM strikes s JOIN users u ON u.id = s.user_id LEFT JOIN players p ON p.id = u.player_id
		WHERE (s.at >= ? AND s.at < ?) OR (s.at >= ? AND s.at < ?)
		GROUP BY u.id, p.nick, u.name, u.login, u.status`, f, t, f, t, rf, t, f, t, rf, t)
	if err != nil {
		return nil, translate(err, "strike")
	}
	defer rows.Close()
	var out []club.StrikeCount
	for rows.Next() {
		var c club.StrikeCount
		var status string
		if err := rows.Scan(&c.UserID, &c.Nick, &c.Login, &status, &c.Late, &c.NoShow, &c.Recent); err != nil {
			return nil, translate(err, "strike")
		}
		c.Status = club.MemberStatus(status)
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Total() != b.Total() {
			return a.Total() > b.Total()
		}
		if a.Recent != b.Recent {
			return a.Recent > b.Recent
		}
		return club.NickKey(a.Nick) < club.NickKey(b.Nick)
	})
	return out, translate(rows.Err(), "strike")
}
