package sqlstore

import (
	"context"
	"database/sql"
	"math"
	"time"

	"mafiaclub/internal/club"
)

// Standings sums the rated results of club players in the season. Whole months come from rating_months; the
// partial months at the season's edges come from game_results, so the page reads a few thousand rows however
// long the club's history is.
func (db *DB) Standings(ctx context.Context, f club.RatingFilter) ([]club.Standing, error) {
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
			st := byPlayer[pid]
			if st == nil {
				st = &club.Standing{PlayerID: pid}
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
			WHERE month >= ? AND month < ? GROUP BY player_id, role`, lo, hi)
		if err != nil {
			return nil, translate(err, "rating")
		}
		if err := add(rows); err != nil {
			return nil, translate(err, "rating")
		}
	}
	for _, e := range edges {
		rows, err := db.r.QueryContext(ctx, `SELECT r.player_id, r.role, COUNT(*), SUM(r.won), SUM(r.points) FROM game_results r
			WHERE r.rated = 1 AND r.player_id IS NOT NULL AND r.played_at >= ? AND r.played_at < ?
			GROUP BY r.player_id, r.role`, e[0], e[1])
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
	nicks, err := db.r.QueryContext(ctx, `SELECT id, nick FROM players`)
	if err != nil {
		return nil, translate(err, "rating")
	}
	defer nicks.Close()
	for nicks.Next() {
		var id int64
		var nick string
		if err := nicks.Scan(&id, &nick); err != nil {
			return nil, translate(err, "rating")
		}
		if st := byPlayer[id]; st != nil {
			st.Nick = nick
		}
	}
	out := make([]club.Standing, 0, len(order))
	for _, pid := range order {
		if st := byPlayer[pid]; st.Games > 0 {
			out = append(out, *st)
		}
	}
	return out, translate(nicks.Err(), "rating")
}

func monthOf(t time.Time) int {
	t = t.UTC()
	return t.Year()*100 + int(t.Month())
}

func monthStart(m int) time.Time { return time.Date(m/100, time.Month(m%100), 1, 0, 0, 0, 0, time.UTC) }

func nextMonth(m int) int { return monthOf(monthStart(m).AddDate(0, 1, 0)) }

// addMonths adds (sign 1) or removes (sign -1) rated results of club players from the monthly sums, in tx.
func addMonths(ctx context.Context, tx *txn, results []club.GameResult, sign int) error {
	for _, r := range results {
		if !r.Rated || r.PlayerID == 0 {
			continue
		}
		won := 0
		if r.Won {
			won = 1
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_months (player_id, month, role, games, wins, points) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (player_id, month, role) DO UPDATE SET games = rating_months.games + excluded.games,
			wins = rating_months.wins + excluded.wins, points = rating_months.points + excluded.points`,
			r.PlayerID, monthOf(r.PlayedAt), r.Role, sign, sign*won, sign*r.Points); err != nil {
			return translate(err, "rating")
		}
	}
	return nil
}

// gameResults reads a game's stored results in tx.
func gameResults(ctx context.Context, tx *txn, where string, args ...any) ([]club.GameResult, error) {
	rows, err := tx.QueryContext(ctx, `SELECT game_id, seat, COALESCE(player_id, 0), role, won, points, rated, played_at FROM game_results WHERE `+where, args...)
	if err != nil {
		return nil, translate(err, "result")
	}
	defer rows.Close()
	var out []club.GameResult
	for rows.Next() {
		var r club.GameResult
		var won, rated int
		var at int64
		if err := rows.Scan(&r.GameID, &r.Seat, &r.PlayerID, &r.Role, &won, &r.Points, &rated, &at); err != nil {
			return nil, translate(err, "result")
		}
		r.Won, r.Rated, r.PlayedAt = won == 1, rated == 1, fromMS(at)
		out = append(out, r)
	}
	return out, translate(rows.Err(), "result")
}

// PlayerResults lists a player's results in saved games, oldest first.
func (db *DB) PlayerResults(ctx context.Context, playerID int64) ([]club.GameResult, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT game_id, seat, role, won, points, rated, played_at FROM game_results
		WHERE player_id = ? ORDER BY played_at, game_id`, playerID)
	if err != nil {
		return nil, translate(err, "result")
	}
	defer rows.Close()
	var out []club.GameResult
	for rows.Next() {
		r := club.GameResult{PlayerID: playerID}
		var at int64
		if err := rows.Scan(&r.GameID, &r.Seat, &r.Role, &r.Won, &r.Points, &r.Rated, &at); err != nil {
			return nil, translate(err, "result")
		}
		r.PlayedAt = fromMS(at)
		out = append(out, r)
	}
	return out, translate(rows.Err(), "result")
}
