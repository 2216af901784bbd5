package sqlstore

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
)

// BenchmarkPages measures the public pages players read most, served in-process on a loopback listener over a
// generated history (fillHistory): the rating page, a player's page (the player with the most games) and his
// statistics API, and beside them the front door (/), with one client and with 20 at once. Each request is timed
// from the send to the last byte of the answer; reported: p50 and p99 in milliseconds and the throughput in
// requests per second. A repeated request that carries the ETag it was given is measured separately ("304"). Figures: docs/rating-speed.md.
//
//	go test ./internal/sqlstore -run '^$' -bench 'Pages/SQLite' -benchtime 1x
//	TEST_DATABASE_URL=... go test ./internal/sqlstore -run '^$' -bench 'Pages/Postgres' -benchtime 1x
func BenchmarkPages(b *testing.B) {
	for _, dbName := range []string{"SQLite", "Postgres"} {
		for _, size := range []struct{ players, games int }{{329, 5000}, {500, 50000}} {
			b.Run(fmt.Sprintf("%s/games=%d", dbName, size.games), func(b *testing.B) {
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
				fillHistory(b, db, size.players, size.games)
				benchPages(b, db)
			})
		}
	}
}

func benchPages(b *testing.B, db *DB) {
	ctx := context.Background()
	var top int64
	if err := db.r.QueryRowContext(ctx, `SELECT player_id FROM game_results GROUP BY player_id ORDER BY COUNT(*) DESC LIMIT 1`).Scan(&top); err != nil {
		b.Fatal(err)
	}
	site, err := web.New(club.NewServices(db, club.NewClock(time.UTC, nil)))
	if err != nil {
		b.Fatal(err)
	}
	site.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	tr := &http.Transport{MaxIdleConns: 64, MaxIdleConnsPerHost: 64}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, Timeout: time.Minute}
	get := func(path, etag string) (int, string, error) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Language", "uk")
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, resp.Header.Get("ETag"), nil
	}
	for _, page := range []struct{ name, path string }{
		{"rating", "/rating"},
		{"home", "/"}, // the front door (issue 25): the rating's top ten, nights, live games, latest games
		{"player", fmt.Sprintf("/players/%d", top)},
		{"stats", fmt.Sprintf("/api/players/%d/stats", top)},
	} {
		code, etag, err := get(page.path, "")
		if err != nil {
			b.Fatal(err)
		}
		if code == http.StatusNotFound {
			continue // not in this version
		}
		if code != http.StatusOK {
			b.Fatalf("%s: %d", page.path, code)
		}
		modes := []string{"200"}
		if etag != "" {
			modes = append(modes, "304")
		}
		for _, mode := range modes {
			for _, clients := range []int{1, 20} {
				b.Run(fmt.Sprintf("%s/%s/clients=%d", page.name, mode, clients), func(b *testing.B) {
					send := ""
					if mode == "304" {
						send = etag
					}
					perClient := 400 / clients
					for b.Loop() {
						var mu sync.Mutex
						var lat []time.Duration
						var wg sync.WaitGroup
						start := time.Now()
						for c := 0; c < clients; c++ {
							wg.Add(1)
							go func() {
								defer wg.Done()
								mine := make([]time.Duration, 0, perClient)
								for i := 0; i < perClient; i++ {
									t0 := time.Now()
									code, _, err := get(page.path, send)
									if err != nil || (code != http.StatusOK && code != http.StatusNotModified) {
										b.Errorf("%s: %d %v", page.path, code, err)
										return
									}
									mine = append(mine, time.Since(t0))
								}
								mu.Lock()
								lat = append(lat, mine...)
								mu.Unlock()
							}()
						}
						wg.Wait()
						elapsed := time.Since(start)
						slices.Sort(lat)
						if len(lat) == 0 {
							b.Fatal("no request answered")
						}
						b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
						b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
						b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
					}
				})
			}
		}
	}
}
