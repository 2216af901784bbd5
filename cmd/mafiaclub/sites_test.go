package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
)

// TestTwoServersManyClubsPostgres: two servers on one PostgreSQL database serve the installation's clubs. A
// platform admin adds a club on the first (/admin/clubs); the second serves it too within seconds, without a
// restart. The club's live game, hosted on the first, reaches its spectators on the second through the club's
// own channel, and the installation's own club, whose game has the same id, shows nothing of it.
func TestTwoServersManyClubsPostgres(t *testing.T) {
	db := freshSchema(t)
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	clubDSN, err := sqlstore.TenantDSN(db, "edmonton")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // the club's schema beside the test's own, which freshSchema drops
		if admin, err := sql.Open("pgx", os.Getenv("TEST_DATABASE_URL")); err == nil {
			admin.Exec(`DROP SCHEMA IF EXISTS ` + sqlstore.TenantSchema(clubDSN) + ` CASCADE`)
			admin.Close()
		}
	})
	bin := testBinary(t)
	one := startServerDB(t, bin, db)
	two := startServerDB(t, bin, db)

	admin := newHostClient(t, one.base)
	if code, _, err := admin.post("/login", url.Values{"login": {"admin"}, "password": {"demo-admin"}}); err != nil || code != http.StatusSeeOther {
		t.Fatalf("login: %d %v", code, err)
	}
	code, loc, err := admin.post("/admin/clubs", url.Values{"slug": {"edmonton"}, "name": {"Mafia Edmonton"}, "login": {"boss"},
		"admin_name": {"Boss"}, "password": {"boss-password"}})
	if err != nil || code != http.StatusSeeOther || !strings.Contains(loc, "added=edmonton") {
		t.Fatalf("add a club: %d %q %v", code, loc, err)
	}
	// refused: the slug is taken, and one that is no slug; nothing more is added
	for _, slug := range []string{"edmonton", "Ed Monton"} {
		if code, _, _ := admin.post("/admin/clubs", url.Values{"slug": {slug}, "name": {"X"}, "login": {"x"}, "password": {"x-password"}}); code != http.StatusConflict && code != http.StatusBadRequest {
			t.Errorf("add a club %q again: %d, want it refused", slug, code)
		}
	}
	// the second server picks the club up from the registry
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(two.base + "/c/edmonton/")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && strings.Contains(string(body), "Mafia Edmonton") {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the second server does not serve the new club: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	boss := newHostClient(t, one.base+"/c/edmonton")
	if code, _, err := boss.post("/login", url.Values{"login": {"boss"}, "password": {"boss-password"}}); err != nil || code != http.StatusSeeOther {
		t.Fatalf("the club's admin logs in: %d %v", code, err)
	}
	// the club's admin is nobody in the installation's own club
	if code, _, _ := newHostClientWithJar(boss, one.base).post("/login", url.Values{"login": {"boss"}, "password": {"boss-password"}}); code == http.StatusSeeOther {
		t.Errorf("the club's admin logged into the installation's own club")
	}
	clubGame := clubGameOn(t, boss)
	host := newHostClient(t, one.base)
	host.login(t)
	ownGame := host.createGame(t)
	t.Logf("the club's game %d, the own club's %d", clubGame, ownGame)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	spectator := sseLines(t, ctx, two.base+fmt.Sprintf("/c/edmonton/live/%d/events?kind=page&lang=en", clubGame), nil)
	ownSpectator := sseLines(t, ctx, two.base+fmt.Sprintf("/live/%d/events?kind=page&lang=en", clubGame), nil)
	first := waitLine(t, spectator, "id: ", "the club's spectator's first frame")
	ownFirst := waitLine(t, ownSpectator, "id: ", "the own club's spectator's first frame")
	if code, err := boss.act(clubGame, 0, crashEvent{Type: "day"}); err != nil || code != http.StatusSeeOther {
		t.Fatalf("day: %d %v", code, err)
	}
	if next := waitLine(t, spectator, "id: ", "the club's spectator's frame after the action"); next == first {
		t.Errorf("the club's spectator on the second server got the same view again")
	}
	if got := waitLine(t, spectator, "data: ", "its data"); !strings.Contains(got, "The city wakes up") {
		t.Errorf("the club's frame on the second server does not show the day: %s", got)
	}
	select {
	case l := <-ownSpectator:
		if strings.HasPrefix(l, "id: ") && l != ownFirst {
			t.Errorf("the own club's game %d got a new frame from the club's action: %s", clubGame, l)
		}
	case <-time.After(time.Second):
	}
}

// newHostClientWithJar is a client of another base with the cookies of c: the same browser.
func newHostClientWithJar(c *hostClient, base string) *hostClient {
	return &hostClient{base: base, hc: c.hc}
}

