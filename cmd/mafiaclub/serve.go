package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // the club's time zone works on machines without zoneinfo

	"mafiaclub/internal/club"
	"mafiaclub/internal/live"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/web"
)

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

type config struct {
	addr, data, db, tz, cookies string
	demo                        bool
}

func serveFlags(fs *flag.FlagSet) *config {
	c := &config{}
	fs.StringVar(&c.addr, "addr", env("MAFIACLUB_ADDR", "localhost:8080"), "address to listen on (MAFIACLUB_ADDR)")
	fs.StringVar(&c.data, "data", env("MAFIACLUB_DATA", "data"), "data folder, created if missing (MAFIACLUB_DATA)")
	fs.StringVar(&c.db, "db", env("MAFIACLUB_DB", ""), "database: a SQLite file (default DATA/mafiaclub.db) (MAFIACLUB_DB)")
	fs.StringVar(&c.tz, "tz", env("MAFIACLUB_TZ", "America/Edmonton"), "the club's time zone (MAFIACLUB_TZ)")
	fs.StringVar(&c.cookies, "cookie-secure", env("MAFIACLUB_COOKIE_SECURE", "auto"), "mark the session cookie Secure: auto (over TLS and on localhost), always, never")
	fs.BoolVar(&c.demo, "demo", false, "create the demo club (admin, host, twenty players) if it is not there")
	return c
}

func (c *config) postgres() bool {
	return strings.HasPrefix(c.db, "postgres://") || strings.HasPrefix(c.db, "postgresql://")
}

// sqlitePath is the SQLite database's file, creating the data folder when it is the default.
func (c *config) sqlitePath() (string, error) {
	path := strings.TrimPrefix(c.db, "sqlite:")
	if path == "" {
		if err := os.MkdirAll(c.data, 0o750); err != nil {
			return "", fmt.Errorf("data folder: %w", err)
		}
		path = filepath.Join(c.data, "mafiaclub.db")
	}
	return path, nil
}

// openStore opens the configured database, creating the data folder.
func openStore(ctx context.Context, c *config) (*sqlstore.DB, error) {
	if c.postgres() {
		return sqlstore.Open(ctx, c.db)
	}
	path, err := c.sqlitePath()
	if err != nil {
		return nil, err
	}
	return sqlstore.Open(ctx, path)
}

func serve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	zone, err := time.LoadLocation(c.tz)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: time zone %q: %v\n", c.tz, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if !c.postgres() {
		// one process owns an SQLite data folder: live updates pass between the pages of one process only
		path, err := c.sqlitePath()
		if err == nil {
			var release func()
			if release, err = lockData(path + ".lock"); err == nil {
				defer release()
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
			return 1
		}
	}
	db, err := openStore(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	defer db.Close()
	empty, err := club.IsEmpty(ctx, db)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	if c.demo || empty {
		made, err := club.SeedDemo(ctx, db)
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub: demo club: %v\n", err)
			return 1
		}
		if made {
			fmt.Fprintf(stdout, "demo club created: log in as %s / %s (admin) or %s / %s (host)\n",
				club.DemoAdminLogin, club.DemoAdminPassword, club.DemoHostLogin, club.DemoHostPassword)
		}
	}
	clock := club.NewClock(zone, nil)
	db.Now = clock.Now
	site, err := web.New(club.NewServices(db, clock))
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	site.Log = log
	site.Cookies = web.CookieSecurity(c.cookies)
	if c.postgres() {
		// several servers may serve one PostgreSQL database: each change reaches the others' pages through
		// LISTEN/NOTIFY
		if _, err := live.StartPG(ctx, c.db, site.Live, log); err != nil {
			fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
			return 1
		}
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	srv := &http.Server{Handler: site.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	shutdown := make(chan struct{})
	srv.RegisterOnShutdown(func() { close(shutdown); site.Shutdown() })
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error("shutdown", "err", err)
	}
	return 0
}

// adminCreate makes an admin account; the password is read from standard input (a line).
func adminCreate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("admin create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	login := fs.String("login", "", "the new admin's login")
	name := fs.String("name", "", "the name shown on the site's pages (required: the login stays private)")
	role := fs.String("role", "admin", "the account's role: admin or host")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *login == "" || strings.TrimSpace(*name) == "" {
		fmt.Fprintln(stderr, "mafiaclub admin create: give -login and -name (the name is public, the login is not)")
		return 2
	}
	if *role != "admin" && *role != "host" {
		fmt.Fprintln(stderr, "mafiaclub admin create: -role is admin or host")
		return 2
	}
	fmt.Fprint(stderr, "password: ")
	pass, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && pass == "" {
		fmt.Fprintln(stderr, "\nmafiaclub admin create: no password on standard input")
		return 2
	}
	pass = strings.TrimRight(pass, "\r\n")
	hash, err := club.HashPassword(pass)
	if err != nil {
		fmt.Fprintf(stderr, "\nmafiaclub admin create: %v\n", err)
		return 2
	}
	ctx := context.Background()
	db, err := openStore(ctx, c)
	if err != nil {
		fmt.Fprintf(stderr, "\nmafiaclub: %v\n", err)
		return 1
	}
	defer db.Close()
	u := &club.User{Login: *login, Name: *name, Role: club.Role(*role), PasswordHash: hash}
	if err := db.CreateUser(ctx, u); err != nil {
		fmt.Fprintf(stderr, "\nmafiaclub admin create: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "\ncreated %s %q (id %d)\n", *role, *login, u.ID)
	return 0
}
