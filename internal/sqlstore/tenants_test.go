package sqlstore

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

// The storage contract for two clubs of one installation (issue 29), on both databases: the whole contract runs
// in club a's store, made as the platform makes it (TenantDSN, PrepareTenant, Open), beside club b's and the
// installation's own; at the end of every part, club b's store and the own store hold exactly the rows they held
// before it, table by table: nothing club a wrote reached them.
func TestTwoClubsContract(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		twoClubsContract(t, func(t *testing.T) string { return filepath.Join(t.TempDir(), "mafiaclub.db") })
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		postgresURL(t)
		twoClubsContract(t, func(t *testing.T) string { return freshPostgres(t) })
	})
}

func twoClubsContract(t *testing.T, ownDSN func(t *testing.T) string) {
	// the clubs' stores are made alike (the same code, the same migrations), so one direction proves both
	for _, used := range []string{"club-a"} {
		t.Run("in "+used, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) club.Store {
				ctx := context.Background()
				dsn := ownDSN(t)
				own, err := Open(ctx, dsn)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { own.Close() })
				stores := map[string]*DB{}
				for _, slug := range []string{"club-a", "club-b"} {
					stores[slug] = openTenant(t, own, dsn, slug)
				}
				other := map[string]string{"club-a": "club-b", "club-b": "club-a"}[used]
				watched := map[string]*DB{other: stores[other], "the installation's own": own}
				before := map[string]map[string]int{}
				for name, db := range watched {
					before[name] = rowCounts(t, db)
				}
				t.Cleanup(func() {
					for name, db := range watched {
						if after := rowCounts(t, db); !maps.Equal(before[name], after) {
							t.Errorf("%s's store changed while %s's was used: %v, then %v", name, used, before[name], after)
						}
					}
				})
				return stores[used]
			})
		})
	}
}

// openTenant makes and opens a club's store beside the installation's own, as the platform does, registered; it
// is closed and removed when t ends.
func openTenant(t *testing.T, own *DB, ownDSN, slug string) *DB {
	t.Helper()
	ctx := context.Background()
	dsn, err := TenantDSN(ownDSN, slug)
	if err != nil {
		t.Fatal(err)
	}
	if err := own.PrepareTenant(ctx, dsn); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := own.DropTenant(context.Background(), dsn); err != nil {
			t.Errorf("drop %s: %v", slug, err)
		}
	})
	db, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := own.AddTenant(ctx, &club.Tenant{Slug: slug, Name: slug}); err != nil {
		t.Fatal(err)
	}
	return db
}

// rowCounts counts the rows of every table of a store.
func rowCounts(t *testing.T, db *DB) map[string]int {
	t.Helper()
	ctx := context.Background()
	tables, err := db.tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, name := range append(tables, "platform_clubs") {
		var n int
		if err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM `+name).Scan(&n); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = n
	}
	if len(out) < 30 {
		t.Fatalf("only %d tables counted: %v", len(out), out)
	}
	return out
}

func TestTenantRegistryAndStores(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { tenantRegistry(t, filepath.Join(t.TempDir(), "mafiaclub.db")) })
	t.Run("PostgreSQL", func(t *testing.T) { postgresURL(t); tenantRegistry(t, freshPostgres(t)) })
}

func tenantRegistry(t *testing.T, ownDSN string) {
	ctx := context.Background()
	own, err := Open(ctx, ownDSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() }) // after the tenant's store is dropped (cleanups run last first)
	a := openTenant(t, own, ownDSN, "club-a")
	if err := own.AddTenant(ctx, &club.Tenant{Slug: "club-a", Name: "again"}); club.ErrorCode(err) != club.Conflict {
		t.Errorf("a slug taken: %v, want a conflict", err)
	}
	for _, bad := range []string{"", "a", "A-Club", "club_a", "-club", "club-", "cl--ub", "static", "клуб", "a/b", fmt.Sprintf("%031d", 0)} {
		if err := own.AddTenant(ctx, &club.Tenant{Slug: bad, Name: "x"}); club.ErrorCode(err) != club.Invalid {
			t.Errorf("slug %q: %v, want it refused as invalid", bad, err)
		}
		if _, err := TenantDSN(ownDSN, bad); err == nil {
			t.Errorf("slug %q has a store's address", bad)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(own.SetTenantHost(ctx, "club-a", "a.example.org"))
	if err := own.AddTenant(ctx, &club.Tenant{Slug: "club-b", Name: "b", Host: "a.example.org"}); club.ErrorCode(err) != club.Conflict {
		t.Errorf("a host name taken: %v, want a conflict", err)
	}
	if err := own.SetTenantHost(ctx, "club-a", "not a host"); club.ErrorCode(err) != club.Invalid {
		t.Errorf("a bad host name: %v", err)
	}
	ts, err := own.Tenants(ctx)
	must(err)
	if len(ts) != 1 || ts[0].Slug != "club-a" || ts[0].Host != "a.example.org" || ts[0].Created.IsZero() {
		t.Errorf("tenants: %+v", ts)
	}
	// a club's store is its own: an account in club a is not in the own store, and a store is never made twice
	must(a.CreateUser(ctx, &club.User{Login: "only-a", Name: "A", Role: club.RoleAdmin, PasswordHash: "x"}))
	if _, err := own.UserByLogin(ctx, "only-a"); club.ErrorCode(err) != club.NotFound {
		t.Errorf("club a's account in the own store: %v", err)
	}
	dsn, _ := TenantDSN(ownDSN, "club-a")
	if err := own.PrepareTenant(ctx, dsn); club.ErrorCode(err) != club.Conflict {
		t.Errorf("club a's store made again: %v, want a conflict", err)
	}
	must(own.RemoveTenant(ctx, "club-a"))
	if err := own.RemoveTenant(ctx, "club-a"); club.ErrorCode(err) != club.NotFound {
		t.Errorf("removed twice: %v", err)
	}
}
