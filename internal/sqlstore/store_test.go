package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

func TestSQLite(t *testing.T) {
	storetest.Run(t, func(t *testing.T) club.Store {
		db, err := Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	})
}

func TestMigrateTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "club.db")
	for i := 0; i < 2; i++ {
		db, err := Open(context.Background(), path)
		if err != nil {
			t.Fatalf("open %d: %v", i+1, err)
		}
		db.Close()
	}
}

func postgresURL(t testing.TB) string { return storetest.PostgresURL(t) }

func freshPostgres(t testing.TB) string { return storetest.FreshPostgres(t) }

func postgresStore(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), freshPostgres(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestPostgres(t *testing.T) {
	postgresURL(t)
	storetest.Run(t, func(t *testing.T) club.Store { return postgresStore(t) })
}

func TestPostgresMigrateTwice(t *testing.T) {
	dsn := freshPostgres(t)
	for i := 0; i < 2; i++ {
		db, err := Open(context.Background(), dsn)
		if err != nil {
			t.Fatalf("open %d: %v", i+1, err)
		}
		var n int
		files, _ := fs.Glob(migrations, "migrations/postgres/*.sql")
		if err := db.r.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n != len(files) {
			t.Errorf("open %d: %d migrations (%v), want %d", i+1, n, err, len(files))
		}
		db.Close()
	}
}

// TestConcurrentRegistrations: members who register for the last place at once, or a member who cancels twice
// at once, never overfill the main line-up (a PostgreSQL transaction reads at READ COMMITTED, so the store locks
// the night; SQLite's write transactions take turns anyway).
func TestConcurrentRegistrations(t *testing.T) {
	for _, c := range []struct {
		name string
		open func(t *testing.T) *DB
	}{
		{"sqlite", func(t *testing.T) *DB {
			db, err := Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}},
		{"postgres", postgresStore},
	} {
		t.Run(c.name, func(t *testing.T) { concurrentRegistrations(t, c.open(t)) })
	}
}

func concurrentRegistrations(t *testing.T, s *DB) {
	ctx := context.Background()
	host := storetest.NewHost(t, s, "organiser")
	start := time.Date(2027, 3, 14, 19, 0, 0, 0, time.UTC)
	n := &club.ClubNight{StartsAt: start, Place: "Café", Tables: 1, PerTable: 7, CreatedBy: host.ID}
	if err := s.CreateNight(ctx, n); err != nil {
		t.Fatal(err)
	}
	now := start.Add(-72 * time.Hour)
	var ids []int64
	for i := 0; i < 16; i++ {
		u := &club.User{Login: fmt.Sprintf("m%d", i), Name: "m", Role: club.RoleMember, PasswordHash: "x", Status: club.StatusActive}
		if err := s.CreateMember(ctx, u, &club.Player{Nick: u.Login}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, u.ID)
	}
	for _, id := range ids[:6] {
		if _, err := s.Register(ctx, n.ID, id, now); err != nil {
			t.Fatal(err)
		}
	}
	// ten members for the last place, at once
	var wg sync.WaitGroup
	for _, id := range ids[6:] {
		wg.Go(func() {
			if _, err := s.Register(ctx, n.ID, id, now); err != nil {
				t.Errorf("register %d: %v", id, err)
			}
		})
	}
	wg.Wait()
	if got, _ := s.Night(ctx, n.ID); got.Main != 7 || got.Reserve != 9 {
		t.Fatalf("line-up %d + %d, want 7 + 9", got.Main, got.Reserve)
	}
	// one member cancels from two devices at once: one cancellation, one promotion
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { _, errs[i] = s.Cancel(ctx, n.ID, ids[0], now, false) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch club.ErrorCode(err) {
		case "":
			ok++
		case club.NotFound:
		default:
			t.Errorf("cancel: %v", err)
		}
	}
	if got, _ := s.Night(ctx, n.ID); ok != 1 || got.Main != 7 || got.Reserve != 8 {
		t.Fatalf("%d cancellations succeeded, line-up %d + %d; want 1, 7 + 8", ok, got.Main, got.Reserve)
	}
}

func TestRebind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT a FROM t WHERE b = ? AND c = ?`, `SELECT a FROM t WHERE b = $1 AND c = $2`},
		{`SELECT '?', "x?" FROM t WHERE a LIKE ? ESCAPE '\' AND b = ?`, `SELECT '?', "x?" FROM t WHERE a LIKE $1 ESCAPE '\' AND b = $2`},
		{"SELECT 'it''s?' -- what?\n, ?", "SELECT 'it''s?' -- what?\n, $1"},
		{`SELECT 1`, `SELECT 1`},
	} {
		if got := postgres.rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := sqlite.rebind(c.in); got != c.in {
			t.Errorf("sqlite rebind(%q) = %q", c.in, got)
		}
	}
}

// A nickname change raises the ratings' version: a rating page held by a reader (its ETag) shows nicknames.
func TestNicknameChangeRaisesRatingVersion(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p := &club.Player{Nick: "Anna"}
	if err := db.CreatePlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	before, err := db.RatingVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p.Nick = "Hanna"
	if err := db.UpdatePlayer(ctx, p); err != nil {
		t.Fatal(err)
	}
	if after, _ := db.RatingVersion(ctx); after <= before {
		t.Errorf("the ratings' version stayed %d after a nickname change", after)
	}
}

// TestPostgresLimitPool: a store whose pool is bounded (a club's of many on one installation) never holds more
// PostgreSQL connections than the bound, however many queries come at once: they wait for one instead.
func TestPostgresLimitPool(t *testing.T) {
	db := postgresStore(t)
	db.LimitPool(2, time.Minute)
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := db.r.db.ExecContext(context.Background(), `SELECT pg_sleep(0.1)`); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	st := db.PoolStats()
	if st.MaxOpenConnections != 2 || st.OpenConnections > 2 || st.WaitCount == 0 {
		t.Fatalf("the pool: at most %d, %d open, %d waits; want at most 2 open and the others waiting", st.MaxOpenConnections, st.OpenConnections, st.WaitCount)
	}
	if n := PostgresPool; n != 16 {
		t.Fatalf("an installation's own store's pool is %d, want 16 as before", n)
	}
}
