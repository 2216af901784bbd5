package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"mafiaclub/internal/club"
)

// CreateNight adds a club night.
func (db *DB) CreateNight(ctx context.Context, n *club.ClubNight) error {
	if n.CreatedAt.IsZero() {
		n.CreatedAt = db.now()
	}
	id, err := db.w.insert(ctx, `INSERT INTO club_nights (starts_at, place, tables, per_table, created_by, created_at, note) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		ms(n.StartsAt), n.Place, n.Tables, n.PerTable, n.CreatedBy, ms(n.CreatedAt), n.Note)
	if err != nil {
		return translate(err, "club night")
	}
	n.ID = id
	return nil
}

const nightCols = `n.id, n.starts_at, n.place, n.tables, n.per_table, n.created_by, n.created_at, n.note, COALESCE(n.cancelled_at, 0),
	(SELECT COUNT(*) FROM registrations r WHERE r.night_id = n.id AND r.state = 'main'),
	(SELECT COUNT(*) FROM registrations r WHERE r.night_id = n.id AND r.state = 'reserve')`

func scanNight(row interface{ Scan(...any) error }) (*club.ClubNight, error) {
	var n club.ClubNight
	var starts, created, cancelled int64
	if err := row.Scan(&n.ID, &starts, &n.Place, &n.Tables, &n.PerTable, &n.CreatedBy, &created, &n.Note, &cancelled, &n.Main, &n.Reserve); err != nil {
		return nil, err
	}
	n.StartsAt, n.CreatedAt = fromMS(starts), fromMS(created)
	if cancelled != 0 {
		n.Cancelled = fromMS(cancelled)
	}
	return &n, nil
}

// Night returns a club night with its line-up counts.
func (db *DB) Night(ctx context.Context, id int64) (*club.ClubNight, error) {
	n, err := scanNight(db.r.QueryRowContext(ctx, `SELECT `+nightCols+` FROM club_nights n WHERE n.id = ?`, id))
	return n, translate(err, "club night")
}

// Nights lists the nights starting in [from, to), soonest first.
func (db *DB) Nights(ctx context.Context, from, to time.Time) ([]club.ClubNight, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+nightCols+` FROM club_nights n WHERE n.starts_at >= ? AND n.starts_at < ? ORDER BY n.starts_at, n.id`, ms(from), ms(to))
	if err != nil {
		return nil, translate(err, "club night")
	}
	defer rows.Close()
	var out []club.ClubNight
	for rows.Next() {
		n, err := scanNight(rows)
		if err != nil {
			return nil, translate(err, "club night")
		}
		out = append(out, *n)
	}
	return out, translate(rows.Err(), "club night")
}

// Register adds a registration in one transaction, so that two members never take the last place together.
func (db *DB) Register(ctx context.Context, nightID, userID int64, now time.Time) (*club.Registration, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, translate(err, "registration")
	}
	defer tx.Rollback()
	if err := tx.lock(ctx, "club_nights", nightID); err != nil {
		return nil, translate(err, "club night")
	}
	var status string
	if err := tx.QueryRowContext(ctx, `SELECT status FROM users WHERE id = ?`, userID).Scan(&status); err != nil {
		return nil, translate(err, "member")
	}
	switch club.MemberStatus(status) {
	case club.StatusExcluded:
		return nil, club.ErrExcluded
	case club.StatusPending:
		return nil, club.ErrNotApproved
	}
	n, err := scanNight(tx.QueryRowContext(ctx, `SELECT `+nightCols+` FROM club_nights n WHERE n.id = ?`, nightID))
	if err != nil {
		return nil, translate(err, "club night")
	}
	if !now.Before(n.StartsAt) {
		return nil, club.Errorf(club.Invalid, "the club night has begun")
	}
	if n.IsCancelled() {
		return nil, club.Errorf(club.Invalid, "the club night is cancelled")
	}
	var dup int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM registrations WHERE night_id = ? AND user_id = ? AND state != 'cancelled'`, nightID, userID).Scan(&dup); err != nil {
		return nil, translate(err, "registration")
	}
	if dup > 0 {
		return nil, club.Errorf(club.Conflict, "already registered for this night")
	}
	r := &club.Registration{NightID: nightID, UserID: userID, State: club.RegReserve, At: now}
	// R99: a low-priority member never takes a main place.
	if club.MemberStatus(status) == club.StatusActive && n.Main < n.MainSize() {
		r.State = club.RegMain
	}
	if r.ID, err = tx.insert(ctx, `INSERT INTO registrations (night_id, user_id, state, at) VALUES (?, ?, ?, ?)`, nightID, userID, string(r.State), ms(now)); err != nil {
		return nil, translate(err, "registration")
	}
	return r, translate(tx.Commit(), "registration")
}

