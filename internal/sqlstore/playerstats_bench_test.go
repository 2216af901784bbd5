package sqlstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// BenchmarkPlayerStats: a player's statistics (club.Records.PlayerStats, what /api/players/{id}/stats draws) and
// his page's data (PlayerPage: his profile, every result, the statistics) for the player with the most games in
// a club of 50,000 games, through the club's services, without HTTP. Reproduce:
//
//	go test ./internal/sqlstore -run '^$' -bench 'PlayerStats/SQLite' -benchtime 20x
func BenchmarkPlayerStats(b *testing.B) {
	for _, dbName := range []string{"SQLite", "Postgres"} {
		b.Run(dbName, func(b *testing.B) {
			var db *DB
			var err error
			if dbName == "SQLite" {
				db, err = Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
			} else {
				db, err = Open(context.Background(), freshPostgres(b))
			}
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			fillHistory(b, db, 500, 50000)
			ctx := context.Background()
			var top int64
			if err := db.r.QueryRowContext(ctx, `SELECT player_id FROM game_results GROUP BY player_id ORDER BY COUNT(*) DESC LIMIT 1`).Scan(&top); err != nil {
				b.Fatal(err)
			}
			svc := club.NewServices(db, club.NewClock(time.UTC, nil))
			b.Run("stats", func(b *testing.B) {
				for b.Loop() {
					if _, err := svc.Records.PlayerStats(ctx, top, ""); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("page", func(b *testing.B) {
				for b.Loop() {
					if _, _, _, err := svc.Records.PlayerPage(ctx, top, ""); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
