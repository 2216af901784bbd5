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
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // the club's time zone works on machines without zoneinfo

	"mafiaclub/internal/club"
	"mafiaclub/internal/demo"
	"mafiaclub/internal/live"
	"mafiaclub/internal/notify"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/wasmengine"
	"mafiaclub/internal/web"
)

func env(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

type config struct {
	addr, data, db, tz, cookies, smtp string
	logFormat, metricsToken           string
	debugAddr                         string
	tlsCert, tlsKey                   string
	demo                              bool
	demoPace                          time.Duration // the demo's live game (demo_live.go); -1 when MAFIACLUB_DEMO_PACE is no duration
	demoPaceBad                       string
	engine                            string
	maxStreams, maxStreamsPerAddress  int
	badEnv                            map[string]string // a bound's flag -> its variable's text, when no number
	trustedProxies                    string
	telegramToken, telegramAPI        string // the club's bot (telegram.go)
	telegramWebhook                   bool
	publicURL                         string
}

// envInt reads a number from the environment into c: def when unset; when not a number, -1 (refused when the
// server starts, unless the flag is given) and its text kept to be named.
func (c *config) envInt(flag, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		if c.badEnv == nil {
			c.badEnv = map[string]string{}
		}
		c.badEnv[flag] = v
		return -1
	}
	return n
}

// given is the text of a bound as it was given, to name it when it is refused: the flag's value, or the
// environment variable's text when the flag was not given.
func (c *config) given(fs *flag.FlagSet, name string, n int) string {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	if v, ok := c.badEnv[name]; ok && !set {
		return v
	}
	return strconv.Itoa(n)
}

func serveFlags(fs *flag.FlagSet) *config {
	c := &config{}
	fs.StringVar(&c.addr, "addr", env("MAFIACLUB_ADDR", "localhost:8080"), "address to listen on (MAFIACLUB_ADDR)")
	fs.StringVar(&c.data, "data", env("MAFIACLUB_DATA", "data"), "data folder, created if missing (MAFIACLUB_DATA)")
	fs.StringVar(&c.db, "db", env("MAFIACLUB_DB", ""), "database: a SQLite file (default DATA/mafiaclub.db) (MAFIACLUB_DB)")
	fs.StringVar(&c.tz, "tz", env("MAFIACLUB_TZ", "America/Edmonton"), "the club's time zone (MAFIACLUB_TZ)")
	fs.StringVar(&c.cookies, "cookie-secure", env("MAFIACLUB_COOKIE_SECURE", "auto"), "mark the session cookie Secure: auto (over TLS and on localhost), always, never")
	fs.StringVar(&c.engine, "engine", env("MAFIACLUB_ENGINE", "auto"), "the host page's engine in the browser: auto (the one this binary carries, or else built from the checkout with the Go toolchain at start-up) or off (MAFIACLUB_ENGINE)")
	fs.IntVar(&c.maxStreams, "max-streams", c.envInt("max-streams", "MAFIACLUB_MAX_STREAMS", web.DefaultMaxStreams), "the spectators' live streams open at once (a host's own devices have places of their own); one more is refused with 503, about 6 KiB of memory each (MAFIACLUB_MAX_STREAMS)")
	fs.IntVar(&c.maxStreamsPerAddress, "max-streams-per-address", c.envInt("max-streams-per-address", "MAFIACLUB_MAX_STREAMS_PER_ADDRESS", web.DefaultMaxStreamsPerAddress), "the live streams one client address may hold open (behind a trusted proxy, the client's own address) (MAFIACLUB_MAX_STREAMS_PER_ADDRESS)")
	fs.StringVar(&c.trustedProxies, "trusted-proxies", env("MAFIACLUB_TRUSTED_PROXIES", "127.0.0.1,::1"), "the club's reverse proxies and load balancers, addresses or prefixes, comma-separated: a request from one of them is counted by the login and sign-up throttles and the streams' bound per address as coming from the address it names in X-Forwarded-For; empty: none (MAFIACLUB_TRUSTED_PROXIES)")
	fs.BoolVar(&c.demo, "demo", false, "create the demo club (admin, host, twenty players with their season) if it is not there, and play its live game")
	demoFlags(fs, c)
	fs.StringVar(&c.logFormat, "log-format", env("MAFIACLUB_LOG_FORMAT", "text"), "the log's format: text or json (MAFIACLUB_LOG_FORMAT)")
	fs.StringVar(&c.metricsToken, "metrics-token", env("MAFIACLUB_METRICS_TOKEN", ""), "a token that opens /metrics to other machines (Authorization: Bearer TOKEN); without it, only this machine (MAFIACLUB_METRICS_TOKEN)")
	fs.StringVar(&c.debugAddr, "debug-addr", env("MAFIACLUB_DEBUG_ADDR", ""), "serve Go's profiles (net/http/pprof) at this loopback address, like 127.0.0.1:6060; empty: none (MAFIACLUB_DEBUG_ADDR)")
	fs.StringVar(&c.tlsCert, "tls-cert", env("MAFIACLUB_TLS_CERT", ""), "serve HTTPS with this certificate file (PEM, the chain included) (MAFIACLUB_TLS_CERT)")
	fs.StringVar(&c.tlsKey, "tls-key", env("MAFIACLUB_TLS_KEY", ""), "the certificate's private key file (PEM) (MAFIACLUB_TLS_KEY)")
	fs.StringVar(&c.smtp, "smtp", env("MAFIACLUB_SMTP", ""), "mail server for members' notices, smtp://user:pass@host:port?from=club@example.org (MAFIACLUB_SMTP)")
	telegramFlags(fs, c)
	return c
}

