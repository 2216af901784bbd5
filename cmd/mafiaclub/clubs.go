package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
)

// The commands of an installation of many clubs (issue 29): `mafiaclub club add|list|host|remove`. They find the
// installation's own store as the server does (-data, -db), where the registry of its other clubs is; each club's
// store is beside it (platform.Platform).

const clubUsage = `usage:
  mafiaclub club add -slug SLUG -name NAME -admin LOGIN [-admin-name NAME] [-host HOST]
                             add a club with its first admin; the password is read from standard input
  mafiaclub club add -slug SLUG [-name NAME] [-host HOST] -from DB
                             move a single club's database (SQLite file or postgres:// URL) in as a club,
                             checked: every game replays to the same points, the rating is the same
  mafiaclub club list        the installation's clubs, with their games and accounts
  mafiaclub club host -slug SLUG -host HOST
                             give a club a host name of its own (-host "" takes it away)
  mafiaclub club remove -slug SLUG [-yes]
                             take a club off the installation and remove its store (without -yes: say what
                             would go); copy it out first: mafiaclub copy -from-club SLUG -to DB
each also takes the server's -data and -db (the installation's own store)
`

func clubCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, clubUsage)
		return 2
	}
	switch args[0] {
	case "add":
		return clubAdd(args[1:], stdin, stdout, stderr)
	case "list":
		return clubList(args[1:], stdout, stderr)
	case "host":
		return clubHost(args[1:], stdout, stderr)
	case "remove":
		return clubRemove(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, clubUsage)
		return 0
	}
	fmt.Fprintf(stderr, "mafiaclub club: unknown command %q\n%s", args[0], clubUsage)
	return 2
}

// openPlatform opens the installation's own store, where its registry of clubs is.
func openPlatform(ctx context.Context, c *config) (*platform.Platform, error) {
	db, err := openStore(ctx, c)
	if err != nil {
		return nil, err
	}
	own := c.db
	if !isPostgresURL(own) {
		own = sqlitePath(c)
	}
	return &platform.Platform{Own: db, OwnDSN: own, Names: ownNames(c)}, nil
}

// ownNames are the host names the installation of c answers on as itself, which no club may have: its
// -public-url's host, its -addr's, the machine's name, and localhost and every IP address.
func ownNames(c *config) *platform.OwnNames {
	machine, _ := os.Hostname()
	return platform.NewOwnNames(c.publicURL, c.addr, machine)
}

// clubAddress is where a club's site is: its own host name's root, or /c/SLUG/ on the installation's address
// (-public-url, when given).
func clubAddress(c *config, t club.Tenant) string {
	if t.Host != "" {
		return "https://" + t.Host + "/"
	}
	return strings.TrimSuffix(c.publicURL, "/") + "/c/" + t.Slug + "/"
}

// checkMovedIn compares a club moved in with the database it came from (the tests replace it to make a copy
// that differs).
var checkMovedIn = sameClub

