package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	_ "github.com/jackc/pgx/v5/stdlib" // the driver FreshPostgres opens its server with
	"net/url"
	"os"
	"strings"
	"testing"
)

// PostgresURL is TEST_DATABASE_URL, a postgres:// URL of a server where the tests may create schemas. Without
// it the PostgreSQL tests skip, except under CI, where they fail: a green CI must not hide them.
func PostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv("TEST_DATABASE_URL")
	if u == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TEST_DATABASE_URL is not set: CI must run the PostgreSQL tests (.ci/run starts a server)")
		}
		t.Skip("TEST_DATABASE_URL is not set: the PostgreSQL tests need a server")
	}
	if !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
		t.Fatalf("TEST_DATABASE_URL %q is not a postgres:// URL", u)
	}
	return u
}

// FreshPostgres makes an empty schema of its own on the server of TEST_DATABASE_URL, dropped when t ends, and
// returns the URL that works in it (search_path), so that parallel packages and subtests never meet.
func FreshPostgres(t testing.TB) string {
	t.Helper()
	base := PostgresURL(t)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	schema := "test_" + strings.ToLower(rand.Text()[:16])
	if _, err := admin.ExecContext(context.Background(), `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		t.Fatalf("create schema: %v", err)
	}
	t.Cleanup(func() {
		if _, err := admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
