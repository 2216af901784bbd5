package sqlstore

import (
	"context"
	"math"

	"mafiaclub/internal/club"
)

// Standings sums the rated results of club players in the season, in one pass over the results table.
func (db *DB) Standings(ctx context.Context, f club.RatingFilter) ([]club.Standing, error) {
	from, to := int64(math.MinInt64), int64(math.MaxInt64)
	if !f.From.IsZero() {
		from = ms(f.From)
	}
	if !f.To.IsZero() {
		to = ms(f.To)
	}
	q := `SELECT r.player_id, p.nick, COUNT(*), SUM(r.won), SUM(r.points)`
	for range club.RatingRoles {
		q += `, SUM(CASE WHEN r.role = ? THEN 1 ELSE 0 END), SUM(CASE WHEN r.role = ? AND r.won = 1 THEN 1 ELSE 0 END), SUM(CASE WHEN r.role = ? THEN r.points ELSE 0 END)`
	}
	q += ` FROM game_results r JOIN players p ON p.id = r.player_id
		WHERE r.rated = 1 AND r.player_id IS NOT NULL AND r.played_at >= ? AND r.played_at < ?
		GROUP BY r.player_id, p.nick`
	var args []any
	for _, role := range club.RatingRoles {
		args = append(args, role, role, role)
	}
	args = append(args, from, to)
	rows, err := db.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, translate(err, "rating")
	}
	defer rows.Close()
	var out []club.Standing
	for rows.Next() {
		var s club.Standing
		dst := []any{&s.PlayerID, &s.Nick, &s.Games, &s.Wins, &s.Points}
		for i := range s.ByRole {
			dst = append(dst, &s.ByRole[i].Games, &s.ByRole[i].Wins, &s.ByRole[i].Points)
		}
		if err := rows.Scan(dst...); err != nil {
			return nil, translate(err, "rating")
		}
		out = append(out, s)
	}
	return out, translate(rows.Err(), "rating")
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