// clubAdd adds a club: with its first admin (the password from standard input), or moved in whole from a
// single club's database (-from). A club is added whole or not at all: a refusal or a failure leaves no store
// and no registry row behind (platform.Create).
func clubAdd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("club add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	slug := fs.String("slug", "", "the club's address on the installation: /c/SLUG/ (lowercase Latin letters, digits, hyphens)")
	name := fs.String("name", "", "the club's name as the installation lists it (with -from, default: the club's own name)")
	admin := fs.String("admin", "", "the login of the club's first admin (not with -from: the club's accounts come with it)")
	adminName := fs.String("admin-name", "", "the first admin's name shown on the club's pages (default: the login)")
	host := fs.String("host", "", "a host name of the club's own, like edmonton.example.org (default: none); never the installation's own (its -public-url's, -addr's, localhost or an IP address)")
	from := fs.String("from", "", "move in a single club's database: an SQLite file or a postgres:// URL")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch {
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "mafiaclub club add: unexpected %q: every value goes with its flag\n", fs.Arg(0))
		return 2
	case *slug == "":
		fmt.Fprintln(stderr, "mafiaclub club add: give -slug: "+oneLine(club.CheckSlug("")))
		return 2
	case *from != "" && (*admin != "" || *adminName != ""):
		fmt.Fprintln(stderr, "mafiaclub club add: -admin goes without -from: a club moved in brings its accounts")
		return 2
	case *from == "" && (*admin == "" || *name == ""):
		fmt.Fprintln(stderr, "mafiaclub club add: give -name and -admin (the club's first admin), or -from (a club's database to move in)")
		return 2
	}
	// what the slug and the host name are made of, and a host name of the installation's own, are refused before
	// anything is asked or opened
	normal, hostErr := ownNames(c).CheckHost(*host)
	for _, err := range []error{club.CheckSlug(*slug), hostErr} {
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub club add: %v\n", oneLine(err))
			return 1
		}
	}
	var pass string
	if *from == "" {
		fmt.Fprint(stderr, "password: ")
		line, err := bufio.NewReader(stdin).ReadString('\n')
		if err != nil && line == "" {
			fmt.Fprintln(stderr, "\nmafiaclub club add: no password on standard input")
			return 2
		}
		pass = strings.TrimRight(line, "\r\n")
		fmt.Fprintln(stderr)
	}
	ctx := context.Background()
	p, err := openPlatform(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	defer p.Own.Close()
	t := club.Tenant{Slug: *slug, Name: *name, Host: normal}
	fill := platform.WithAdmin(*name, *admin, *adminName, pass)
	if *from != "" {
		src, err := sqlstore.Open(ctx, *from)
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub club add: -from: %v\n", oneLine(err))
			return 1
		}
		defer src.Close()
		if empty, err := club.IsEmpty(ctx, src); err != nil || empty {
			if err == nil {
				err = club.Errorf(club.Invalid, "%s has no accounts: it is no club to move in (add a new club with -admin instead)", *from)
			}
			fmt.Fprintf(stderr, "mafiaclub club add: -from: %v\n", oneLine(err))
			return 1
		}
		if t.Name == "" {
			profile, err := src.ClubProfile(ctx)
			if err != nil {
				fmt.Fprintf(stderr, "mafiaclub club add: -from: %v\n", oneLine(err))
				return 1
			}
			if t.Name = profile.Name; strings.TrimSpace(t.Name) == "" {
				fmt.Fprintf(stderr, "mafiaclub club add: give -name: the club of %s has no name\n", *from)
				return 2
			}
		}
		if others, err := src.Tenants(ctx); err == nil && len(others) > 0 {
			fmt.Fprintf(stdout, "%s is an installation with %d other clubs of its own: only its own club moves in; move each of the others with `mafiaclub copy -from-club SLUG` there\n", *from, len(others))
		}
		fill = func(ctx context.Context, db *sqlstore.DB) error {
			if err := sqlstore.Copy(ctx, src, db, func(table string, rows int) { fmt.Fprintf(stdout, "%-20s %d rows\n", table, rows) }); err != nil {
				return err
			}
			if err := checkMovedIn(ctx, src, db); err != nil {
				return fmt.Errorf("the copy differs: %w", err)
			}
			return nil
		}
	}
	db, err := p.Create(ctx, t, fill)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub club add: %v; the club is not added\n", oneLine(err))
		return 1
	}
	db.Close()
	if *from != "" {
		fmt.Fprintln(stdout, "every game replays to the same points in the new club, and the rating is the same")
	}
	fmt.Fprintf(stdout, "added the club %q (%s) at %s\n", t.Slug, t.Name, clubAddress(c, t))
	fmt.Fprintln(stdout, "a running server serves it within seconds (it reads the list of clubs every 5 s)")
	return 0
}

// clubCounts counts a club's games and accounts.
func clubCounts(ctx context.Context, db *sqlstore.DB) (games, accounts int, err error) {
	ids, err := db.GameIDs(ctx)
	if err != nil {
		return 0, 0, err
	}
	users, err := db.Users(ctx)
	if err != nil {
		return 0, 0, err
	}
	return len(ids), len(users), nil
}

// clubList lists the installation's other clubs: slug, name, host name, address, when each was added (in the
// installation's time zone, -tz) and its games and accounts, each club's store opened to count them.
func clubList(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("club list", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mafiaclub club list: unexpected %q\n", fs.Arg(0))
		return 2
	}
	zone, err := time.LoadLocation(c.tz)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: time zone %q: %v\n", c.tz, err)
		return 2
	}
	ctx := context.Background()
	p, err := openPlatform(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	defer p.Own.Close()
	ts, err := p.Own.Tenants(ctx)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub club list: %v\n", oneLine(err))
		return 1
	}
	if len(ts) == 0 {
		fmt.Fprintln(stdout, "this installation serves its own club only; add another with `mafiaclub club add`")
		return 0
	}
	status := 0
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "SLUG\tNAME\tHOST\tADDRESS\tCREATED\tGAMES\tACCOUNTS")
	for _, t := range ts {
		games, accounts := "?", "?"
		db, err := p.Open(ctx, t.Slug)
		if err == nil {
			var g, a int
			g, a, err = clubCounts(ctx, db)
			db.Close()
			games, accounts = fmt.Sprint(g), fmt.Sprint(a)
		}
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub club list: %s: its store: %v\n", t.Slug, oneLine(err))
			status = 1
		}
		host := t.Host
		if host == "" {
			host = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t.Slug, t.Name, host, clubAddress(c, t),
			t.Created.In(zone).Format("2006-01-02 15:04"), games, accounts)
	}
	w.Flush()
	return status
}

