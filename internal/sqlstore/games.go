package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"mafiaclub/internal/club"
)

// CreateGame stores a new live game with its seats.
func (db *DB) CreateGame(ctx context.Context, g *club.Game) error {
	if g.CreatedAt.IsZero() {
		g.CreatedAt = db.now()
	}
	return db.inTx(ctx, "game", func(tx *txn) error { return createGame(ctx, tx, g) })
}

// inTx runs f in one write transaction and commits it.
func (db *DB) inTx(ctx context.Context, what string, f func(tx *txn) error) error {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return translate(err, what)
	}
	defer tx.Rollback()
	if err := f(tx); err != nil {
		return err
	}
	return translate(tx.Commit(), what)
}

func createGame(ctx context.Context, tx *txn, g *club.Game) error {
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return club.Errorf(club.Invalid, "options: %v", err)
	}
	if g.Options == nil {
		opts = []byte("{}")
	}
	var night any
	if g.NightID != 0 {
		night = g.NightID
	}
	var source any
	if g.Source != "" {
		source = g.Source
	}
	var stage, round, table any
	if g.StageID != 0 {
		stage, round, table = g.StageID, g.Round, g.TableNo
	}
	g.ID, err = tx.insert(ctx, `INSERT INTO games (rules, options, rated, status, host_id, created_at, night_id, source, stage_id, round_no, table_no, dealt, extra)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.Rules, string(opts), g.Rated, string(club.GameLive), g.HostID, ms(g.CreatedAt), night, source, stage, round, table, g.Dealt, string(g.Extra))
	if err != nil {
		if club.ErrorCode(translate(err, "game")) == club.Conflict {
			if g.StageID != 0 {
				return club.Errorf(club.Conflict, "the game of round %d at table %d exists already", g.Round, g.TableNo)
			}
			return club.Errorf(club.Conflict, "the game %s was imported already", g.Source)
		}
		return translate(err, "game")
	}
	for _, s := range g.Seats {
		var player any
		if s.PlayerID != 0 {
			player = s.PlayerID
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO game_seats (game_id, seat, role, name, player_id) VALUES (?, ?, ?, ?, ?)`,
			g.ID, s.Seat, s.Role, s.Name, player); err != nil {
			return translate(err, "seat")
		}
	}
	g.Status, g.Version, g.Events = club.GameLive, 0, 0
	return nil
}

const gameCols = `g.id, g.rules, g.options, g.rated, g.status, g.host_id, u.name, g.version, g.events, g.winner, g.created_at, COALESCE(g.saved_at, 0), COALESCE(g.night_id, 0), COALESCE(g.source, ''), COALESCE(g.stage_id, 0), COALESCE(g.round_no, 0), COALESCE(g.table_no, 0), g.dealt, g.extra`

func scanGame(row interface{ Scan(...any) error }) (*club.Game, error) {
	var g club.Game
	var opts, status, extra string
	var created, saved int64
	if err := row.Scan(&g.ID, &g.Rules, &opts, &g.Rated, &status, &g.HostID, &g.HostName, &g.Version, &g.Events, &g.Winner, &created, &saved, &g.NightID, &g.Source, &g.StageID, &g.Round, &g.TableNo, &g.Dealt, &extra); err != nil {
		return nil, err
	}
	if extra != "" {
		g.Extra = json.RawMessage(extra)
	}
	if err := json.Unmarshal([]byte(opts), &g.Options); err != nil {
		return nil, err
	}
	g.Status, g.CreatedAt = club.GameStatus(status), fromMS(created)
	if saved != 0 {
		g.SavedAt = fromMS(saved)
	}
	return &g, nil
}

