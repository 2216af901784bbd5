package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/netip"
	"path/filepath"
	"sync"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/live"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/wasmengine"
	"mafiaclub/internal/web"
)

// ownDSN is the installation's own store as sqlstore.Open takes it: the postgres:// URL, or the SQLite file.
func ownDSN(c *config) string {
	if isPostgresURL(c.db) {
		return c.db
	}
	return sqlitePath(c)
}

// newSite builds a club's site over its services, with the settings every club of the installation shares.
func newSite(svc *club.Services, c *config, trusted []netip.Prefix, log *slog.Logger) (*web.Server, error) {
	site, err := web.New(svc)
	if err != nil {
		return nil, err
	}
	site.Log = log
	site.Cookies = web.CookieSecurity(c.cookies)
	site.MetricsToken = c.metricsToken
	site.MaxStreams, site.MaxStreamsPerAddress = c.maxStreams, c.maxStreamsPerAddress
	site.TrustedProxies = trusted
	return site, nil
}

// startClub runs what works for a club beside its pages until the returned function stops it: its reminders and
// e-mail, its Telegram bot and sender, and, on PostgreSQL, its live updates across servers (on the club's own
// channel of the server's bus, nil on SQLite). dsn is the club's store; slug is "" for the installation's own
// club, whose Telegram token may come from the command line; host is a club's host name of its own, "" for none.
// The links of a club's messages are -public-url's (or its own host name's) with the club's Base (web.Server.link).
func startClub(site *web.Server, c *config, bus *live.PGBus, dsn, slug, host string, log *slog.Logger) (stop func(), err error) {
	var stops []func()
	stopAll := func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	stopNotices, err := startNotices(site, c.smtp, log)
	if err != nil {
		return nil, err
	}
	stops = append(stops, stopNotices)
	tc := *c
	if slug != "" {
		tc.telegramToken = "" // a club's bot is its admin's to set (/admin/telegram); the flag is the own club's
		if tc.publicURL != "" && host != "" {
			tc.publicURL = "https://" + host // a club at a host name of its own is reached there
		}
	}
	stopTelegram, err := startTelegram(site, &tc, log)
	if err != nil {
		stopAll()
		return nil, err
	}
	stops = append(stops, stopTelegram)
	if bus != nil {
		// several servers may serve one PostgreSQL database: each change reaches the others' pages (spectators,
		// the host's other devices) through LISTEN/NOTIFY, each club on its own channel, all on the server's bus
		channel := live.ChannelOf(sqlstore.TenantSchema(dsnIfTenant(dsn, slug)))
		bus.Attach(channel, site.Live)
		stops = append(stops, func() { bus.Detach(channel) })
	}
	return stopAll, nil
}

// dsnIfTenant is dsn for another club's store and "" for the installation's own (whose channel is live.Channel).
func dsnIfTenant(dsn, slug string) string {
	if slug == "" {
		return ""
	}
	return dsn
}

// tenantPool bounds the PostgreSQL pool of each of an installation's other clubs on each server (the own club's
// keeps sqlstore.PostgresPool, 16), and tenantIdle closes its idle connections sooner: the connections PostgreSQL
// counts are every club's pool's on every server (and the server's bus of live updates, two in all), so 100 clubs
// on two servers held up to 100 × 2 × 16 = 3,200, where a club's ten live tables at a real pace keep one or two busy
// (docs/federation.md has the figures).
const (
	tenantPool = 4
	tenantIdle = time.Minute
)

// openTenantStore opens (and migrates) a registered club's store with its pool bounded (tenantPool).
func openTenantStore(ctx context.Context, plat *platform.Platform, slug string) (*sqlstore.DB, error) {
	db, err := plat.Open(ctx, slug)
	if err != nil {
		return nil, err
	}
	db.LimitPool(tenantPool, tenantIdle)
	return db, nil
}

