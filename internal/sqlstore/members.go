package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"mafiaclub/internal/club"
)

// CreateMember adds a player profile and its pending account in one transaction.
func (db *DB) CreateMember(ctx context.Context, u *club.User, p *club.Player) error {
	now := db.now()
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "member")
	}
	defer tx.Rollback()
	if p.ID, err = tx.insert(ctx, `INSERT INTO players (nick, nick_key, real_name, created_at) VALUES (?, ?, ?, ?)`, p.Nick, nickKey(p.Nick), p.RealName, ms(now)); err != nil {
		return translate(err, "player")
	}
	if u.Status == "" {
		u.Status = club.StatusPending
	}
	u.PlayerID, u.CreatedAt = p.ID, now
	if u.ID, err = tx.insert(ctx, `INSERT INTO users (login, name, role, password_hash, player_id, lang, status, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, u.Login, u.Name, string(u.Role), u.PasswordHash, p.ID, u.Lang, string(u.Status), ms(now)); err != nil {
		return translate(err, "login "+u.Login)
	}
	return translate(tx.Commit(), "member")
}

// Members lists every account with its nickname and strikes, by login.
func (db *DB) Members(ctx context.Context) ([]club.User, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT u.id, u.login, u.name, u.role, u.password_hash, COALESCE(u.player_id, 0), u.lang,
		u.status, u.created_at, COALESCE(p.nick, ''), (SELECT COUNT(*) FROM strikes s WHERE s.user_id = u.id)
		FROM users u LEFT JOIN players p ON p.id = u.player_id ORDER BY u.status = 'pending' DESC, lower(u.login)`)
	if err != nil {
		return nil, translate(err, "member")
	}
	defer rows.Close()
	var out []club.User
	for rows.Next() {
		var u club.User
		var role, status string
		var created int64
		if err := rows.Scan(&u.ID, &u.Login, &u.Name, &role, &u.PasswordHash, &u.PlayerID, &u.Lang, &status, &created, &u.Nick, &u.Strikes); err != nil {
			return nil, translate(err, "member")
		}
		u.Role, u.Status, u.CreatedAt = club.Role(role), club.MemberStatus(status), fromMS(created)
		out = append(out, u)
	}
	return out, translate(rows.Err(), "member")
}

// ChangeMember sets a member's status or role and logs the change with its reason, in one transaction.
func (db *DB) ChangeMember(ctx context.Context, ch club.MemberChange) error {
	col := map[string]string{"status": "status", "role": "role"}[ch.Field]
	if col == "" {
		return club.Errorf(club.Invalid, "unknown field %q", ch.Field)
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "member")
	}
	defer tx.Rollback()
	if err := tx.lock(ctx, "users", ch.UserID); err != nil {
		return translate(err, "member")
	}
	var from string
	if err := tx.QueryRowContext(ctx, `SELECT `+col+` FROM users WHERE id = ?`, ch.UserID).Scan(&from); err != nil {
		return translate(err, "member")
	}
	if _, err := tx.ExecContext(ctx, `UPDATE users SET `+col+` = ? WHERE id = ?`, ch.To, ch.UserID); err != nil {
		return translate(err, "member")
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO member_log (user_id, at, by_user, field, from_value, to_value, reason) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		ch.UserID, ms(ch.At), ch.By, ch.Field, from, ch.To, ch.Reason); err != nil {
		return translate(err, "member log")
	}
	if ch.Field == "status" && from != ch.To {
		if err := statusReachesNights(ctx, tx, ch); err != nil {
			return err
		}
		// the member is told of his new status (an approval, low priority, an exclusion, a return)
		if err := notify(ctx, tx, ch.UserID, club.NoticeStatus, 0, ch.To, ch.At); err != nil {
			return err
		}
	}
	return translate(tx.Commit(), "member")
}