// clubGameOn starts a game as c and returns its id, read from the redirect's last segment.
func clubGameOn(t *testing.T, c *hostClient) int64 {
	t.Helper()
	f := url.Values{"form": {"1"}, "rules": {"fiim-2025-club"}, "n": {"10"}, "deal": {"random"}}
	for i := 1; i <= 10; i++ {
		f.Set("name"+strconv.Itoa(i), fmt.Sprintf("Edmonton %d", i))
	}
	code, loc, err := c.post("/games", f)
	if err != nil || code != http.StatusSeeOther {
		t.Fatalf("new game: %d %v", code, err)
	}
	id, err := strconv.ParseInt(loc[strings.LastIndex(loc, "/")+1:], 10, 64)
	if err != nil {
		t.Fatalf("new game: redirected to %q", loc)
	}
	return id
}

// TestTenantPoolBounded: on PostgreSQL each other club's store a server opens holds at most tenantPool
// connections, fewer than the own store's: a hundred clubs on two servers must fit in the database's connections.
func TestTenantPoolBounded(t *testing.T) {
	dsn := freshSchema(t)
	ctx := context.Background()
	own, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()
	plat := &platform.Platform{Own: own, OwnDSN: dsn}
	db, err := plat.Create(ctx, club.Tenant{Slug: "edmonton", Name: "Edmonton"}, platform.WithAdmin("Edmonton", "anna", "Anna", "a long password"))
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	defer plat.Remove(context.Background(), "edmonton")
	db, err = openTenantStore(ctx, plat, "edmonton")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := db.PoolStats().MaxOpenConnections; got != tenantPool || got >= sqlstore.PostgresPool {
		t.Fatalf("a club's store holds up to %d connections, want %d (the own store's: %d)", got, tenantPool, sqlstore.PostgresPool)
	}
	if got := own.PoolStats().MaxOpenConnections; got != sqlstore.PostgresPool {
		t.Fatalf("the own store holds up to %d connections, want %d", got, sqlstore.PostgresPool)
	}
}