// Cancel cancels a registration, records a late cancellation's strike and promotes from the reserve.
func (db *DB) Cancel(ctx context.Context, nightID, userID int64, now time.Time, late bool) (*club.Registration, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, translate(err, "registration")
	}
	defer tx.Rollback()
	if err := tx.lock(ctx, "club_nights", nightID); err != nil {
		return nil, translate(err, "club night")
	}
	var r club.Registration
	var state string
	var at int64
	err = tx.QueryRowContext(ctx, `SELECT id, state, at FROM registrations WHERE night_id = ? AND user_id = ? AND state != 'cancelled'`,
		nightID, userID).Scan(&r.ID, &state, &at)
	if err == sql.ErrNoRows {
		return nil, club.Errorf(club.NotFound, "not registered for this night")
	}
	if err != nil {
		return nil, translate(err, "registration")
	}
	r.NightID, r.UserID, r.At, r.State, r.CancelledAt, r.Late = nightID, userID, fromMS(at), club.RegCancelled, now, late
	if _, err := tx.ExecContext(ctx, `UPDATE registrations SET state = 'cancelled', cancelled_at = ?, late = ? WHERE id = ?`, ms(now), late, r.ID); err != nil {
		return nil, translate(err, "registration")
	}
	if err := dropReminders(ctx, tx, userID, nightID); err != nil {
		return nil, err
	}
	if late {
		if err := strike(ctx, tx, userID, nightID, club.StrikeLate, now); err != nil {
			return nil, err
		}
	}
	if club.RegState(state) == club.RegMain {
		// the first of the reserve, in registration order, who may take a main place
		if err := fillMain(ctx, tx, nightID, now); err != nil {
			return nil, err
		}
	}
	return &r, translate(tx.Commit(), "registration")
}

// SetNoShow marks or unmarks a main-line-up member who did not come, with the strike.
func (db *DB) SetNoShow(ctx context.Context, nightID, userID int64, noShow bool, now time.Time) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, "registration")
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `UPDATE registrations SET no_show = ? WHERE night_id = ? AND user_id = ? AND state = 'main'`, noShow, nightID, userID)
	if err != nil {
		return translate(err, "registration")
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return club.Errorf(club.NotFound, "not on the main line-up of this night")
	}
	if noShow {
		err = strike(ctx, tx, userID, nightID, club.StrikeNoShow, now)
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM strikes WHERE user_id = ? AND night_id = ? AND kind = ?`, userID, nightID, string(club.StrikeNoShow))
	}
	if err != nil {
		return translate(err, "strike")
	}
	return translate(tx.Commit(), "registration")
}

const regCols = `r.id, r.night_id, r.user_id, COALESCE(p.nick, u.name), u.status, r.state, r.at, COALESCE(r.cancelled_at, 0), r.late, r.no_show`

func (db *DB) registrations(ctx context.Context, where string, arg int64) ([]club.Registration, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+regCols+` FROM registrations r JOIN users u ON u.id = r.user_id
		LEFT JOIN players p ON p.id = u.player_id WHERE `+where+` ORDER BY r.at, r.id`, arg)
	if err != nil {
		return nil, translate(err, "registration")
	}
	defer rows.Close()
	var out []club.Registration
	for rows.Next() {
		var r club.Registration
		var state, status string
		var at, cancelled int64
		if err := rows.Scan(&r.ID, &r.NightID, &r.UserID, &r.Nick, &status, &state, &at, &cancelled, &r.Late, &r.NoShow); err != nil {
			return nil, translate(err, "registration")
		}
		r.State, r.At, r.Status = club.RegState(state), fromMS(at), club.MemberStatus(status)
		if cancelled != 0 {
			r.CancelledAt = fromMS(cancelled)
		}
		out = append(out, r)
	}
	return out, translate(rows.Err(), "registration")
}

// Registrations lists a night's registrations in registration order.
func (db *DB) Registrations(ctx context.Context, nightID int64) ([]club.Registration, error) {
	return db.registrations(ctx, "r.night_id = ?", nightID)
}

// UserRegistrations lists a member's registrations.
func (db *DB) UserRegistrations(ctx context.Context, userID int64) ([]club.Registration, error) {
	return db.registrations(ctx, "r.user_id = ?", userID)
}

// Strikes lists a member's strikes, oldest first.
func (db *DB) Strikes(ctx context.Context, userID int64) ([]club.Strike, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT user_id, night_id, kind, at FROM strikes WHERE user_id = ? ORDER BY at, id`, userID)
	if err != nil {
		return nil, translate(err, "strike")
	}
	defer rows.Close()
	var out []club.Strike
	for rows.Next() {
		var s club.Strike
		var kind string
		var at int64
		if err := rows.Scan(&s.UserID, &s.NightID, &kind, &at); err != nil {
			return nil, translate(err, "strike")
		}
		s.Kind, s.At = club.StrikeKind(kind), fromMS(at)
		out = append(out, s)
	}
	return out, translate(rows.Err(), "strike")
}
