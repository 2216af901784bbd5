package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/storetest"
)

// installation is an installation of many clubs the club commands run on, on one of the databases.
type installation struct {
	flags  []string // how a command finds it: -data DIR or -db URL
	ownDSN string
	// stores lists the clubs' stores there are (their files or schemas), named by slug with "_" for "-"
	stores func(t *testing.T) []string
	// source is a single club's database to move in; target an empty one to move a club out into
	source, target func(t *testing.T) string
}

func sqliteInstallation(t *testing.T) *installation {
	dir := t.TempDir()
	return &installation{
		flags:  []string{"-data", dir},
		ownDSN: filepath.Join(dir, "mafiaclub.db"),
		stores: func(t *testing.T) []string {
			entries, err := os.ReadDir(filepath.Join(dir, "clubs"))
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			var out []string
			for _, e := range entries {
				name := e.Name()
				if slug, ok := strings.CutSuffix(name, ".db"); ok {
					out = append(out, strings.ReplaceAll(slug, "-", "_"))
				} else if base, _, _ := strings.Cut(name, ".db-"); !slices.ContainsFunc(entries, func(o os.DirEntry) bool { return o.Name() == base+".db" }) {
					out = append(out, name) // a -wal or -shm file of no store
				}
			}
			return out
		},
		source: func(t *testing.T) string { return filepath.Join(t.TempDir(), "old.db") },
		target: func(t *testing.T) string { return filepath.Join(t.TempDir(), "new.db") },
	}
}

