package sqlstore

import (
	"context"
	"database/sql"
	"math"
	"strconv"
	"strings"
	"time"

	"mafiaclub/internal/club"
)

// The ratings are kept in step with the results by the transactions that change them (setStatus, LinkGuest):
// rating_months (monthly sums, for seasons), standings (all-time lines, the rating page's pages), rated_games and
// the Elo columns of game_results (the Elo pass), and rating_state's version (the pages' ETag). A result counts in
// its rule set's rating when its game is rated and not a tournament's (game_results.counted).

// roleCols are the standings' per-role columns, in club.RatingRoles order.
var roleCols = func() string {
	var b strings.Builder
	for _, r := range club.RatingRoles {
		b.WriteString(", s." + r + "_games, s." + r + "_wins, s." + r + "_points")
	}
	return b.String()
}()

func scanStanding(rows *sql.Rows) (club.Standing, error) {
	var st club.Standing
	dest := []any{&st.PlayerID, &st.Nick, &st.Games, &st.Wins, &st.Points, &st.Elo}
	for i := range st.ByRole {
		dest = append(dest, &st.ByRole[i].Games, &st.ByRole[i].Wins, &st.ByRole[i].Points)
	}
	return st, rows.Scan(dest...)
}

// StandingsPage returns one page of a rule set's all-time rating in its order (by Elo when byElo), the players
// with fewer than minGames games left out, and how many lines the whole rating has.
func (db *DB) StandingsPage(ctx context.Context, rules string, minGames int, byElo bool, offset, limit int) ([]club.Standing, int, error) {
	var total int
	if err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM standings WHERE rules = ? AND games >= ?`, rules, max(minGames, 1)).Scan(&total); err != nil {
		return nil, 0, translate(err, "rating")
	}
	order := `s.points DESC, s.wins DESC, s.games, p.nick`
	if byElo {
		order = `s.elo DESC, ` + order
	}
	rows, err := db.r.QueryContext(ctx, `SELECT s.player_id, p.nick, s.games, s.wins, s.points, s.elo`+roleCols+`
		FROM standings s JOIN players p ON p.id = s.player_id WHERE s.rules = ? AND s.games >= ?
		ORDER BY `+order+` LIMIT ? OFFSET ?`, rules, max(minGames, 1), limit, offset)
	if err != nil {
		return nil, 0, translate(err, "rating")
	}
	defer rows.Close()
	var out []club.Standing
	for rows.Next() {
		st, err := scanStanding(rows)
		if err != nil {
			return nil, 0, translate(err, "rating")
		}
		st.Rank = offset + len(out) + 1
		out = append(out, st)
	}
	return out, total, translate(rows.Err(), "rating")
}

// RatingVersion is raised by every change to the ratings.
func (db *DB) RatingVersion(ctx context.Context) (int64, error) {
	var v int64
	err := db.r.QueryRowContext(ctx, `SELECT version FROM rating_state WHERE id = 1`).Scan(&v)
	return v, translate(err, "rating")
}

// Standings returns a rule set's rating, unordered: all time from the stored standings, or a season's from the
// monthly sums (whole months) and the results (the partial months at its edges), with the players' current Elo.
func (db *DB) Standings(ctx context.Context, f club.RatingFilter) ([]club.Standing, error) {
	rules := f.Scope()
	if !f.Season() {
		rows, err := db.r.QueryContext(ctx, `SELECT s.player_id, p.nick, s.games, s.wins, s.points, s.elo`+roleCols+`
			FROM standings s JOIN players p ON p.id = s.player_id WHERE s.rules = ? AND s.games >= ?`, rules, max(f.MinGames, 1))
		if err != nil {
			return nil, translate(err, "rating")
		}
		defer rows.Close()
		var out []club.Standing
		for rows.Next() {
			st, err := scanStanding(rows)
			if err != nil {
				return nil, translate(err, "rating")
			}
			out = append(out, st)
		}
		return out, translate(rows.Err(), "rating")
	}
	lo, hi := 0, 999999 // whole months [lo, hi)
	var edges [][2]int64
	if !f.From.IsZero() {
		m := monthOf(f.From)
		lo = m
		if !monthStart(m).Equal(f.From.UTC()) {
			lo = nextMonth(m)
			edges = append(edges, [2]int64{ms(f.From), ms(monthStart(lo))})
		}
	}
	if !f.To.IsZero() {
		hi = monthOf(f.To)
		if !monthStart(hi).Equal(f.To.UTC()) {
			edges = append(edges, [2]int64{ms(monthStart(hi)), ms(f.To)})
		}
	}
	if lo >= hi { // the season lies within a month or two partial ones: read it whole from the results
		from, to := int64(math.MinInt64), int64(math.MaxInt64)
		if !f.From.IsZero() {
			from = ms(f.From)
		}
		if !f.To.IsZero() {
			to = ms(f.To)
		}
		edges, lo, hi = [][2]int64{{from, to}}, 0, 0
	}
	byPlayer := map[int64]*club.Standing{}
	var order []int64
	add := func(rows *sql.Rows) error {
		defer rows.Close()
		for rows.Next() {
			var pid int64
			var role string
			var games, wins, points int
			if err := rows.Scan(&pid, &role, &games, &wins, &points); err != nil {
				return err
			}
			if pid == 0 {
				continue
			}
			st := byPlayer[pid]
			if st == nil {
				st = &club.Standing{PlayerID: pid, Elo: club.EloStart}
				byPlayer[pid] = st
				order = append(order, pid)
			}
			st.Games += games
			st.Wins += wins
			st.Points += points
			if i := club.RoleIndex(role); i >= 0 {
				st.ByRole[i].Games += games
				st.ByRole[i].Wins += wins
				st.ByRole[i].Points += points
			}
		}
		return rows.Err()
	}
	if lo < hi {
		rows, err := db.r.QueryContext(ctx, `SELECT player_id, role, SUM(games), SUM(wins), SUM(points) FROM rating_months
			WHERE rules = ? AND month >= ? AND month < ? GROUP BY player_id, role`, rules, lo, hi)
		if err != nil {
			return nil, translate(err, "rating")
		}
		if err := add(rows); err != nil {
			return nil, translate(err, "rating")
		}
	}
	for _, e := range edges {
		// guests (no player) are skipped in add: a condition on player_id here would lead the planner to the
		// players' index instead of the rating's
		rows, err := db.r.QueryContext(ctx, `SELECT COALESCE(r.player_id, 0), r.role, COUNT(*), SUM(r.won), SUM(r.points) FROM game_results r
			WHERE r.rules = ? AND r.counted = 1 AND r.played_at >= ? AND r.played_at < ?
			GROUP BY r.player_id, r.role`, rules, e[0], e[1])
		if err != nil {
			return nil, translate(err, "rating")
		}
		if err := add(rows); err != nil {
			return nil, translate(err, "rating")
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	rows, err := db.r.QueryContext(ctx, `SELECT p.id, p.nick, COALESCE(s.elo, ?) FROM players p
		LEFT JOIN standings s ON s.player_id = p.id AND s.rules = ?`, club.EloStart, rules)
	if err != nil {
		return nil, translate(err, "rating")
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var nick string
		var elo int
		if err := rows.Scan(&id, &nick, &elo); err != nil {
			return nil, translate(err, "rating")
		}
		if st := byPlayer[id]; st != nil {
			st.Nick, st.Elo = nick, elo
		}
	}
	out := make([]club.Standing, 0, len(order))
	for _, pid := range order {
		if st := byPlayer[pid]; st.Games > 0 && st.Games >= f.MinGames {
			out = append(out, *st)
		}
	}
	return out, translate(rows.Err(), "rating")
}

func monthOf(t time.Time) int {
	t = t.UTC()
	return t.Year()*100 + int(t.Month())
}

func monthStart(m int) time.Time { return time.Date(m/100, time.Month(m%100), 1, 0, 0, 0, 0, time.UTC) }

func nextMonth(m int) int { return monthOf(monthStart(m).AddDate(0, 1, 0)) }

// addCounted adds (sign 1) or removes (sign -1) counted results of club players to and from the monthly sums and
// the standings, in tx. A standing left without games is removed.
func addCounted(ctx context.Context, tx *txn, results []club.GameResult, sign int) error {
	for _, r := range results {
		if !r.Counted || r.PlayerID == 0 {
			continue
		}
		won := 0
		if r.Won {
			won = 1
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_months (player_id, rules, month, role, games, wins, points) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (rules, month, player_id, role) DO UPDATE SET games = rating_months.games + excluded.games,
			wins = rating_months.wins + excluded.wins, points = rating_months.points + excluded.points`,
			r.PlayerID, r.Rules, monthOf(r.PlayedAt), r.Role, sign, sign*won, sign*r.Points); err != nil {
			return translate(err, "rating")
		}
		cols, vals, role := "", "", ""
		a := []any{r.Rules, r.PlayerID, sign, sign * won, sign * r.Points, club.EloStart}
		if club.RoleIndex(r.Role) >= 0 {
			cols, vals = `, `+r.Role+`_games, `+r.Role+`_wins, `+r.Role+`_points`, `, ?, ?, ?`
			role = `, ` + r.Role + `_games = standings.` + r.Role + `_games + excluded.` + r.Role + `_games, ` +
				r.Role + `_wins = standings.` + r.Role + `_wins + excluded.` + r.Role + `_wins, ` +
				r.Role + `_points = standings.` + r.Role + `_points + excluded.` + r.Role + `_points`
			a = append(a, sign, sign*won, sign*r.Points)
		}
		q := `INSERT INTO standings (rules, player_id, games, wins, points, elo` + cols + `) VALUES (?, ?, ?, ?, ?, ?` + vals + `)
			ON CONFLICT (rules, player_id) DO UPDATE SET games = standings.games + excluded.games,
			wins = standings.wins + excluded.wins, points = standings.points + excluded.points` + role
		if _, err := tx.ExecContext(ctx, q, a...); err != nil {
			return translate(err, "rating")
		}
		if sign < 0 {
			if _, err := tx.ExecContext(ctx, `DELETE FROM standings WHERE rules = ? AND player_id = ? AND games <= 0`, r.Rules, r.PlayerID); err != nil {
				return translate(err, "rating")
			}
		}
	}
	return nil
}

