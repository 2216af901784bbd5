package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// fillHistory writes games rated games of ten players each, drawn from players club players, straight into the
// tables (no replay: this measures the reading, not the engine), then builds the ratings from them as the store
// does after its migration (standings, Elo).
func fillHistory(b *testing.B, db *DB, players, games int) {
	ctx := context.Background()
	host := &club.User{Login: "bench-host", Name: "Bench", Role: club.RoleHost, PasswordHash: "x"}
	if err := db.CreateUser(ctx, host); err != nil {
		b.Fatal(err)
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	for i := 0; i < players; i++ {
		if _, err := tx.ExecContext(ctx, `INSERT INTO players (nick, nick_key, created_at) VALUES (?, ?, ?)`, fmt.Sprintf("p%03d", i), fmt.Sprintf("p%03d", i), 0); err != nil {
			b.Fatal(err)
		}
	}
	var firstPlayer int64
	if err := tx.QueryRowContext(ctx, `SELECT MIN(id) FROM players`).Scan(&firstPlayer); err != nil {
		b.Fatal(err)
	}
	type key struct {
		player int64
		month  int
		role   string
	}
	sums := map[key]*[3]int{}
	rng := rand.New(rand.NewPCG(7, 7))
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	const batch = 100 // games per statement
	for g0 := 0; g0 < games; g0 += batch {
		var gq, rq strings.Builder
		var gargs, rargs []any
		gq.WriteString(`INSERT INTO games (id, rules, options, rated, status, host_id, created_at, winner) VALUES `)
		rq.WriteString(`INSERT INTO game_results (game_id, seat, player_id, role, won, points, rated, played_at, rules, counted, team,
			votes, votes_black, noms, noms_black, fouls, stats_ok) VALUES `)
		for g := g0; g < g0+batch && g < games; g++ {
			id := int64(g + 1)
			at := base.Add(time.Duration(rng.IntN(3*365*24)) * time.Hour).UnixMilli()
			if g > g0 {
				gq.WriteString(", ")
			}
			gq.WriteString("(?, ?, ?, ?, ?, ?, ?, ?)")
			perm := rng.Perm(players)
			redWins := rng.IntN(2) == 0
			winner := "black"
			if redWins {
				winner = "red"
			}
			gargs = append(gargs, id, "fiim-2025-club", "{}", 1, "saved", host.ID, at, winner)
			for s := 0; s < 10; s++ {
				if g > g0 || s > 0 {
					rq.WriteString(", ")
				}
				rq.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, 1)")
				black := roles[s] == "mafia" || roles[s] == "don"
				team := "red"
				if black {
					team = "black"
				}
				won := redWins != black
				pts := 30 + rng.IntN(20) - 5
				if won {
					pts = 130 + rng.IntN(80) - 10
				}
				votes := rng.IntN(6)
				noms := rng.IntN(3)
				rargs = append(rargs, id, s+1, firstPlayer+int64(perm[s]), roles[s], won, pts, 1, at, "fiim-2025-club", team,
					votes, rng.IntN(votes+1), noms, rng.IntN(noms+1), rng.IntN(3))
				k := key{firstPlayer + int64(perm[s]), monthOf(time.UnixMilli(at)), roles[s]}
				if sums[k] == nil {
					sums[k] = &[3]int{}
				}
				sums[k][0]++
				sums[k][2] += pts
				if won {
					sums[k][1]++
				}
			}
		}
		if _, err := tx.ExecContext(ctx, gq.String(), gargs...); err != nil {
			b.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, rq.String(), rargs...); err != nil {
			b.Fatal(err)
		}
	}
	// the monthly sums the store keeps when it saves a game
	var keys []key
	for k := range sums {
		keys = append(keys, k)
	}
	for i := 0; i < len(keys); i += 500 {
		var q strings.Builder
		var a []any
		q.WriteString(`INSERT INTO rating_months (player_id, rules, month, role, games, wins, points) VALUES `)
		for j := i; j < i+500 && j < len(keys); j++ {
			if j > i {
				q.WriteString(", ")
			}
			q.WriteString("(?, ?, ?, ?, ?, ?, ?)")
			v := sums[keys[j]]
			a = append(a, keys[j].player, "fiim-2025-club", keys[j].month, keys[j].role, v[0], v[1], v[2])
		}
		if _, err := tx.ExecContext(ctx, q.String(), a...); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE rating_state SET built = 0`); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	// the standings, rated_games and Elo, built as the store builds them after its migration
	if err := db.rebuildRatings(ctx); err != nil {
		b.Fatal(err)
	}
	if db.dialect == "postgres" {
		if _, err := db.w.ExecContext(ctx, `ANALYZE`); err != nil {
			b.Fatal(err)
		}
	}
}

// benchStandings measures the standings of the whole history and of one season, sorted, over 50,000 rated games
// and 500 players.
func benchStandings(b *testing.B, db *DB) {
	fillHistory(b, db, 500, 50000)
	ctx := context.Background()
	for _, f := range []struct {
		name string
		f    club.RatingFilter
	}{
		{"all", club.RatingFilter{}},
		{"season", club.RatingFilter{From: time.Date(2025, 9, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}},
	} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				list, err := db.Standings(ctx, f.f)
				if err != nil || len(list) != 500 {
					b.Fatalf("%d players, %v", len(list), err)
				}
				club.SortStandings(list)
			}
		})
	}
}

func BenchmarkStandingsSQLite(b *testing.B) {
	db, err := Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	benchStandings(b, db)
}

func BenchmarkStandingsPostgres(b *testing.B) {
	db, err := Open(context.Background(), freshPostgres(b))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	benchStandings(b, db)
}

// benchGame reads a live game with its ten seats, as every server's feed, the host's action and the live API do
// at every change of a watched game (docs/federation.md).
func benchGame(b *testing.B, db *DB) {
	ctx := context.Background()
	host := &club.User{Login: "bench-host", Name: "Bench", Role: club.RoleHost, PasswordHash: "x"}
	if err := db.CreateUser(ctx, host); err != nil {
		b.Fatal(err)
	}
	g := &club.Game{Rules: "fiim-2025-club", Options: map[string]json.RawMessage{}, HostID: host.ID}
	for i := 1; i <= 10; i++ {
		g.Seats = append(g.Seats, club.Seat{Seat: i, Role: "citizen", Name: fmt.Sprintf("Player %d", i)})
	}
	if err := db.CreateGame(ctx, g); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := db.Game(ctx, g.ID)
		if err != nil || len(got.Seats) != 10 {
			b.Fatalf("%+v %v", got, err)
		}
	}
}

func BenchmarkGameSQLite(b *testing.B) {
	db, err := Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	benchGame(b, db)
}

func BenchmarkGamePostgres(b *testing.B) {
	db, err := Open(context.Background(), freshPostgres(b))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	benchGame(b, db)
}