// clubHost gives a club a host name of its own, or takes it away (-host "").
func clubHost(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("club host", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	slug := fs.String("slug", "", "the club")
	host := fs.String("host", "", `its host name, like edmonton.example.org; "" takes it away (never the installation's own: its -public-url's, -addr's, localhost or an IP address)`)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	hostGiven := false
	fs.Visit(func(f *flag.Flag) { hostGiven = hostGiven || f.Name == "host" })
	if *slug == "" || !hostGiven || fs.NArg() > 0 {
		fmt.Fprintln(stderr, `mafiaclub club host: give -slug and -host (-host "" takes the club's host name away)`)
		return 2
	}
	ctx := context.Background()
	p, err := openPlatform(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	defer p.Own.Close()
	if err := p.SetHost(ctx, *slug, *host); err != nil {
		fmt.Fprintf(stderr, "mafiaclub club host: %v\n", oneLine(err))
		return 1
	}
	t, err := p.Tenant(ctx, *slug)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub club host: %v\n", oneLine(err))
		return 1
	}
	if t.Host == "" {
		fmt.Fprintf(stdout, "the club %q has no host name of its own: it is at %s\n", t.Slug, clubAddress(c, *t))
	} else {
		fmt.Fprintf(stdout, "the club %q is at %s (its /c/%s/ sends there)\n", t.Slug, clubAddress(c, *t), t.Slug)
	}
	fmt.Fprintln(stdout, "a running server serves the club at its new address within seconds")
	return 0
}

// clubRemove takes a club off the installation and removes its store with everything in it; without -yes it
// says what it would remove and removes nothing. On SQLite the server must be stopped (the data folder's lock):
// a server would go on writing into the removed file.
func clubRemove(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("club remove", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	slug := fs.String("slug", "", "the club to remove")
	yes := fs.Bool("yes", false, "remove it: without it, say what would be removed and remove nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *slug == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "mafiaclub club remove: give -slug (and -yes to remove it)")
		return 2
	}
	if *yes && !isPostgresURL(c.db) {
		lock, err := lockData(c.data)
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub club remove: %v\n", err)
			return 1
		}
		defer lock.Close()
	}
	ctx := context.Background()
	p, err := openPlatform(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	defer p.Own.Close()
	t, err := p.Tenant(ctx, *slug)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub club remove: %v\n", oneLine(err))
		return 1
	}
	dsn, err := p.DSN(t.Slug)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub club remove: %v\n", oneLine(err))
		return 1
	}
	where := dsn
	if schema := sqlstore.TenantSchema(dsn); schema != "" {
		where = "the schema " + schema
	}
	db, err := p.Open(ctx, t.Slug)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub club remove: %s: its store: %v\n", t.Slug, oneLine(err))
		return 1
	}
	games, accounts, err := clubCounts(ctx, db)
	db.Close()
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub club remove: %s: its store: %v\n", t.Slug, oneLine(err))
		return 1
	}
	what := fmt.Sprintf("the club %q (%s) at %s and its store, %s, with its games: %d, and its accounts: %d",
		t.Slug, t.Name, clubAddress(c, *t), where, games, accounts)
	if !*yes {
		fmt.Fprintf(stdout, "this would remove %s\n", what)
		fmt.Fprintf(stdout, "nothing is removed: to keep the club elsewhere, copy it out first (mafiaclub copy -from-club %s -to DB); then run this again with -yes\n", t.Slug)
		return 0
	}
	if err := p.Remove(ctx, t.Slug); err != nil {
		fmt.Fprintf(stderr, "mafiaclub club remove: %v\n", oneLine(err))
		return 1
	}
	fmt.Fprintf(stdout, "removed %s\n", what)
	if isPostgresURL(c.db) {
		fmt.Fprintln(stdout, "the servers stop serving it within seconds")
	}
	return 0
}

// storeFlags are the flags by which a command other than the server's finds the installation (as serveFlags'
// -data and -db).
func storeFlags(fs *flag.FlagSet) *config {
	c := &config{}
	fs.StringVar(&c.data, "data", env("MAFIACLUB_DATA", "data"), "with -from-club: the installation's data folder (MAFIACLUB_DATA)")
	fs.StringVar(&c.db, "db", env("MAFIACLUB_DB", ""), "with -from-club: the installation's database, a SQLite file (default DATA/mafiaclub.db) or a postgres:// URL (MAFIACLUB_DB)")
	return c
}

// clubDSN is where club slug of the installation c keeps its store.
func clubDSN(ctx context.Context, c *config, slug string) (string, error) {
	if !isPostgresURL(c.db) {
		if _, err := os.Stat(sqlitePath(c)); err != nil {
			return "", fmt.Errorf("no installation at %s: %w", sqlitePath(c), err)
		}
	}
	p, err := openPlatform(ctx, c)
	if err != nil {
		return "", err
	}
	defer p.Own.Close()
	if _, err := p.Tenant(ctx, slug); err != nil {
		return "", err
	}
	return p.DSN(slug)
}