func postgresInstallation(t *testing.T) *installation {
	own := storetest.FreshPostgres(t)
	u, err := url.Parse(own)
	if err != nil {
		t.Fatal(err)
	}
	prefix := u.Query().Get("search_path") + "_club_"
	admin, err := sql.Open("pgx", storetest.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	schemas := func(t *testing.T) []string {
		rows, err := admin.Query(`SELECT nspname FROM pg_namespace ORDER BY nspname`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []string
		for rows.Next() {
			var n string
			if err := rows.Scan(&n); err != nil {
				t.Fatal(err)
			}
			if slug, ok := strings.CutPrefix(n, prefix); ok {
				out = append(out, slug)
			}
		}
		return out
	}
	t.Cleanup(func() { // the clubs' schemas are beside the installation's, not in it: a failed test leaves none either
		for _, s := range schemas(t) {
			if _, err := admin.Exec(`DROP SCHEMA "` + prefix + s + `" CASCADE`); err != nil {
				t.Errorf("drop schema %s%s: %v", prefix, s, err)
			}
		}
		admin.Close()
	})
	return &installation{
		flags:  []string{"-db", own},
		ownDSN: own,
		stores: schemas,
		// a small club on SQLite moves onto the federation's PostgreSQL, and out to a PostgreSQL of its own
		source: func(t *testing.T) string { return filepath.Join(t.TempDir(), "old.db") },
		target: func(t *testing.T) string { return storetest.FreshPostgres(t) },
	}
}

// cmd runs the program in-process with the installation's flags after the command's words.
func (in *installation) cmd(t *testing.T, stdin string, words []string, flags ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append(append(slices.Clone(words), in.flags...), flags...), strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// registry lists the slugs the installation's registry has.
func (in *installation) registry(t *testing.T) []string {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), in.ownDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ts, err := db.Tenants(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, x := range ts {
		out = append(out, x.Slug)
	}
	return out
}

// clubStore opens a club's store as the server finds it; the caller closes it.
func (in *installation) clubStore(t *testing.T, slug string) *sqlstore.DB {
	t.Helper()
	dsn, err := sqlstore.TenantDSN(in.ownDSN, slug)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// nothingElse checks that the installation has the clubs want, registered and with their stores, and no other.
func (in *installation) nothingElse(t *testing.T, when string, want ...string) {
	t.Helper()
	if got := in.registry(t); !slices.Equal(got, want) {
		t.Errorf("%s: the registry has %v, want %v", when, got, want)
	}
	var stores []string
	for _, s := range want {
		stores = append(stores, strings.ReplaceAll(s, "-", "_"))
	}
	if got := in.stores(t); !slices.Equal(got, stores) {
		t.Errorf("%s: the clubs' stores are %v, want %v", when, got, stores)
	}
}

func TestClubCommandsSQLite(t *testing.T)   { clubCommands(t, sqliteInstallation(t)) }
func TestClubCommandsPostgres(t *testing.T) { clubCommands(t, postgresInstallation(t)) }

// clubCommands: two clubs added with their admins; every bad slug refused with its reason and nothing left
// behind; the list; a host name given and taken away; a single club's database with games moved in, every game
// with its points and the rating kept, and a move whose check fails adding nothing; the club moved out into a
// new database with the same checks, and removed; at the end no club's store is left (issue 29.3).
func clubCommands(t *testing.T, in *installation) {
	ctx := context.Background()
	add := []string{"club", "add"}

	code, out, errOut := in.cmd(t, "alpha-pass-1\n", add, "-slug", "alpha", "-name", "Alpha Mafia", "-admin", "anna", "-admin-name", "Anna")
	if code != 0 || !strings.Contains(out, "/c/alpha/") || !strings.Contains(out, "serves it within seconds") {
		t.Fatalf("club add alpha: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = in.cmd(t, "beta-pass-12\n", add, "-slug", "beta", "-name", "Beta", "-admin", "boris", "-host", "beta.example.org")
	if code != 0 || !strings.Contains(out, "https://beta.example.org/") {
		t.Fatalf("club add beta: exit %d\n%s%s", code, out, errOut)
	}
	in.nothingElse(t, "two clubs added", "alpha", "beta")
	// each club's first admin is in its own store, with the password given, and nowhere else
	alpha := in.clubStore(t, "alpha")
	anna, err := alpha.UserByLogin(ctx, "anna")
	if err != nil || anna.Role != club.RoleAdmin || anna.Name != "Anna" {
		t.Fatalf("alpha's admin: %+v, %v", anna, err)
	}
	if ok, err := club.CheckPassword(anna.PasswordHash, "alpha-pass-1"); !ok || err != nil {
		t.Errorf("alpha's admin does not log in with the password given: %v", err)
	}
	if p, err := alpha.ClubProfile(ctx); err != nil || p.Name != "Alpha Mafia" {
		t.Errorf("alpha's identity: %+v, %v", p, err)
	}
	beta := in.clubStore(t, "beta")
	if _, err := beta.UserByLogin(ctx, "anna"); club.ErrorCode(err) != club.NotFound {
		t.Errorf("alpha's admin is in beta's store: %v", err)
	}
	beta.Close()
	own, err := sqlstore.Open(ctx, in.ownDSN)
	if err != nil {
		t.Fatal(err)
	}
	if users, _ := own.Users(ctx); len(users) != 0 {
		t.Errorf("the installation's own club got accounts: %v", users)
	}
	own.Close()

	// refusals: each with its reason, and nothing left behind
	for _, c := range []struct {
		what  string
		flags []string
		stdin string
		code  int
		why   string
	}{
		{"a slug taken", []string{"-slug", "alpha", "-name", "Other", "-admin", "olga"}, "password-123\n", 1, `"alpha" is taken`},
		{"an empty slug", []string{"-slug", "", "-name", "Other", "-admin", "olga"}, "password-123\n", 2, "slug is required"},
		{"no slug", []string{"-name", "Other", "-admin", "olga"}, "password-123\n", 2, "slug is required"},
		{"a slug too long", []string{"-slug", strings.Repeat("a", club.MaxSlug+1), "-name", "Other", "-admin", "olga"}, "password-123\n", 1, "at most 30 characters"},
		{"a slug too short", []string{"-slug", "a", "-name", "Other", "-admin", "olga"}, "password-123\n", 1, "at least 2 characters"},
		{"capitals and a space", []string{"-slug", "Alpha Club", "-name", "Other", "-admin", "olga"}, "password-123\n", 1, "lowercase Latin letters"},
		{"a slash", []string{"-slug", "alpha/../beta", "-name", "Other", "-admin", "olga"}, "password-123\n", 1, "lowercase Latin letters"},
		{"Cyrillic", []string{"-slug", "едмонтон", "-name", "Other", "-admin", "olga"}, "password-123\n", 1, "lowercase Latin letters"},
		{"a leading hyphen", []string{"-slug", "-alpha", "-name", "Other", "-admin", "olga"}, "password-123\n", 1, "hyphen"},
		{"reserved", []string{"-slug", "admin", "-name", "Other", "-admin", "olga"}, "password-123\n", 1, "the site's own words"},
		{"reserved static", []string{"-slug", "static", "-name", "Other", "-admin", "olga"}, "password-123\n", 1, "the site's own words"},
		{"a host name taken", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "beta.example.org"}, "password-123\n", 1, `host name "beta.example.org"`},
		{"no host name", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "Beta:8080"}, "password-123\n", 1, "is not a host name"},
		// the installation's own names: a club there would take the installation over
		{"an IP address", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "127.0.0.1"}, "password-123\n", 1, `"127.0.0.1" is an IP address`},
		{"an IPv6 address with a port", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "[::1]:8080"}, "password-123\n", 1, "is an IP address"},
		{"the public URL's host", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "Fed.Example.org.", "-public-url", "https://fed.example.org"}, "password-123\n", 1, `"fed.example.org" is this installation's own host name`},
		{"the address's host", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "mafia.example.net", "-addr", "mafia.example.net:8080"}, "password-123\n", 1, "installation's own host name"},
		{"a subdomain of localhost", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "club.localhost"}, "password-123\n", 1, "localhost"},
		{"a label led by a hyphen", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "-x.example"}, "password-123\n", 1, "starts or ends with a hyphen"},
		{"an empty label", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-host", "a..example.org"}, "password-123\n", 1, "no empty part"},
		{"no name", []string{"-slug", "gamma", "-admin", "olga"}, "password-123\n", 2, "give -name"},
		{"a name too long", []string{"-slug", "gamma", "-name", strings.Repeat("n", club.MaxClubName+1), "-admin", "olga"}, "password-123\n", 1, "at most"},
		{"no admin", []string{"-slug", "gamma", "-name", "Other"}, "password-123\n", 2, "-admin"},
		{"-admin with -from", []string{"-slug", "gamma", "-admin", "olga", "-from", in.ownDSN}, "", 2, "-admin goes without -from"},
		{"no password", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga"}, "", 2, "no password"},
		// refused by the new store's filling: the store made for it is removed
		{"a password too short", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga"}, "short\n", 1, "at least 8 characters"},
		{"an unknown flag", []string{"-slug", "gamma", "-name", "Other", "-admin", "olga", "-colour", "red"}, "password-123\n", 2, "-colour"},
	} {
		code, out, errOut := in.cmd(t, c.stdin, add, c.flags...)
		if code != c.code || !strings.Contains(errOut, c.why) {
			t.Errorf("%s: exit %d, %q; want %d and %q", c.what, code, errOut, c.code, c.why)
		}
		if strings.Contains(out, "added") {
			t.Errorf("%s: %s", c.what, out)
		}
		in.nothingElse(t, c.what, "alpha", "beta")
	}
	if _, err := alpha.UserByLogin(ctx, "anna"); err != nil {
		t.Errorf("a refused club of alpha's slug touched alpha's store: %v", err)
	}

	// the list, its times in the installation's zone
	for _, zone := range []string{"UTC", "Asia/Kolkata"} {
		code, out, errOut = in.cmd(t, "", []string{"club", "list"}, "-tz", zone)
		if code != 0 {
			t.Fatalf("club list: exit %d: %s", code, errOut)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 3 || !strings.Contains(lines[0], "SLUG") || !strings.Contains(lines[0], "GAMES") || !strings.Contains(lines[0], "ACCOUNTS") {
			t.Fatalf("club list -tz %s: %s", zone, out)
		}
		loc, _ := time.LoadLocation(zone)
		for i, want := range [][]string{{"alpha", "Alpha Mafia", "-", "/c/alpha/", "0", "1"}, {"beta", "Beta", "beta.example.org", "https://beta.example.org/", "0", "1"}} {
			f := strings.Fields(lines[i+1])
			if i == 0 { // "Alpha Mafia" is two fields
				f = append([]string{f[0], f[1] + " " + f[2]}, f[3:]...)
			}
			if len(f) != 8 || !slices.Equal(append(f[:4:4], f[6:]...), want) {
				t.Errorf("club list -tz %s: %q, want %v with the time", zone, lines[i+1], want)
				continue
			}
			created, err := time.ParseInLocation("2006-01-02 15:04", f[4]+" "+f[5], loc)
			if err != nil || time.Since(created) < -time.Minute || time.Since(created) > 5*time.Minute {
				t.Errorf("club list -tz %s: created %s %s, not now in that zone (%v)", zone, f[4], f[5], err)
			}
		}
	}

	// a host name of its own, and taken away
	hostCmd := []string{"club", "host"}
	if code, out, errOut = in.cmd(t, "", hostCmd, "-slug", "alpha", "-host", "alpha.example.org"); code != 0 || !strings.Contains(out, "https://alpha.example.org/") {
		t.Errorf("club host: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut = in.cmd(t, "", hostCmd, "-slug", "beta", "-host", "alpha.example.org"); code != 1 || !strings.Contains(errOut, "alpha.example.org") {
		t.Errorf("a host name taken: exit %d, %s", code, errOut)
	}
	for _, c := range []struct{ host, why string }{
		{"127.0.0.1", "is an IP address"}, {"localhost", "localhost"}, {"alpha..example.org", "no empty part"},
	} {
		if code, _, errOut = in.cmd(t, "", hostCmd, "-slug", "alpha", "-host", c.host); code != 1 || !strings.Contains(errOut, c.why) {
			t.Errorf("club host -host %s: exit %d, %s; want it refused saying %q", c.host, code, errOut, c.why)
		}
	}
	if code, _, errOut = in.cmd(t, "", hostCmd, "-slug", "zeta", "-host", "zeta.example.org"); code != 1 || !strings.Contains(errOut, `no club "zeta"`) {
		t.Errorf("an unknown club: exit %d, %s", code, errOut)
	}
	if code, _, errOut = in.cmd(t, "", hostCmd, "-slug", "alpha"); code != 2 {
		t.Errorf("club host without -host: exit %d, %s", code, errOut)
	}
	if _, out, _ = in.cmd(t, "", []string{"club", "list"}); !regexp.MustCompile(`alpha\s+Alpha Mafia\s+alpha.example.org\s+https://alpha.example.org/`).MatchString(out) {
		t.Errorf("the list after club host: %s", out)
	}
	if code, out, errOut = in.cmd(t, "", hostCmd, "-slug", "alpha", "-host", ""); code != 0 || !strings.Contains(out, "no host name of its own: it is at /c/alpha/") {
		t.Errorf(`club host -host "": exit %d\n%s%s`, code, out, errOut)
	}
	if _, out, _ = in.cmd(t, "", []string{"club", "list"}); !regexp.MustCompile(`alpha\s+Alpha Mafia\s+-\s+/c/alpha/`).MatchString(out) {
		t.Errorf(`the list after club host -host "": %s`, out)
	}

	// moving in: a single club with its games
	src := in.source(t)
	sdb, svc, now := openClub(t, src)
	fillClub(t, sdb, svc, now)
	if err := sdb.SetClubProfile(ctx, &club.Club{Name: "Old Mafia", ClubExtras: true}); err != nil {
		t.Fatal(err)
	}
	games, _ := sdb.GameIDs(ctx)
	users, _ := sdb.Users(ctx)
	if len(games) < 5 {
		t.Fatalf("the club to move in has %d games", len(games))
	}
	// a copy that differs from its source (a game more) is not added
	checkMovedIn = func(ctx context.Context, a, b club.Store) error {
		host, err := b.UserByLogin(ctx, club.DemoHostLogin)
		if err != nil {
			return err
		}
		ng := club.NewGame{Rules: club.ClubRules}
		for i, r := range roles10 {
			ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("G%d", i+1), Role: r, Guest: true})
		}
		if _, err := club.NewServices(b, club.NewClock(time.UTC, nil)).Games.Start(ctx, host, ng); err != nil {
			return err
		}
		return sameClub(ctx, a, b)
	}
	code, out, errOut = in.cmd(t, "", add, "-slug", "old-club", "-from", src)
	checkMovedIn = sameClub
	if code != 1 || !strings.Contains(errOut, "the copy differs") || !strings.Contains(errOut, fmt.Sprintf("%d games, and %d", len(games), len(games)+1)) {
		t.Errorf("a copy that differs: exit %d, %q", code, errOut)
	}
	if strings.Contains(out, "added the club") {
		t.Errorf("a copy that differs: %s", out)
	}
	in.nothingElse(t, "a copy that differs", "alpha", "beta")
	// an empty database is no club to move in
	if code, _, errOut = in.cmd(t, "", add, "-slug", "old-club", "-from", in.target(t)); code != 1 || !strings.Contains(errOut, "no accounts") {
		t.Errorf("moving in an empty database: exit %d, %q", code, errOut)
	}
	in.nothingElse(t, "an empty database", "alpha", "beta")

	code, out, errOut = in.cmd(t, "", add, "-slug", "old-club", "-from", src)
	if code != 0 || !strings.Contains(out, "every game replays to the same points") || !strings.Contains(out, `"old-club" (Old Mafia) at /c/old-club/`) {
		t.Fatalf("club add -from: exit %d\n%s%s", code, out, errOut)
	}
	in.nothingElse(t, "a club moved in", "alpha", "beta", "old-club")
	moved := in.clubStore(t, "old-club")
	if err := sameClub(ctx, sdb, moved); err != nil {
		t.Errorf("the club moved in: %v", err)
	}
	if _, err := moved.UserByLogin(ctx, "olena"); err != nil {
		t.Errorf("the club moved in lost its member: %v", err)
	}
	_, out, _ = in.cmd(t, "", []string{"club", "list"})
	if !regexp.MustCompile(fmt.Sprintf(`old-club\s+Old Mafia\s+-\s+/c/old-club/\s+\S+ \S+\s+%d\s+%d\n`, len(games), len(users))).MatchString(out) {
		t.Errorf("the list does not count the club moved in's %d games and %d accounts: %s", len(games), len(users), out)
	}

	// moving out, with the same checks
	dst := in.target(t)
	code, out, errOut = in.cmd(t, "", []string{"copy"}, "-from-club", "old-club", "-to", dst)
	if code != 0 || !strings.Contains(out, "every game replays to the same points on the target") {
		t.Fatalf("copy -from-club: exit %d\n%s%s", code, out, errOut)
	}
	ddb, _, _ := openClub(t, dst)
	if err := sameClub(ctx, sdb, ddb); err != nil {
		t.Errorf("the club moved out: %v", err)
	}
	if code, _, errOut = in.cmd(t, "", []string{"copy"}, "-from-club", "zeta", "-to", in.target(t)); code != 1 || !strings.Contains(errOut, `no club "zeta"`) {
		t.Errorf("copy -from-club of no club: exit %d, %q", code, errOut)
	}
	if code, _, _ = in.cmd(t, "", []string{"copy"}, "-from-club", "old-club", "-from", src, "-to", in.target(t)); code != 2 {
		t.Errorf("copy with both -from and -from-club: exit %d", code)
	}

	// removing: first what it would remove, then with -yes
	remove := []string{"club", "remove"}
	code, out, errOut = in.cmd(t, "", remove, "-slug", "old-club")
	if code != 0 || !strings.Contains(out, "would remove") || !strings.Contains(out, fmt.Sprintf("games: %d, and its accounts: %d", len(games), len(users))) ||
		!strings.Contains(out, "nothing is removed") {
		t.Errorf("club remove without -yes: exit %d\n%s%s", code, out, errOut)
	}
	in.nothingElse(t, "club remove without -yes", "alpha", "beta", "old-club")
	if err := sameClub(ctx, sdb, moved); err != nil {
		t.Errorf("club remove without -yes touched the club: %v", err)
	}
	moved.Close()
	if !isPostgresURL(in.ownDSN) { // a server holding the data folder: its club's file is not removed under it
		lock, err := lockData(in.flags[1])
		if err != nil {
			t.Fatal(err)
		}
		if code, _, errOut = in.cmd(t, "", remove, "-slug", "old-club", "-yes"); code != 1 || !strings.Contains(errOut, "another mafiaclub process") {
			t.Errorf("club remove under a running server: exit %d, %q", code, errOut)
		}
		lock.Close()
		in.nothingElse(t, "club remove under a running server", "alpha", "beta", "old-club")
	}
	if code, out, errOut = in.cmd(t, "", remove, "-slug", "old-club", "-yes"); code != 0 || !strings.Contains(out, "removed the club") {
		t.Errorf("club remove -yes: exit %d\n%s%s", code, out, errOut)
	}
	in.nothingElse(t, "club remove -yes", "alpha", "beta")
	if code, _, errOut = in.cmd(t, "", remove, "-slug", "old-club", "-yes"); code != 1 || !strings.Contains(errOut, `no club "old-club"`) {
		t.Errorf("removing it again: exit %d, %q", code, errOut)
	}
	alpha.Close()
	for _, s := range []string{"alpha", "beta"} {
		if code, out, errOut = in.cmd(t, "", remove, "-slug", s, "-yes"); code != 0 {
			t.Errorf("club remove %s: exit %d\n%s%s", s, code, out, errOut)
		}
	}
	in.nothingElse(t, "every club removed")
	if _, out, _ = in.cmd(t, "", []string{"club", "list"}); !strings.Contains(out, "its own club only") {
		t.Errorf("the list of no clubs: %s", out)
	}
}
