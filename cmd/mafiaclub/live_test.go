package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// startServerDB runs `serve` on a database URL and waits for its "listening on" line.
func startServerDB(t *testing.T, bin, db string) *server {
	t.Helper()
	return startServerArgs(t, bin, "-db", db)
}

// freshSchema makes an empty schema on TEST_DATABASE_URL's server (skipped without it, failed under CI) and
// returns the URL that works in it.
func freshSchema(t *testing.T) string {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TEST_DATABASE_URL is not set: CI must run the PostgreSQL tests")
		}
		t.Skip("TEST_DATABASE_URL is not set")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	schema := "live_" + strings.ToLower(rand.Text()[:12])
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`); admin.Close() })
	u, _ := url.Parse(base)
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestTwoServersOnePostgres: two processes serve one PostgreSQL database; a host's action through the first
// reaches a spectator's stream and the host's other device on the second, through LISTEN/NOTIFY.
func TestTwoServersOnePostgres(t *testing.T) {
	db := freshSchema(t)
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := testBinary(t)
	one := startServerDB(t, bin, db) // the first migrates and makes the demo club; then the second
	two := startServerDB(t, bin, db)
	host := newHostClient(t, one.base)
	host.login(t)
	id := host.createGame(t)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spectator := sseLines(t, ctx, two.base+fmt.Sprintf("/live/%d/events?kind=page&lang=en", id), nil)
	device := newHostClient(t, two.base)
	device.login(t)
	follower := sseLines(t, ctx, two.base+fmt.Sprintf("/games/%d/live", id), device.hc.Jar)
	first := waitLine(t, spectator, "id: ", "the spectator's first frame")

	if code, err := host.act(id, 0, crashEvent{Type: "day"}); err != nil || code != http.StatusSeeOther {
		t.Fatalf("day: %d %v", code, err)
	}
	if got := waitLine(t, follower, "data: ", "the other device's version"); got != "data: 1" {
		t.Errorf("the host's other device on the second server got %q, want version 1", got)
	}
	next := waitLine(t, spectator, "id: ", "the spectator's frame after the action")
	if next == first {
		t.Errorf("the spectator on the second server got the same view again")
	}
	if got := waitLine(t, spectator, "data: ", "its data"); !strings.Contains(got, "The city wakes up") {
		t.Errorf("the frame on the second server does not show the day: %s", got)
	}
}

// sseLines streams a URL's lines (with the jar's cookies, when given) until ctx ends.
func sseLines(t *testing.T, ctx context.Context, u string, jar http.CookieJar) <-chan string {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	resp, err := (&http.Client{Jar: jar}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", u, resp.StatusCode)
	}
	lines := make(chan string, 1000)
	go func() {
		defer resp.Body.Close()
		defer close(lines)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return lines
}

// waitLine returns the next line with the prefix; the deadline only keeps a broken test from hanging.
func waitLine(t *testing.T, lines <-chan string, prefix, what string) string {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("%s: the stream ended", what)
			}
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-deadline:
			t.Fatalf("%s: nothing within 20 s", what)
		}
	}
}