// openTenant opens a registered club's store and builds its services and site, running what works beside them
// (startClub); stop stops them and closes the store.
func openTenant(ctx context.Context, plat *platform.Platform, t club.Tenant, c *config, bus *live.PGBus, zone *time.Location,
	trusted []netip.Prefix, log *slog.Logger) (*web.Server, func(), error) {
	db, err := openTenantStore(ctx, plat, t.Slug)
	if err != nil {
		return nil, nil, err
	}
	clock := club.NewClock(zone, nil)
	db.Now = clock.Now
	svc := club.NewServices(db, clock)
	if _, err := svc.Records.Backfill(ctx); err != nil {
		db.Close()
		return nil, nil, err
	}
	dsn, _ := plat.DSN(t.Slug)
	if !isPostgresURL(dsn) {
		svc.Backups = club.NewBackups(db, clock, filepath.Join(c.data, "backups", t.Slug))
	}
	site, err := newSite(svc, c, trusted, log.With("club", t.Slug))
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	site.Slug = t.Slug // at a host name of its own too, where its Base is the own club's ""
	if t.Host == "" {
		site.Base = web.Prefix(t.Slug)
	}
	stop, err := startClub(site, c, bus, dsn, t.Slug, t.Host, log.With("club", t.Slug))
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	return site, func() { stop(); db.Close() }, nil
}

// tenantHandler is a club's site as the platform serves it: under its prefix, or at its own host name's root.
func tenantHandler(site *web.Server, t club.Tenant) http.Handler {
	if site.Base == "" {
		return site.Handler()
	}
	return http.StripPrefix(site.Base, site.Handler())
}

// clubSite is a club of the installation being served.
type clubSite struct {
	t    club.Tenant
	site *web.Server
	stop func()
}

// clubSites are the installation's other clubs as this server serves them: opened from the registry at start,
// and again whenever the registry changes (a club added here, by `mafiaclub club add`, or on another server of a
// PostgreSQL installation), and closed when it stops.
type clubSites struct {
	plat    *platform.Platform
	router  *web.Platform
	own     *web.Server
	c       *config
	zone    *time.Location
	trusted []netip.Prefix
	bus     *live.PGBus // nil on SQLite
	log     *slog.Logger
	run     context.Context // the server's: the clubs' workers live as long as it
	// dir and persons are the installation's persons (one account for a person of several clubs) and the clubs
	// they reach: every club on the installation's host names logs them in, once the registry has any club; nil
	// persons: none (tests of the sites alone)
	dir     *platform.Directory
	persons *club.Persons

	mu      sync.Mutex
	open    map[string]*clubSite
	engine  *wasmengine.Module
	missing bool
}