// Game returns a game with its seats. On PostgreSQL it is one statement, the seats aggregated into the row: a live
// game is read at every change by each server's feed, the host's action and the live API, and a round trip is
// what a read costs there (docs/federation.md; BenchmarkGamePostgres). On SQLite, in the process, two plain
// statements cost less than the aggregate (BenchmarkGameSQLite).
func (db *DB) Game(ctx context.Context, id int64) (*club.Game, error) {
	if db.dialect == "postgres" {
		var seats []byte
		g, err := scanGame(seatsRow{db.r.QueryRowContext(ctx, `SELECT `+gameCols+`, COALESCE((SELECT json_agg(json_build_object(
			'seat', s.seat, 'role', s.role, 'name', s.name, 'player', COALESCE(s.player_id, 0)) ORDER BY s.seat)
			FROM game_seats s WHERE s.game_id = g.id), '[]')
			FROM games g JOIN users u ON u.id = g.host_id WHERE g.id = ?`, id), &seats})
		if err != nil {
			return nil, translate(err, "game")
		}
		var list []struct {
			Seat   int    `json:"seat"`
			Role   string `json:"role"`
			Name   string `json:"name"`
			Player int64  `json:"player"`
		}
		if err := json.Unmarshal(seats, &list); err != nil {
			return nil, fmt.Errorf("game %d: its seats: %w", id, err)
		}
		for _, st := range list {
			g.Seats = append(g.Seats, club.Seat{Seat: st.Seat, Role: st.Role, Name: st.Name, PlayerID: st.Player})
		}
		return g, nil
	}
	g, err := scanGame(db.r.QueryRowContext(ctx, `SELECT `+gameCols+` FROM games g JOIN users u ON u.id = g.host_id WHERE g.id = ?`, id))
	if err != nil {
		return nil, translate(err, "game")
	}
	rows, err := db.r.QueryContext(ctx, `SELECT seat, role, name, COALESCE(player_id, 0) FROM game_seats WHERE game_id = ? ORDER BY seat`, id)
	if err != nil {
		return nil, translate(err, "game")
	}
	defer rows.Close()
	for rows.Next() {
		var s club.Seat
		if err := rows.Scan(&s.Seat, &s.Role, &s.Name, &s.PlayerID); err != nil {
			return nil, translate(err, "seat")
		}
		g.Seats = append(g.Seats, s)
	}
	return g, translate(rows.Err(), "seat")
}

// seatsRow scans a game's row with its seats' JSON after the game's columns.
type seatsRow struct {
	row   *sql.Row
	seats *[]byte
}

func (r seatsRow) Scan(dest ...any) error { return r.row.Scan(append(dest, r.seats)...) }

// gameWhere is the condition of a game filter on games g, with its arguments.
func gameWhere(f club.GameFilter) (string, []any) {
	q := `1 = 1`
	var args []any
	if f.Status != "" {
		q += ` AND g.status = ?`
		args = append(args, string(f.Status))
	}
	if f.HostID != 0 {
		q += ` AND g.host_id = ?`
		args = append(args, f.HostID)
	}
	if f.NightID != 0 {
		q += ` AND g.night_id = ?`
		args = append(args, f.NightID)
	}
	if f.StageID != 0 {
		q += ` AND g.stage_id = ?`
		args = append(args, f.StageID)
	}
	if f.PlayerID != 0 {
		q += ` AND EXISTS (SELECT 1 FROM game_seats s WHERE s.game_id = g.id AND s.player_id = ?)`
		args = append(args, f.PlayerID)
	}
	if f.Rules != "" {
		q += ` AND g.rules = ?`
		args = append(args, f.Rules)
	}
	if !f.From.IsZero() {
		q += ` AND g.created_at >= ?`
		args = append(args, ms(f.From))
	}
	if !f.To.IsZero() {
		q += ` AND g.created_at < ?`
		args = append(args, ms(f.To))
	}
	return q, args
}

// GameIDs lists every game's id, in order.
func (db *DB) GameIDs(ctx context.Context) ([]int64, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT id FROM games ORDER BY id`)
	if err != nil {
		return nil, translate(err, "game")
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, translate(err, "game")
		}
		out = append(out, id)
	}
	return out, translate(rows.Err(), "game")
}

// CountGames counts the games a filter selects (its limit aside).
func (db *DB) CountGames(ctx context.Context, f club.GameFilter) (int, error) {
	where, args := gameWhere(f)
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM games g WHERE `+where, args...).Scan(&n)
	return n, translate(err, "game")
}

// Games lists games, newest first, without their seats.
func (db *DB) Games(ctx context.Context, f club.GameFilter) ([]club.Game, error) {
	where, args := gameWhere(f)
	q := `SELECT ` + gameCols + ` FROM games g JOIN users u ON u.id = g.host_id WHERE ` + where
	limit := f.Limit
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	q += ` ORDER BY g.created_at DESC, g.id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, translate(err, "game")
	}
	defer rows.Close()
	var out []club.Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			return nil, translate(err, "game")
		}
		out = append(out, *g)
	}
	return out, translate(rows.Err(), "game")
}

// Events returns a game's log in order.
func (db *DB) Events(ctx context.Context, gameID int64) ([]club.StoredEvent, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT seq, event, at, by_user FROM game_events WHERE game_id = ? ORDER BY seq`, gameID)
	if err != nil {
		return nil, translate(err, "event")
	}
	defer rows.Close()
	var out []club.StoredEvent
	for rows.Next() {
		var e club.StoredEvent
		var ev string
		var at int64
		if err := rows.Scan(&e.Seq, &ev, &at, &e.By); err != nil {
			return nil, translate(err, "event")
		}
		e.JSON, e.At = []byte(ev), fromMS(at)
		out = append(out, e)
	}
	return out, translate(rows.Err(), "event")
}

