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

// openStore opens the configured database, creating the data folder.
func openStore(ctx context.Context, c *config) (*sqlstore.DB, error) {
	path := c.db
	if strings.HasPrefix(path, "postgres://") || strings.HasPrefix(path, "postgresql://") {
		return sqlstore.Open(ctx, path)
	}
	path = strings.TrimPrefix(path, "sqlite:")
	if path == "" {
		if err := os.MkdirAll(c.data, 0o750); err != nil {
			return nil, fmt.Errorf("data folder: %w", err)
		}
		path = filepath.Join(c.data, "mafiaclub.db")
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
	svc := club.NewServices(db, clock)
	// the players' figures of games saved before they existed, computed once from their records (points unchanged)
	if n, err := svc.Records.Backfill(context.Background()); err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	} else if n > 0 {
		log.Info("figures computed from the records of earlier games", "games", n)
	}
	site, err := web.New(svc)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	site.Log = log
	site.Cookies = web.CookieSecurity(c.cookies)
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	srv := &http.Server{Handler: site.Handler(), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	shutdown := make(chan struct{})
	srv.RegisterOnShutdown(func() { close(shutdown) })
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