// refresh serves the registry's clubs as it stands: opens the new ones, closes those taken off it, and opens
// again a club whose host name changed.
func (cs *clubSites) refresh(ctx context.Context) error {
	if cs.run == nil {
		cs.run = ctx
	}
	ts, err := cs.plat.Own.Tenants(ctx)
	if err != nil {
		return err
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	seen := map[string]bool{}
	var errs []error
	for _, t := range ts {
		seen[t.Slug] = true
		// a host name no club may have (the installation's own, registered by an older version): the club is
		// served at its prefix, and the installation keeps its own names
		_, refused := cs.plat.Names.CheckHost(t.Host)
		registered := t.Host
		if refused != nil {
			t.Host = ""
		}
		if o, ok := cs.open[t.Slug]; ok {
			if o.t.Host == t.Host {
				continue
			}
			cs.router.Remove(t.Slug)
			cs.forget(t.Slug)
			o.stop()
			delete(cs.open, t.Slug)
		}
		if refused != nil {
			cs.log.Error("a club's host name is refused: it is served at its prefix; give it another with `mafiaclub club host`",
				"club", t.Slug, "host", registered, "err", refused)
		}
		site, stop, err := openTenant(cs.run, cs.plat, t, cs.c, cs.bus, cs.zone, cs.trusted, cs.log)
		if err != nil {
			errs = append(errs, fmt.Errorf("club %s: %w", t.Slug, err))
			continue
		}
		site.ShareBounds(cs.own) // the installation's bounds on live streams hold for all its clubs together
		if cs.engine != nil {
			site.SetEngine(cs.engine)
		}
		site.SetEngineMissing(cs.missing)
		cs.open[t.Slug] = &clubSite{t: t, site: site, stop: stop}
		if cs.persons != nil {
			cs.dir.Add(t, site.Services())
			if t.Host == "" { // a club at a host name of its own never gets the person's cookie: its own accounts only
				site.SetPersons(cs.persons)
			}
		}
		cs.router.Add(t, tenantHandler(site, t))
		cs.log.Info("a club is served", "club", t.Slug, "address", addressOf(t))
	}
	for slug, o := range cs.open {
		if !seen[slug] {
			cs.router.Remove(slug)
			cs.forget(slug)
			o.site.CloseStreams()
			o.stop()
			delete(cs.open, slug)
			cs.log.Info("a club is no longer served: it was taken off the registry", "club", slug)
		}
	}
	if cs.persons != nil {
		// an installation of one club logs in and signs up its own accounts only, as it always did
		if len(ts) > 0 {
			cs.own.SetPersons(cs.persons)
		} else {
			cs.own.SetPersons(nil)
		}
	}
	return errors.Join(errs...)
}

// forget takes a club out of the persons' directory.
func (cs *clubSites) forget(slug string) {
	if cs.dir != nil {
		cs.dir.Remove(slug)
	}
}

func addressOf(t club.Tenant) string {
	if t.Host != "" {
		return "https://" + t.Host + "/"
	}
	return web.Prefix(t.Slug) + "/"
}

// watch refreshes the clubs every period until ctx ends.
func (cs *clubSites) watch(ctx context.Context, period time.Duration) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if err := cs.refresh(ctx); err != nil && ctx.Err() == nil {
				cs.log.Error("the installation's clubs", "err", err)
			}
		}
	}
}

// stop closes every club's site and store.
func (cs *clubSites) stop() {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for slug, o := range cs.open {
		o.stop()
		delete(cs.open, slug)
	}
}

func (cs *clubSites) all() []*web.Server {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	out := []*web.Server{cs.own}
	for _, o := range cs.open {
		out = append(out, o.site)
	}
	return out
}

// setEngine gives every club's host pages the engine (or says it is missing), and every club opened later too.
func (cs *clubSites) setEngine(m *wasmengine.Module, missing bool) {
	cs.mu.Lock()
	if m != nil {
		cs.engine = m
	}
	cs.missing = missing
	cs.mu.Unlock()
	for _, s := range cs.all() {
		if m != nil {
			s.SetEngine(m)
		}
		s.SetEngineMissing(missing)
	}
}

func (cs *clubSites) closeStreams() {
	for _, s := range cs.all() {
		s.CloseStreams()
	}
}

func (cs *clubSites) waitStreams(ctx context.Context) error {
	for _, s := range cs.all() {
		if err := s.WaitStreams(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Tenants lists the installation's other clubs (web.PlatformAdmin).
func (cs *clubSites) Tenants(ctx context.Context) ([]club.Tenant, error) {
	return cs.plat.Own.Tenants(ctx)
}

// AddClub adds a club with its first admin and serves it at once (web.PlatformAdmin).
func (cs *clubSites) AddClub(ctx context.Context, u *club.User, t club.Tenant, login, adminName, password string) error {
	if u == nil || !u.Role.Can(club.RoleAdmin) {
		return club.Errorf(club.Forbidden, "only the installation's own admins add clubs")
	}
	db, err := cs.plat.Create(ctx, t, platform.WithAdmin(t.Name, login, adminName, password))
	if err != nil {
		return err
	}
	db.Close()
	return cs.refresh(ctx)
}