// A club's messages link to its own pages: the installation's -public-url with the club's prefix added by the
// site (web.Server.Base), never twice; a club at a host name of its own links there.
func TestClubPublicURL(t *testing.T) {
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, t.TempDir()+"/club.db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := &config{publicURL: "https://fed.example.org", telegramAPI: "http://127.0.0.1:1", cookies: "auto"}
	for _, tc := range []struct{ slug, host, base, want string }{
		{"", "", "", "https://fed.example.org"},
		{"edmonton", "", "/c/edmonton", "https://fed.example.org"},
		{"calgary", "calgary.example.org", "", "https://calgary.example.org"},
	} {
		site, err := newSite(club.NewServices(db, club.NewClock(time.UTC, nil)), c, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		site.Base = tc.base
		stop, err := startClub(site, c, nil, "", tc.slug, tc.host, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		stop()
		if site.PublicURL != tc.want {
			t.Errorf("club %q (host %q): PublicURL %q, want %q (the site adds its Base %q)", tc.slug, tc.host, site.PublicURL, tc.want, tc.base)
		}
	}
}

// A club is never added at a host name the installation answers on as itself, on the platform admin's page or
// by `mafiaclub club add` (nor given one by `club host`): before, a club at 127.0.0.1 or at the -public-url's host
// took the running installation over (its own admins got 401, its other clubs 404) until the command line took
// the name away. After every attempt, the own admin still logs in and the other club still answers, on each
// database where the registry is.
func TestOwnHostsStayTheInstallations(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	t.Run("SQLite", func(t *testing.T) {
		data := t.TempDir()
		ownHostsStay(t, []string{"-data", data}, filepath.Join(data, "mafiaclub.db"))
	})
	t.Run("PostgreSQL", func(t *testing.T) {
		db := freshSchema(t)
		u, _ := url.Parse(db)
		prefix := u.Query().Get("search_path") + "_club_"
		t.Cleanup(func() { // the clubs' schemas beside the test's own, which freshSchema drops
			admin, err := sql.Open("pgx", os.Getenv("TEST_DATABASE_URL"))
			if err != nil {
				return
			}
			defer admin.Close()
			rows, err := admin.Query(`SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1)`, prefix)
			if err != nil {
				return
			}
			var schemas []string
			for rows.Next() {
				var s string
				if rows.Scan(&s) == nil {
					schemas = append(schemas, s)
				}
			}
			rows.Close()
			for _, s := range schemas {
				admin.Exec(`DROP SCHEMA "` + s + `" CASCADE`)
			}
		})
		ownHostsStay(t, []string{"-db", db}, db)
	})
}

func ownHostsStay(t *testing.T, store []string, ownDSN string) {
	const public = "https://fed.example.org"
	srv := startServerArgs(t, testBinary(t), append([]string{"-public-url", public}, store...)...)
	listen := strings.TrimPrefix(srv.base, "http://")
	admin := newHostClient(t, srv.base)
	if code, _, err := admin.post("/login", url.Values{"login": {"admin"}, "password": {"demo-admin"}}); err != nil || code != http.StatusSeeOther {
		t.Fatalf("the own admin logs in: %d %v", code, err)
	}
	if code, _, err := admin.post("/admin/clubs", url.Values{"slug": {"edmonton"}, "name": {"Mafia Edmonton"}, "login": {"boss"},
		"password": {"boss-password"}}); err != nil || code != http.StatusSeeOther {
		t.Fatalf("add a club: %d %v", code, err)
	}
	stillOwn := func(when string) {
		t.Helper()
		if code, _, err := newHostClient(t, srv.base).post("/login", url.Values{"login": {"admin"}, "password": {"demo-admin"}}); err != nil || code != http.StatusSeeOther {
			t.Errorf("%s: the own admin logs in: %d %v", when, code, err)
		}
		resp, err := http.Get(srv.base + "/c/edmonton/")
		if err != nil {
			t.Fatalf("%s: the other club: %v", when, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Mafia Edmonton") {
			t.Errorf("%s: the other club answers %d", when, resp.StatusCode)
		}
	}
	stillOwn("with two clubs")
	for i, host := range []string{"127.0.0.1", listen, "fed.example.org", "localhost", "-x.example"} {
		slug := fmt.Sprintf("web-%d", i)
		if code, _, err := admin.post("/admin/clubs", url.Values{"slug": {slug}, "name": {"Rogue"}, "host": {host},
			"login": {"boss"}, "password": {"boss-password"}}); err != nil || code != http.StatusBadRequest {
			t.Errorf("the page adds a club at %q: %d %v, want 400", host, code, err)
		}
		stillOwn("after the page was asked for a club at " + host)
	}
	for i, c := range []struct {
		host, why string
	}{
		{"127.0.0.1", "is an IP address"},
		{"[::1]:8080", "is an IP address"},
		{"fed.example.org", "installation's own host name"},
		{"localhost", "localhost"},
		{"-x.example", "starts or ends with a hyphen"},
	} {
		var out, errOut strings.Builder
		args := append([]string{"club", "add", "-slug", fmt.Sprintf("cmd-%d", i), "-name", "Rogue", "-admin", "rogue", "-host", c.host,
			"-public-url", public}, store...)
		if code := run(args, strings.NewReader("rogue-password\n"), &out, &errOut); code != 1 || !strings.Contains(errOut.String(), c.why) {
			t.Errorf("club add -host %s: exit %d, %q; want 1 saying %q", c.host, code, errOut.String(), c.why)
		}
		errOut.Reset()
		args = append([]string{"club", "host", "-slug", "edmonton", "-host", c.host, "-public-url", public}, store...)
		if code := run(args, strings.NewReader(""), &out, &errOut); code != 1 || !strings.Contains(errOut.String(), c.why) {
			t.Errorf("club host -host %s: exit %d, %q; want 1 saying %q", c.host, code, errOut.String(), c.why)
		}
	}
	// a registry of an older version, which took the -public-url's host for a club's: the club is served at its
	// prefix, and the host name stays the installation's
	ctx := context.Background()
	own, err := sqlstore.Open(ctx, ownDSN)
	if err != nil {
		t.Fatal(err)
	}
	older := &platform.Platform{Own: own, OwnDSN: ownDSN} // without the installation's names, as before
	db, err := older.Create(ctx, club.Tenant{Slug: "older", Name: "Mafia Older", Host: "fed.example.org"}, platform.WithAdmin("Mafia Older", "olga", "Olga", "olga-password"))
	own.Close()
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	// the server reads the registry every 5 s: a club the commands had added would be served by now
	time.Sleep(6 * time.Second)
	stillOwn("after the commands were asked for a club at the installation's names")
	req, _ := http.NewRequest(http.MethodPost, srv.base+"/login", strings.NewReader(url.Values{"login": {"admin"}, "password": {"demo-admin"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Host = "fed.example.org"
	if resp, err := newHostClient(t, srv.base).hc.Do(req); err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Errorf("the own admin logs in at the -public-url's host, which an older registry gave a club: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	resp, err := http.Get(srv.base + "/c/older/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Mafia Older") {
		t.Errorf("the club an older registry gave the installation's host name, at its prefix: %d", resp.StatusCode)
	}
}