// bump raises a live game's version from version, in tx; it tells a changed version (Conflict) from a saved game
// (Closed) and a missing one (NotFound).
func bump(ctx context.Context, tx *txn, gameID, version int64, eventsDelta int, wantStatus club.GameStatus) error {
	res, err := tx.ExecContext(ctx, `UPDATE games SET version = version + 1, events = events + ? WHERE id = ? AND version = ? AND status = ?`,
		eventsDelta, gameID, version, string(wantStatus))
	if err != nil {
		return translate(err, "game")
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	var status string
	var cur int64
	if err := tx.QueryRowContext(ctx, `SELECT status, version FROM games WHERE id = ?`, gameID).Scan(&status, &cur); err != nil {
		return translate(err, "game")
	}
	if cur != version {
		return club.Errorf(club.Conflict, "someone else changed this game")
	}
	if wantStatus == club.GameLive {
		return club.Errorf(club.Closed, "the game is saved; an admin may reopen it")
	}
	return club.Errorf(club.Invalid, "the game is not %s", wantStatus)
}

// Append adds events to a live game's log at version, atomically: on SQLite in the next group commit (group.go),
// on PostgreSQL in a transaction of its own (the server groups concurrent commits itself).
func (db *DB) Append(ctx context.Context, gameID, version int64, key club.ActionKey, events []club.StoredEvent) error {
	if db.dialect == "sqlite" {
		return db.groupAppend(ctx, gameID, version, key, events)
	}
	err := db.inTx(ctx, "game", func(tx *txn) error { return appendEvents(ctx, tx, gameID, version, key, events) })
	if key.Key != "" && club.ErrorCode(err) == club.Conflict && !errors.Is(err, club.ErrRecorded) {
		// A copy of this request that ran alongside recorded the key after this transaction looked for it: this
		// one waited for the game's row and found another version. Its key, read now that the other has committed,
		// says whether that was this very action (answered as done) or another's change.
		if digest, ok, rerr := db.ActionRecorded(ctx, gameID, key.Key); rerr == nil && ok {
			if digest == "" || digest == key.Digest {
				return club.ErrRecorded
			}
			return club.ErrKeyReused
		}
	}
	return err
}

// ActionRecorded reports whether a game has recorded the action of an idempotency key, and its digest.
func (db *DB) ActionRecorded(ctx context.Context, gameID int64, key string) (string, bool, error) {
	var digest string
	err := db.r.QueryRowContext(ctx, `SELECT digest FROM action_keys WHERE game_id = ? AND akey = ?`, gameID, key).Scan(&digest)
	if err == sql.ErrNoRows {
		return "", false, nil
	}
	if err != nil {
		return "", false, translate(err, "action")
	}
	return digest, true, nil
}

// appendEvents appends in tx; a key the game has recorded already is club.ErrRecorded (the same action, or one
// recorded before digests were kept) or club.ErrKeyReused (another action), before anything else.
func appendEvents(ctx context.Context, tx *txn, gameID, version int64, key club.ActionKey, events []club.StoredEvent) error {
	if key.Key != "" {
		var digest string
		err := tx.QueryRowContext(ctx, `SELECT digest FROM action_keys WHERE game_id = ? AND akey = ?`, gameID, key.Key).Scan(&digest)
		switch {
		case err == nil && (digest == "" || digest == key.Digest):
			return club.ErrRecorded
		case err == nil:
			return club.ErrKeyReused
		case err != sql.ErrNoRows:
			return translate(err, "action")
		}
	}
	if err := bump(ctx, tx, gameID, version, len(events), club.GameLive); err != nil {
		return err
	}
	if key.Key != "" {
		if _, err := tx.ExecContext(ctx, `INSERT INTO action_keys (game_id, akey, version, digest) VALUES (?, ?, ?, ?)`, gameID, key.Key, version+1, key.Digest); err != nil {
			return translate(err, "action")
		}
	}
	for _, e := range events {
		if _, err := tx.ExecContext(ctx, `INSERT INTO game_events (game_id, seq, event, at, by_user) VALUES (?, ?, ?, ?, ?)`,
			gameID, e.Seq, string(e.JSON), ms(e.At), e.By); err != nil {
			if club.ErrorCode(translate(err, "event")) == club.Conflict {
				return club.Errorf(club.Conflict, "someone else changed this game")
			}
			return translate(err, "event")
		}
	}
	return nil
}

// TakeOver makes to the host of a game whose host is from, and logs it, in one transaction.
func (db *DB) TakeOver(ctx context.Context, gameID, from, to int64, a club.AuditEntry) (bool, error) {
	took := false
	err := db.inTx(ctx, "game", func(tx *txn) error {
		res, err := tx.ExecContext(ctx, `UPDATE games SET host_id = ? WHERE id = ? AND host_id = ?`, to, gameID, from)
		if err != nil {
			return translate(err, "game")
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		took = true
		return audit(ctx, tx, gameID, a)
	})
	return took && err == nil, err
}

// Undo removes the last event of a live game at version and logs it.
func (db *DB) Undo(ctx context.Context, gameID, version int64, a club.AuditEntry) (club.StoredEvent, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return club.StoredEvent{}, translate(err, "game")
	}
	defer tx.Rollback()
	if err := bump(ctx, tx, gameID, version, -1, club.GameLive); err != nil {
		return club.StoredEvent{}, err
	}
	var e club.StoredEvent
	var ev string
	var at int64
	err = tx.QueryRowContext(ctx, `SELECT seq, event, at, by_user FROM game_events WHERE game_id = ? ORDER BY seq DESC LIMIT 1`, gameID).Scan(&e.Seq, &ev, &at, &e.By)
	if err == sql.ErrNoRows {
		return e, club.Errorf(club.Invalid, "there is nothing to undo")
	}
	if err != nil {
		return e, translate(err, "event")
	}
	e.JSON, e.At = []byte(ev), fromMS(at)
	if _, err := tx.ExecContext(ctx, `DELETE FROM game_events WHERE game_id = ? AND seq = ?`, gameID, e.Seq); err != nil {
		return e, translate(err, "event")
	}
	if err := audit(ctx, tx, gameID, a); err != nil {
		return e, err
	}
	return e, translate(tx.Commit(), "game")
}

func audit(ctx context.Context, tx *txn, gameID int64, a club.AuditEntry) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO game_audit (game_id, at, by_user, action, detail) VALUES (?, ?, ?, ?, ?)`,
		gameID, ms(a.At), a.By, a.Action, a.Detail)
	return translate(err, "audit entry")
}

// SetStatus saves or reopens a game at version, and logs it.
func (db *DB) SetStatus(ctx context.Context, gameID, version int64, status club.GameStatus, rated bool, winner string, results []club.GameResult, a club.AuditEntry) error {
	return db.inTx(ctx, "game", func(tx *txn) error {
		return setStatus(ctx, tx, gameID, version, status, rated, winner, results, a)
	})
}

// ImportGame files a game recorded elsewhere in one transaction: the game and its whole log, and a finished one's
// results, saved; an unfinished one (g.Status live) stays live, its import logged. Nothing of it stays behind when
// any part fails.
func (db *DB) ImportGame(ctx context.Context, g *club.Game, events []club.StoredEvent, winner string, results []club.GameResult, a club.AuditEntry) error {
	live := g.Status == club.GameLive
	return db.inTx(ctx, "game", func(tx *txn) error {
		if err := createGame(ctx, tx, g); err != nil {
			return err
		}
		if err := appendEvents(ctx, tx, g.ID, 0, club.ActionKey{}, events); err != nil {
			return err
		}
		g.Version, g.Events = 1, len(events)
		if live {
			return audit(ctx, tx, g.ID, a)
		}
		for i := range results {
			results[i].GameID = g.ID
		}
		if err := setStatus(ctx, tx, g.ID, 1, club.GameSaved, g.Rated, winner, results, a); err != nil {
			return err
		}
		g.Status, g.Version = club.GameSaved, 2
		return nil
	})
}

func setStatus(ctx context.Context, tx *txn, gameID, version int64, status club.GameStatus, rated bool, winner string, results []club.GameResult, a club.AuditEntry) error {
	from := club.GameLive
	if status == club.GameLive {
		from = club.GameSaved
	}
	if err := bump(ctx, tx, gameID, version, 0, from); err != nil {
		return err
	}
	var saved any
	if status == club.GameSaved {
		saved = ms(a.At)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE games SET status = ?, rated = ?, winner = ?, saved_at = ? WHERE id = ?`,
		string(status), rated, winner, saved, gameID); err != nil {
		return translate(err, "game")
	}
	old, err := gameResults(ctx, tx, `game_id = ?`, gameID)
	if err != nil {
		return err
	}
	if err := changeResults(ctx, tx, gameID, old, results, winner); err != nil {
		return err
	}
	if err := audit(ctx, tx, gameID, a); err != nil {
		return err
	}
	return nil
}