// bumpRating raises the ratings' version; on PostgreSQL it first takes the ratings' row lock, so that the
// transactions that change the ratings take turns (the Elo pass reads what the one before wrote).
func bumpRating(ctx context.Context, tx *txn) error {
	if err := tx.lock(ctx, "rating_state", 1); err != nil {
		return translate(err, "rating")
	}
	_, err := tx.ExecContext(ctx, `UPDATE rating_state SET version = version + 1 WHERE id = 1`)
	return translate(err, "rating")
}

// eloKey is a counted game's place in its rating's order.
type eloKey struct {
	at   int64
	game int64
}

func (k eloKey) before(o eloKey) bool { return k.at < o.at || (k.at == o.at && k.game < o.game) }

// eloPass recomputes the Elo of a rule set's rating from the counted game at key from on, in one pass over the
// games from there: the state before it is what the earlier games left (their stored Elo and the side's tallies),
// which a change at from cannot have touched. dirty are the players whose results changed at from (a saved,
// reopened or linked game's): their Elo before it is read from their last earlier game. Every player whose Elo
// moved gets his standing's Elo set.
func eloPass(ctx context.Context, tx *txn, rules string, from eloKey, dirty map[int64]bool) error {
	games, red := 0, 0
	var gb, rb int
	var outcome string
	err := tx.QueryRowContext(ctx, `SELECT games_before, red_before, outcome FROM rated_games WHERE rules = ?
		AND (played_at < ? OR (played_at = ? AND game_id < ?)) ORDER BY played_at DESC, game_id DESC LIMIT 1`,
		rules, from.at, from.at, from.game).Scan(&gb, &rb, &outcome)
	switch {
	case err == nil:
		games, red = gb+1, rb
		if outcome == "red" {
			red++
		}
	case err != sql.ErrNoRows:
		return translate(err, "rating")
	}
	type seat struct {
		seat          int
		player        int64
		black         bool
		before, after sql.NullInt64
	}
	type game struct {
		id                 int64
		outcome            string
		gamesBefore, redBf int
		seats              []seat
	}
	var list []*game
	byID := map[int64]*game{}
	rows, err := tx.QueryContext(ctx, `SELECT game_id, outcome, games_before, red_before FROM rated_games WHERE rules = ?
		AND (played_at > ? OR (played_at = ? AND game_id >= ?)) ORDER BY played_at, game_id`, rules, from.at, from.at, from.game)
	if err != nil {
		return translate(err, "rating")
	}
	for rows.Next() {
		g := &game{}
		if err := rows.Scan(&g.id, &g.outcome, &g.gamesBefore, &g.redBf); err != nil {
			rows.Close()
			return translate(err, "rating")
		}
		list = append(list, g)
		byID[g.id] = g
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return translate(err, "rating")
	}
	rows, err = tx.QueryContext(ctx, `SELECT game_id, seat, COALESCE(player_id, 0), team, elo_before, elo_after FROM game_results
		WHERE rules = ? AND counted = 1 AND (played_at > ? OR (played_at = ? AND game_id >= ?)) ORDER BY game_id, seat`,
		rules, from.at, from.at, from.game)
	if err != nil {
		return translate(err, "rating")
	}
	for rows.Next() {
		var id int64
		var s seat
		var team string
		if err := rows.Scan(&id, &s.seat, &s.player, &team, &s.before, &s.after); err != nil {
			rows.Close()
			return translate(err, "rating")
		}
		s.black = team == "black"
		if g := byID[id]; g != nil {
			g.seats = append(g.seats, s)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return translate(err, "rating")
	}
	elo := map[int64]int{}
	prior := func(player int64) (int, error) {
		v := int64(club.EloStart)
		err := tx.QueryRowContext(ctx, `SELECT elo_after FROM game_results WHERE player_id = ? AND rules = ? AND counted = 1
			AND (played_at < ? OR (played_at = ? AND game_id < ?)) ORDER BY played_at DESC, game_id DESC LIMIT 1`,
			player, rules, from.at, from.at, from.game).Scan(&v)
		if err != nil && err != sql.ErrNoRows {
			return 0, translate(err, "rating")
		}
		return int(v), nil
	}
	for p := range dirty {
		v, err := prior(p)
		if err != nil {
			return err
		}
		elo[p] = v
	}
	for _, g := range list {
		var sum [2]float64
		var n [2]int
		for _, s := range g.seats {
			v := club.EloStart
			if s.player != 0 {
				cur, ok := elo[s.player]
				if !ok {
					if s.before.Valid {
						cur = int(s.before.Int64)
					} else if cur, err = prior(s.player); err != nil {
						return err
					}
					elo[s.player] = cur
				}
				v = cur
			}
			side := 0
			if s.black {
				side = 1
			}
			sum[side] += float64(v)
			n[side]++
		}
		mean := func(i int) float64 {
			if n[i] == 0 {
				return club.EloStart
			}
			return sum[i] / float64(n[i])
		}
		d := club.EloDelta(mean(0), mean(1), g.outcome, games, red)
		for _, s := range g.seats {
			if s.player == 0 {
				continue
			}
			b := elo[s.player]
			a := b + d
			if s.black {
				a = b - d
			}
			elo[s.player] = a
			if !s.before.Valid || !s.after.Valid || int(s.before.Int64) != b || int(s.after.Int64) != a {
				if _, err := tx.ExecContext(ctx, `UPDATE game_results SET elo_before = ?, elo_after = ? WHERE game_id = ? AND seat = ?`,
					b, a, g.id, s.seat); err != nil {
					return translate(err, "rating")
				}
			}
		}
		if g.gamesBefore != games || g.redBf != red {
			if _, err := tx.ExecContext(ctx, `UPDATE rated_games SET games_before = ?, red_before = ? WHERE game_id = ?`, games, red, g.id); err != nil {
				return translate(err, "rating")
			}
		}
		games++
		if g.outcome == "red" {
			red++
		}
	}
	for p, v := range elo {
		if _, err := tx.ExecContext(ctx, `UPDATE standings SET elo = ? WHERE rules = ? AND player_id = ? AND elo <> ?`, v, rules, p, v); err != nil {
			return translate(err, "rating")
		}
	}
	return nil
}

// rebuildRatings builds every rating from the results once (after the migration that introduced them): the
// standings and rated_games from the counted results, then the Elo of each rule set in one pass from its first game.
func (db *DB) rebuildRatings(ctx context.Context) error {
	var built int
	if err := db.w.QueryRowContext(ctx, `SELECT built FROM rating_state WHERE id = 1`).Scan(&built); err != nil {
		return translate(err, "rating")
	}
	if built == 1 {
		return nil
	}
	return db.inTx(ctx, "rating", func(tx *txn) error {
		if err := bumpRating(ctx, tx); err != nil {
			return err
		}
		var set []string
		for _, r := range club.RatingRoles {
			set = append(set, `SUM(CASE WHEN role = '`+r+`' THEN 1 ELSE 0 END), SUM(CASE WHEN role = '`+r+`' THEN won ELSE 0 END), SUM(CASE WHEN role = '`+r+`' THEN points ELSE 0 END)`)
		}
		for _, q := range []string{
			`DELETE FROM standings`,
			`DELETE FROM rated_games`,
			`DELETE FROM co_players`,
			`INSERT INTO co_players (rules, player_id, other_id, partner, games, wins)
				SELECT r.rules, r.player_id, o.player_id, CASE WHEN o.team = r.team THEN 1 ELSE 0 END, COUNT(*), SUM(r.won)
				FROM game_results r JOIN game_results o ON o.game_id = r.game_id AND o.player_id IS NOT NULL AND o.player_id <> r.player_id
				WHERE r.counted = 1 AND r.player_id IS NOT NULL
				GROUP BY r.rules, r.player_id, o.player_id, CASE WHEN o.team = r.team THEN 1 ELSE 0 END`,
			`INSERT INTO standings (rules, player_id, games, wins, points, elo` + strings.ReplaceAll(roleCols, "s.", "") + `)
				SELECT rules, player_id, COUNT(*), SUM(won), SUM(points), ` + itoa(club.EloStart) + `, ` + strings.Join(set, ", ") + `
				FROM game_results WHERE counted = 1 AND player_id IS NOT NULL GROUP BY rules, player_id`,
			`INSERT INTO rated_games (game_id, rules, played_at, players, outcome, games_before, red_before)
				SELECT g.id, g.rules, g.created_at, (SELECT COUNT(*) FROM game_results r WHERE r.game_id = g.id), g.winner, 0, 0
				FROM games g WHERE g.status = 'saved' AND EXISTS (SELECT 1 FROM game_results r WHERE r.game_id = g.id AND r.counted = 1)`,
			`UPDATE game_results SET elo_before = NULL, elo_after = NULL`,
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return translate(err, "rating")
			}
		}
		rows, err := tx.QueryContext(ctx, `SELECT DISTINCT rules FROM rated_games`)
		if err != nil {
			return translate(err, "rating")
		}
		var rules []string
		for rows.Next() {
			var r string
			if err := rows.Scan(&r); err != nil {
				rows.Close()
				return translate(err, "rating")
			}
			rules = append(rules, r)
		}
		rows.Close()
		for _, r := range rules {
			if err := eloPass(ctx, tx, r, eloKey{math.MinInt64, 0}, nil); err != nil {
				return err
			}
		}
		_, err = tx.ExecContext(ctx, `UPDATE rating_state SET built = 1 WHERE id = 1`)
		return translate(err, "rating")
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// resultCols are game_results' columns as scanResult reads them.
const resultCols = `game_id, seat, COALESCE(player_id, 0), role, won, points, rated, played_at, rules, counted, team,
	COALESCE(elo_before, 0), COALESCE(elo_after, 0), first_killed, bm_named, bm_blacks, checks, checks_black, don_checks,
	don_found, votes, votes_black, noms, noms_black, fouls, disq, summary`

func scanResult(row interface{ Scan(...any) error }) (club.GameResult, error) {
	var r club.GameResult
	var won, rated, counted, first, disq, summary int
	var at int64
	st := &r.Stats
	err := row.Scan(&r.GameID, &r.Seat, &r.PlayerID, &r.Role, &won, &r.Points, &rated, &at, &r.Rules, &counted, &r.Team,
		&r.EloBefore, &r.EloAfter, &first, &st.BestNamed, &st.BestBlacks, &st.Checks, &st.ChecksBlack, &st.DonChecks,
		&st.DonFound, &st.Votes, &st.VotesBlack, &st.Noms, &st.NomsBlack, &st.Fouls, &disq, &summary)
	r.Won, r.Rated, r.Counted, r.PlayedAt, r.Summary = won == 1, rated == 1, counted == 1, fromMS(at), summary == 1
	st.FirstKilled, st.Disq = first == 1, disq == 1
	return r, err
}

// insertResult stores one result with its figures.
func insertResult(ctx context.Context, tx *txn, r club.GameResult) error {
	var player any
	if r.PlayerID != 0 {
		player = r.PlayerID
	}
	st := r.Stats
	_, err := tx.ExecContext(ctx, `INSERT INTO game_results (game_id, seat, player_id, role, won, points, rated, played_at, rules,
		counted, team, first_killed, bm_named, bm_blacks, checks, checks_black, don_checks, don_found, votes, votes_black, noms,
		noms_black, fouls, disq, stats_ok, summary) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
		r.GameID, r.Seat, player, r.Role, r.Won, r.Points, r.Rated, ms(r.PlayedAt), r.Rules, r.Counted, r.Team, st.FirstKilled,
		st.BestNamed, st.BestBlacks, st.Checks, st.ChecksBlack, st.DonChecks, st.DonFound, st.Votes, st.VotesBlack, st.Noms,
		st.NomsBlack, st.Fouls, st.Disq, r.Summary)
	return translate(err, "result")
}

// gameResults reads stored results in tx.
func gameResults(ctx context.Context, tx *txn, where string, args ...any) ([]club.GameResult, error) {
	rows, err := tx.QueryContext(ctx, `SELECT `+resultCols+` FROM game_results WHERE `+where, args...)
	if err != nil {
		return nil, translate(err, "result")
	}
	defer rows.Close()
	var out []club.GameResult
	for rows.Next() {
		r, err := scanResult(rows)
		if err != nil {
			return nil, translate(err, "result")
		}
		out = append(out, r)
	}
	return out, translate(rows.Err(), "result")
}

// PlayerResults lists a player's results in saved games, oldest first (in the ratings' order), with their figures.
func (db *DB) PlayerResults(ctx context.Context, playerID int64) ([]club.GameResult, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT `+resultCols+` FROM game_results WHERE player_id = ? ORDER BY played_at, game_id`, playerID)
	if err != nil {
		return nil, translate(err, "result")
	}
	defer rows.Close()
	var out []club.GameResult
	for rows.Next() {
		r, err := scanResult(rows)
		if err != nil {
			return nil, translate(err, "result")
		}
		out = append(out, r)
	}
	return out, translate(rows.Err(), "result")
}

// changeResults replaces a game's results (old, as read in tx) by results (none for a reopened game) and keeps
// every rating in step, in tx: the monthly sums, the standings, rated_games, the Elo from this game on, and the
// ratings' version.
func changeResults(ctx context.Context, tx *txn, gameID int64, old, results []club.GameResult, winner string) error {
	passes, err := replaceResults(ctx, tx, gameID, old, results, winner)
	if err != nil {
		return err
	}
	for _, p := range passes {
		if err := eloPass(ctx, tx, p.rules, p.from, p.dirty); err != nil {
			return err
		}
	}
	return nil
}

// eloDue is an Elo pass a change of results needs: its rule set's, from a game on, with the players it changed.
type eloDue struct {
	rules string
	from  eloKey
	dirty map[int64]bool
}

// replaceResults is changeResults without its Elo passes, which it returns: a change of many games (an import of
// summaries) runs one pass per rule set from its earliest game instead of one per game.
func replaceResults(ctx context.Context, tx *txn, gameID int64, old, results []club.GameResult, winner string) ([]eloDue, error) {
	if err := bumpRating(ctx, tx); err != nil {
		return nil, err
	}
	if err := addCounted(ctx, tx, old, -1); err != nil {
		return nil, err
	}
	if err := addCoPlayers(ctx, tx, old, -1); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM game_results WHERE game_id = ?`, gameID); err != nil {
		return nil, translate(err, "result")
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM rated_games WHERE game_id = ?`, gameID); err != nil {
		return nil, translate(err, "rating")
	}
	for _, r := range results {
		if err := insertResult(ctx, tx, r); err != nil {
			return nil, err
		}
	}
	if err := addCounted(ctx, tx, results, 1); err != nil {
		return nil, err
	}
	if err := addCoPlayers(ctx, tx, results, 1); err != nil {
		return nil, err
	}
	// the Elo from this game on, in the rule set of each side of the change
	type scope struct {
		rules string
		at    int64
	}
	passes := map[scope]map[int64]bool{}
	for _, list := range [][]club.GameResult{old, results} {
		for _, r := range list {
			if !r.Counted {
				continue
			}
			k := scope{r.Rules, ms(r.PlayedAt)}
			if passes[k] == nil {
				passes[k] = map[int64]bool{}
			}
			if r.PlayerID != 0 {
				passes[k][r.PlayerID] = true
			}
		}
	}
	if len(results) > 0 && results[0].Counted {
		r := results[0]
		if _, err := tx.ExecContext(ctx, `INSERT INTO rated_games (game_id, rules, played_at, players, outcome, games_before, red_before)
			VALUES (?, ?, ?, ?, ?, 0, 0)`, gameID, r.Rules, ms(r.PlayedAt), len(results), winner); err != nil {
			return nil, translate(err, "rating")
		}
	}
	var due []eloDue
	for k, dirty := range passes {
		due = append(due, eloDue{k.rules, eloKey{k.at, gameID}, dirty})
	}
	return due, nil
}

// GamesWithoutStats lists up to limit saved games whose results have no figures yet (saved before they existed).
func (db *DB) GamesWithoutStats(ctx context.Context, limit int) ([]int64, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT DISTINCT game_id FROM game_results WHERE stats_ok = 0 ORDER BY game_id LIMIT ?`, limit)
	if err != nil {
		return nil, translate(err, "result")
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, translate(err, "result")
		}
		out = append(out, id)
	}
	return out, translate(rows.Err(), "result")
}

// SetResultStats stores the figures of a saved game's seats (computed from its record); its points, its results
// and the ratings do not change.
func (db *DB) SetResultStats(ctx context.Context, gameID int64, stats []club.SeatStats) error {
	return db.inTx(ctx, "result", func(tx *txn) error {
		for i, st := range stats {
			if _, err := tx.ExecContext(ctx, `UPDATE game_results SET first_killed = ?, bm_named = ?, bm_blacks = ?, checks = ?,
				checks_black = ?, don_checks = ?, don_found = ?, votes = ?, votes_black = ?, noms = ?, noms_black = ?, fouls = ?,
				disq = ?, stats_ok = 1 WHERE game_id = ? AND seat = ?`, st.FirstKilled, st.BestNamed, st.BestBlacks, st.Checks,
				st.ChecksBlack, st.DonChecks, st.DonFound, st.Votes, st.VotesBlack, st.Noms, st.NomsBlack, st.Fouls, st.Disq,
				gameID, i+1); err != nil {
				return translate(err, "result")
			}
		}
		return bumpRating(ctx, tx)
	})
}

// RatedGames lists a rule set's counted games in the ratings' order: when, how many players, who won.
func (db *DB) RatedGames(ctx context.Context, rules string) ([]club.RatedGame, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT game_id, played_at, players, outcome FROM rated_games WHERE rules = ? ORDER BY played_at, game_id`, rules)
	if err != nil {
		return nil, translate(err, "rating")
	}
	defer rows.Close()
	var out []club.RatedGame
	for rows.Next() {
		var g club.RatedGame
		var at int64
		if err := rows.Scan(&g.GameID, &at, &g.Players, &g.Winner); err != nil {
			return nil, translate(err, "rating")
		}
		g.PlayedAt = fromMS(at)
		out = append(out, g)
	}
	return out, translate(rows.Err(), "rating")
}

// CoPlayers counts, for a player's counted games of a rule set, the club players he sat with: in his team and
// against it, with the games his team won. They are kept in co_players, in step with the results (addCoPlayers),
// so this reads his rows only: reading his games' 9,000 other seats took two thirds of his statistics' time over
// 50,000 games (docs/rating-speed.md).
func (db *DB) CoPlayers(ctx context.Context, playerID int64, rules string) ([]club.CoPlayer, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT c.other_id, c.partner, c.games, c.wins, COALESCE(p.nick, '') FROM co_players c
		LEFT JOIN players p ON p.id = c.other_id WHERE c.rules = ? AND c.player_id = ? AND c.games > 0`, rules, playerID)
	if err != nil {
		return nil, translate(err, "rating")
	}
	defer rows.Close()
	out := []club.CoPlayer{}
	for rows.Next() {
		var c club.CoPlayer
		var partner int
		if err := rows.Scan(&c.PlayerID, &partner, &c.Games, &c.Wins, &c.Nick); err != nil {
			return nil, translate(err, "rating")
		}
		c.Partner = partner == 1
		out = append(out, c)
	}
	return out, translate(rows.Err(), "rating")
}

// addCoPlayers adds (sign 1) or removes (sign -1) the meetings of one game's results (every seat of it, as
// stored) to and from co_players: for each counted result of a club player, every other club player's seat at
// that game, as a partner (the same team) or an opponent, with whether the first one won. One statement for the
// game's rows, summed here first (PostgreSQL refuses a statement that updates a row twice).
func addCoPlayers(ctx context.Context, tx *txn, results []club.GameResult, sign int) error {
	type key struct {
		rules   string
		p, o    int64
		partner int
	}
	delta := map[key][2]int{}
	var keys []key
	players := map[key]bool{} // rules and player only
	for _, r := range results {
		if !r.Counted || r.PlayerID == 0 {
			continue
		}
		for _, o := range results {
			if o.GameID != r.GameID || o.PlayerID == 0 || o.PlayerID == r.PlayerID {
				continue
			}
			k := key{r.Rules, r.PlayerID, o.PlayerID, 0}
			if o.Team == r.Team {
				k.partner = 1
			}
			v, ok := delta[k]
			if !ok {
				keys = append(keys, k)
			}
			v[0] += sign
			if r.Won {
				v[1] += sign
			}
			delta[k] = v
			players[key{rules: r.Rules, p: r.PlayerID}] = true
		}
	}
	for len(keys) > 0 {
		chunk := keys[:min(len(keys), 150)]
		keys = keys[len(chunk):]
		args := make([]any, 0, 6*len(chunk))
		for _, k := range chunk {
			v := delta[k]
			args = append(args, k.rules, k.p, k.o, k.partner, v[0], v[1])
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO co_players (rules, player_id, other_id, partner, games, wins) VALUES (?, ?, ?, ?, ?, ?)`+
			strings.Repeat(`, (?, ?, ?, ?, ?, ?)`, len(chunk)-1)+` ON CONFLICT (rules, player_id, other_id, partner) DO UPDATE
			SET games = co_players.games + excluded.games, wins = co_players.wins + excluded.wins`, args...); err != nil {
			return translate(err, "rating")
		}
	}
	if sign < 0 {
		for k := range players {
			if _, err := tx.ExecContext(ctx, `DELETE FROM co_players WHERE rules = ? AND player_id = ? AND games <= 0`, k.rules, k.p); err != nil {
				return translate(err, "rating")
			}
		}
	}
	return nil
}