// statusReachesNights applies a new status to the member's registrations for the nights that have not begun: an
// excluded member leaves their line-ups (no strike: it is the club's decision, not a cancellation), a
// low-priority member moves from a main line-up to the reserve (R99), and each night's main line-up is filled
// again from its reserve, in registration order.
func statusReachesNights(ctx context.Context, tx *txn, ch club.MemberChange) error {
	rows, err := tx.QueryContext(ctx, `SELECT r.id, r.night_id, r.state FROM registrations r JOIN club_nights n ON n.id = r.night_id
		WHERE r.user_id = ? AND r.state != 'cancelled' AND n.starts_at > ?`, ch.UserID, ms(ch.At))
	if err != nil {
		return translate(err, "registration")
	}
	type reg struct {
		id, night int64
		state     string
	}
	var regs []reg
	for rows.Next() {
		var r reg
		if err := rows.Scan(&r.id, &r.night, &r.state); err != nil {
			rows.Close()
			return translate(err, "registration")
		}
		regs = append(regs, r)
	}
	rows.Close()
	for _, r := range regs {
		if err := tx.lock(ctx, "club_nights", r.night); err != nil {
			return translate(err, "club night")
		}
		var res sql.Result
		kind, detail := club.NoticeKind(""), ""
		switch club.MemberStatus(ch.To) {
		case club.StatusExcluded:
			res, err = tx.ExecContext(ctx, `UPDATE registrations SET state = 'cancelled', cancelled_at = ?, late = ? WHERE id = ?`, ms(ch.At), false, r.id)
			kind = club.NoticeRemoved
		case club.StatusLowPriority:
			res, err = tx.ExecContext(ctx, `UPDATE registrations SET state = 'reserve' WHERE id = ? AND state = 'main'`, r.id)
			kind, detail = club.NoticeDemoted, string(club.StatusLowPriority)
		}
		if err != nil {
			return translate(err, "registration")
		}
		// every change of a member's place tells him, as fewer places on a night do
		if res != nil {
			if k, _ := res.RowsAffected(); k > 0 {
				if err := notify(ctx, tx, ch.UserID, kind, r.night, detail, ch.At); err != nil {
					return err
				}
				if kind == club.NoticeRemoved {
					if err := dropReminders(ctx, tx, ch.UserID, r.night); err != nil {
						return err
					}
				}
			}
		}
		if err := fillMain(ctx, tx, r.night, ch.At); err != nil {
			return err
		}
	}
	return nil
}

// fillMain moves the first active members of a night's reserve, in registration order, to its main line-up while
// it has free places, and tells each of them (in the same transaction).
func fillMain(ctx context.Context, tx *txn, nightID int64, now time.Time) error {
	var free int
	if err := tx.QueryRowContext(ctx, `SELECT n.tables * n.per_table - (SELECT COUNT(*) FROM registrations r WHERE r.night_id = n.id AND r.state = 'main')
		FROM club_nights n WHERE n.id = ?`, nightID).Scan(&free); err != nil {
		return translate(err, "club night")
	}
	for ; free > 0; free-- {
		var regID, userID int64
		err := tx.QueryRowContext(ctx, `SELECT r.id, r.user_id FROM registrations r JOIN users u ON u.id = r.user_id
			WHERE r.night_id = ? AND r.state = 'reserve' AND u.status = 'active' ORDER BY r.at, r.id LIMIT 1`, nightID).Scan(&regID, &userID)
		if err == sql.ErrNoRows {
			break
		}
		if err != nil {
			return translate(err, "registration")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE registrations SET state = 'main' WHERE id = ?`, regID); err != nil {
			return translate(err, "registration")
		}
		if err := notify(ctx, tx, userID, club.NoticePromoted, nightID, "", now); err != nil {
			return err
		}
	}
	return nil
}

// MemberLog returns the changes to a member, oldest first.
func (db *DB) MemberLog(ctx context.Context, userID int64) ([]club.MemberChange, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT l.at, l.user_id, l.by_user, u.name, l.field, l.from_value, l.to_value, l.reason
		FROM member_log l JOIN users u ON u.id = l.by_user WHERE l.user_id = ? ORDER BY l.id`, userID)
	if err != nil {
		return nil, translate(err, "member log")
	}
	defer rows.Close()
	var out []club.MemberChange
	for rows.Next() {
		var c club.MemberChange
		var at int64
		if err := rows.Scan(&at, &c.UserID, &c.By, &c.ByName, &c.Field, &c.From, &c.To, &c.Reason); err != nil {
			return nil, translate(err, "member log")
		}
		c.At = fromMS(at)
		out = append(out, c)
	}
	return out, translate(rows.Err(), "member log")
}