// Audit returns a game's audit log in order.
func (db *DB) Audit(ctx context.Context, gameID int64) ([]club.AuditEntry, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT a.at, a.by_user, u.name, a.action, a.detail FROM game_audit a
		JOIN users u ON u.id = a.by_user WHERE a.game_id = ? ORDER BY a.id`, gameID)
	if err != nil {
		return nil, translate(err, "audit entry")
	}
	defer rows.Close()
	var out []club.AuditEntry
	for rows.Next() {
		var a club.AuditEntry
		var at int64
		if err := rows.Scan(&at, &a.By, &a.ByName, &a.Action, &a.Detail); err != nil {
			return nil, translate(err, "audit entry")
		}
		a.At = fromMS(at)
		out = append(out, a)
	}
	return out, translate(rows.Err(), "audit entry")
}

// LinkGuest gives a player profile to the seats played under a guest's name, results included, and logs it.
func (db *DB) LinkGuest(ctx context.Context, guestName string, gameID, playerID int64, ch club.MemberChange) (int, error) {
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return 0, translate(err, "guest")
	}
	defer tx.Rollback()
	// one seat per game, and never in a game the player sat in himself: one game counts once for him
	q := `SELECT game_id, MIN(seat) FROM game_seats g WHERE player_id IS NULL AND name = ?
		AND NOT EXISTS (SELECT 1 FROM game_seats o WHERE o.game_id = g.game_id AND o.player_id = ?)`
	args := []any{guestName, playerID}
	if gameID != 0 {
		q += ` AND game_id = ?`
		args = append(args, gameID)
	}
	rows, err := tx.QueryContext(ctx, q+` GROUP BY game_id`, args...)
	if err != nil {
		return 0, translate(err, "guest")
	}
	type key struct {
		game int64
		seat int
	}
	var seats []key
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.game, &k.seat); err != nil {
			rows.Close()
			return 0, translate(err, "guest")
		}
		seats = append(seats, k)
	}
	rows.Close()
	if len(seats) == 0 {
		return 0, club.Errorf(club.NotFound, "no guest seat named %q", guestName)
	}
	if err := bumpRating(ctx, tx); err != nil {
		return 0, err
	}
	// the linked results join his standings; the Elo of each rule set is recomputed from his first linked game
	first := map[string]eloKey{}
	for _, k := range seats {
		// the game's meetings (co_players) are taken out and put back with him in the seat
		before, err := gameResults(ctx, tx, `game_id = ?`, k.game)
		if err != nil {
			return 0, err
		}
		if err := addCoPlayers(ctx, tx, before, -1); err != nil {
			return 0, err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE game_seats SET player_id = ? WHERE game_id = ? AND seat = ?`, playerID, k.game, k.seat); err != nil {
			return 0, translate(err, "guest")
		}
		if _, err := tx.ExecContext(ctx, `UPDATE game_results SET player_id = ? WHERE game_id = ? AND seat = ?`, playerID, k.game, k.seat); err != nil {
			return 0, translate(err, "guest")
		}
		after, err := gameResults(ctx, tx, `game_id = ?`, k.game)
		if err != nil {
			return 0, err
		}
		if err := addCoPlayers(ctx, tx, after, 1); err != nil {
			return 0, err
		}
		linked, err := gameResults(ctx, tx, `game_id = ? AND seat = ?`, k.game, k.seat)
		if err != nil {
			return 0, err
		}
		if err := addCounted(ctx, tx, linked, 1); err != nil {
			return 0, err
		}
		for _, r := range linked {
			key := eloKey{ms(r.PlayedAt), r.GameID}
			if f, ok := first[r.Rules]; r.Counted && (!ok || key.before(f)) {
				first[r.Rules] = key
			}
		}
	}
	for rules, key := range first {
		if err := eloPass(ctx, tx, rules, key, map[int64]bool{playerID: true}); err != nil {
			return 0, err
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO member_log (user_id, at, by_user, field, from_value, to_value, reason) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		ch.UserID, ms(ch.At), ch.By, "linked", guestName, fmt.Sprintf("%d seats", len(seats)), ch.Reason); err != nil {
		return 0, translate(err, "member log")
	}
	return len(seats), translate(tx.Commit(), "guest")
}