// sqlitePath is the SQLite file of the configuration: -db, or DATA/mafiaclub.db.
func sqlitePath(c *config) string {
	if path := strings.TrimPrefix(c.db, "sqlite:"); path != "" {
		return path
	}
	return filepath.Join(c.data, "mafiaclub.db")
}

// openStore opens the configured database, creating the data folder.
func openStore(ctx context.Context, c *config) (*sqlstore.DB, error) {
	if isPostgresURL(c.db) {
		return sqlstore.Open(ctx, c.db)
	}
	if err := os.MkdirAll(c.data, 0o750); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	return sqlstore.Open(ctx, sqlitePath(c))
}

func serve(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := serveFlags(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var log *slog.Logger
	switch c.logFormat {
	case "text":
		log = slog.New(slog.NewTextHandler(stderr, nil))
	case "json":
		log = slog.New(slog.NewJSONHandler(stderr, nil))
	default:
		fmt.Fprintf(stderr, "mafiaclub: -log-format is text or json, not %q\n", c.logFormat)
		return 2
	}
	if (c.tlsCert == "") != (c.tlsKey == "") {
		fmt.Fprintln(stderr, "mafiaclub: give both -tls-cert and -tls-key, or neither")
		return 2
	}
	if c.engine != "auto" && c.engine != "off" {
		fmt.Fprintf(stderr, "mafiaclub: -engine is auto or off, not %q\n", c.engine)
		return 2
	}
	trusted, err := web.ParseTrustedProxies(c.trustedProxies)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: -trusted-proxies: %v\n", err)
		return 2
	}
	if c.maxStreams <= 0 {
		fmt.Fprintf(stderr, "mafiaclub: -max-streams (MAFIACLUB_MAX_STREAMS) is a positive number of streams, not %q\n", c.given(fs, "max-streams", c.maxStreams))
		return 2
	}
	if c.maxStreamsPerAddress <= 0 {
		fmt.Fprintf(stderr, "mafiaclub: -max-streams-per-address (MAFIACLUB_MAX_STREAMS_PER_ADDRESS) is a positive number of streams, not %q\n",
			c.given(fs, "max-streams-per-address", c.maxStreamsPerAddress))
		return 2
	}
	if !checkDemoPace(fs, c, stderr) {
		return 2
	}
	zone, err := time.LoadLocation(c.tz)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: time zone %q: %v\n", c.tz, err)
		return 2
	}
	if !isPostgresURL(c.db) { // one process owns an SQLite database
		lock, err := lockData(c.data)
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
			return 1
		}
		defer lock.Close()
	}
	if c.debugAddr != "" {
		dbg, at, err := startDebug(c.debugAddr)
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
			return 2
		}
		defer dbg.Close()
		fmt.Fprintf(stdout, "profiles at http://%s/debug/pprof/\n", at)
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
	demoOn := c.demo || empty // never a club that had accounts, unless asked
	if demoOn {
		made, err := club.SeedDemo(ctx, db)
		if err != nil {
			fmt.Fprintf(stderr, "mafiaclub: demo club: %v\n", err)
			return 1
		}
		if made {
			fmt.Fprintf(stdout, "demo club created: log in as %s / %s (admin), %s / %s (host) or %s / %s (a member)\n",
				club.DemoAdminLogin, club.DemoAdminPassword, club.DemoHostLogin, club.DemoHostPassword,
				demo.MemberLogin(club.DemoNicks()[0]), demo.MemberPassword)
		}
	}
	clock := club.NewClock(zone, nil)
	db.Now = clock.Now
	svc := club.NewServices(db, clock)
	if demoOn {
		demoSeason(ctx, db, clock, log)
	}
	// the players' figures of games saved before they existed, computed once from their records (points unchanged)
	if n, err := svc.Records.Backfill(context.Background()); err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	} else if n > 0 {
		log.Info("figures computed from the records of earlier games", "games", n)
	}
	if !isPostgresURL(c.db) {
		svc.Backups = club.NewBackups(db, clock, filepath.Join(c.data, "backups"))
	}
	site, err := newSite(svc, c, trusted, log)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	if !isPostgresURL(c.db) { // admins are warned while the database's disk runs low (PostgreSQL's is its server's)
		site.WatchDisk(ctx, filepath.Dir(sqlitePath(c)))
	}
	log.Info("mafiaclub "+version, "go", runtime.Version(), "engine_embedded", wasmengine.Embedded())
	var bus *live.PGBus
	if isPostgresURL(c.db) {
		if bus, err = live.StartPGBus(ctx, c.db, log); err != nil {
			fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
			return 1
		}
	}
	stopClub, err := startClub(site, c, bus, c.db, "", "", log)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 2
	}
	defer stopClub()
	// the installation's other clubs (issue 29), each over its own store with its own site: served at /c/SLUG/
	// or at a host name of its own; the registry is read again every few seconds, so that a club added by
	// `mafiaclub club add` or on another server is served without a restart
	names := ownNames(c)
	plat := &platform.Platform{Own: db, OwnDSN: ownDSN(c), Names: names}
	router := web.NewPlatform(site)
	router.OwnHost = names.Has // the installation's own names are its own site's, whatever the registry says
	dir := platform.NewDirectory(svc)
	clubs := &clubSites{plat: plat, router: router, own: site, c: c, bus: bus, zone: zone, trusted: trusted, log: log, open: map[string]*clubSite{},
		dir: dir, persons: club.NewPersons(db, svc.Clock, dir)}
	if err := clubs.refresh(ctx); err != nil {
		// a club whose store cannot be opened is not served (and tried again every few seconds); the others are
		log.Error("the installation's clubs", "err", err)
	}
	defer clubs.stop()
	go clubs.watch(ctx, 5*time.Second)
	site.Platform = clubs
	if c.engine != "off" {
		go startEngine(ctx, clubs.setEngine, log)
	} else {
		log.Info("the host page's engine is off (-engine off): host pages work by plain form posts")
	}
	if demoOn && c.demoPace > 0 {
		defer startDemoLive(ctx, db, svc, site.Live, c.demoPace, log)() // stopped before the database closes
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	}
	srv := &http.Server{Handler: router, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	srv.RegisterOnShutdown(clubs.closeStreams) // live streams never end by themselves
	scheme := "http"
	if c.tlsCert != "" {
		scheme = "https"
	}
	fmt.Fprintf(stdout, "listening on %s://%s\n", scheme, ln.Addr())
	errc := make(chan error, 1)
	go func() {
		if c.tlsCert != "" {
			errc <- srv.ServeTLS(ln, c.tlsCert, c.tlsKey)
			return
		}
		errc <- srv.Serve(ln)
	}()
	select {
	case err := <-errc:
		fmt.Fprintf(stderr, "mafiaclub: %v\n", err)
		return 1
	case <-ctx.Done():
	}
	// SIGTERM or ^C: no new connections; requests in flight finish (their actions are committed), live streams
	// close, then the database closes (deferred above). Shutdown does not wait for the streams (written straight to
	// their connections, which it no longer tracks): WaitStreams does, and for their feeds, which read the database.
	log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Error("shutdown", "err", err)
		return 1
	}
	if err := clubs.waitStreams(sctx); err != nil {
		log.Error("shutdown: live streams still open", "err", err)
		return 1
	}
	log.Info("stopped")
	return 0
}

// startNotices runs the reminders and, with -smtp, the e-mail sender until the returned function stops them.
func startNotices(site *web.Server, smtpURL string, log *slog.Logger) (stop func(), err error) {
	o := notify.Options{Render: site.MailText, Log: log, Links: site.Services().Accounts, LinkRender: site.LinkMail}
	if smtpURL != "" {
		if o.SMTP, err = notify.ParseSMTP(smtpURL); err != nil {
			return nil, err
		}
		site.Mail = true
	}
	ctx, cancel := context.WithCancel(context.Background())
	wait := notify.Start(ctx, site.Services().Notices, o)
	return func() { cancel(); wait() }, nil
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

// engineMissing is the warning of a binary that neither carries the engine nor could build it.
const engineMissing = "NO ENGINE FOR THE HOST PAGE: this binary does not carry it (only a release does) and could not build it; " +
	"host pages work by plain form posts only, without the table app and without keeping actions while the network is down. " +
	"Install a release (the README's \"Installing a club's server\": the .deb or .tar.gz that `go run -C tools/release . -version X.Y.Z` builds), " +
	"or run the server from a checkout with the Go toolchain at hand"

// startEngine gives the host pages their engine in the browser. From a checkout it is built with the Go toolchain
// (a minute the first time, a second or two once Go's build cache has it); pages drawn before it is ready work by
// plain form posts.
func startEngine(ctx context.Context, set func(m *wasmengine.Module, missing bool), log *slog.Logger) {
	t := time.Now()
	m, err := wasmengine.Find(ctx)
	if err != nil {
		if ctx.Err() == nil {
			set(nil, true) // the admins' pages say it too
			log.Warn(engineMissing, "err", err)
		}
		return
	}
	set(m, false)
	log.Info("the host page's engine is ready", "size", len(m.WASM), "gzip", len(m.WASMGzip), "brotli", len(m.WASMBrotli), "took", time.Since(t).Round(time.Millisecond))
	if m.WASMBrotli == nil {
		// a checkout's engine: served in gzip until its brotli is made (half a minute of one core, once per
		// build: the user's cache folder keeps it)
		t = time.Now()
		m = m.WithBrotli()
		if ctx.Err() == nil {
			set(m, false)
			log.Info("the host page's engine is compressed in brotli", "brotli", len(m.WASMBrotli), "took", time.Since(t).Round(time.Millisecond))
		}
	}
}
