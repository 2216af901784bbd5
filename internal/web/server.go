// Package web is the club's site: HTTP handlers, the routes (all in routes.go), templates, static files and the
// language catalogues, all embedded. It decodes requests into domain calls and renders the answers; every rule
// of the game comes from the engine through club.Games, never from here.
package web

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/live"
	"mafiaclub/internal/wasmengine"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// CookieSecurity says when the session cookie is marked Secure.
type CookieSecurity string

// The cookie security modes.
const (
	// CookieSecureAuto marks it Secure over TLS and on localhost (where browsers accept it over plain HTTP).
	CookieSecureAuto   CookieSecurity = "auto"
	CookieSecureAlways CookieSecurity = "always"
	CookieSecureNever  CookieSecurity = "never"
)

// Server is the site. It calls the club's services only; it never sees the store.
type Server struct {
	// Base is the path the club's site is mounted under: "" (the installation's own club, or a club on a host name
	// of its own) or "/c/SLUG". The platform's router serves it with http.StripPrefix(Base, Handler()), so the
	// routes and handlers see paths without it; every address the site writes (links, forms, redirects, the
	// scripts' requests, the messages' links) carries it, and its cookies are its own (cookieName, cookiePath).
	// Files under /static/ stay at the root, shared by every club. Set it before Handler is called.
	Base string
	// Slug names the club on its installation: "" for the installation's own club (and a single club's site), the
	// club's slug for another. A club at a host name of its own has Base "", as the own club has, and is still
	// another club: whatever the clubs share (ShareBounds) tells them apart by this (slug). Unset, a club under a
	// prefix is named by its Base.
	Slug string

	// Platform is the installation's clubs for its platform admins (the own site's admins): /admin/clubs. Nil on a
	// club's site and on an installation of one club that has none of it wired.
	Platform PlatformAdmin

	svc     *club.Services
	Catalog Catalog
	Cookies CookieSecurity
	Log     *slog.Logger
	// Live tells open pages that a game changed: the host's other devices and the spectators' streams, on this
	// server and (with its transport) on the club's other servers.
	Live *live.Hub
	// Stream is how spectators' streams are served: heartbeats, the bound on one write, the end at shutdown.
	Stream live.Stream
	// PublicURL is the site's address as members reach it (https://club.example.org), for the links of the
	// club's Telegram messages; "" leaves them out. TelegramWebhook serves Telegram's webhook, nil without one.
	PublicURL       string
	TelegramWebhook http.Handler
	// Mail says the club sends e-mail (-smtp): the one-time links (links.go) may go to confirmed addresses.
	Mail bool
	// MetricsToken, when set, opens /metrics to requests that carry it (see metricsAllowed).
	MetricsToken string
	// BackupDir is where an admin's backups from the site are written ("" : the site offers none).
	BackupDir string
	// TrustedProxies are the club's reverse proxies and load balancers: a request from one of them is counted by
	// the throttles as coming from the address it names in X-Forwarded-For (ClientAddr). None: every request is
	// its connection's peer.
	TrustedProxies []netip.Prefix
	// MaxStreams bounds the spectators' server-sent event streams open at once (the hosts' own have places of
	// their own, below): each costs some 6 KiB and a connection, so a flood of them is refused (503) rather than let
	// grow. 0: DefaultMaxStreams.
	MaxStreams int
	// MaxStreamsPerAddress bounds the streams one client address may hold (ClientAddr), so that one source cannot
	// take every place. 0: DefaultMaxStreamsPerAddress.
	MaxStreamsPerAddress int
	// MaxHostStreams and MaxHostStreamsPerAccount bound the hosts' own streams (a game's versions, followed by
	// the host's other devices), which have places of their own: a flood of spectators does not keep a host's
	// second device from following the game. 0: DefaultMaxHostStreams, DefaultMaxHostStreamsPerAccount.
	MaxHostStreams, MaxHostStreamsPerAccount int
	spectatorStreams, hostStreams            streamPool
	// bounds is the site whose stream pools and bounds this one counts against (ShareBounds): the installation's
	// own, on a platform of many clubs; nil: its own.
	bounds *Server
	// running counts the streams still running and their feeds' goroutines, for WaitStreams: a stream written to
	// its connection is hijacked, and http.Server.Shutdown no longer waits for it.
	running sync.WaitGroup

	pages        map[string]*template.Template
	engine       atomic.Pointer[wasmengine.Module]
	files        hostFiles  // the browser's catalogues and service worker as served
	tables       tableCache // drawn rating tables of the rating's current version
	tourLines    tourCache  // drawn tournament standings, by what they are drawn from
	bodies       bodyCache  // pages drawn for public readers, by what they are drawn from
	metrics      *metrics
	disk         diskWatch // the data folder's free space, for the admins' warning (storage.go)
	feeds        *feeds
	streams      chan struct{} // closed when the server shuts down (CloseStreams): live streams end
	closeStreams sync.Once

	// engineMissing: host pages have no engine in the browser, which the admins' pages say (release.go).
	engineMissing atomic.Bool

	// personsSvc is the installation's persons (SetPersons): nil on an installation of one club and on a club at
	// a host name of its own.
	personsSvc atomic.Pointer[personsBox]

	// started names this run of the program in the ETags of pages built from the ratings and in the ids of the live
	// streams' frames (feeds.frameID): a new program may draw them differently.
	started string
}

const sessionCookie = "mafiaclub_session"

// DefaultMaxStreams is the bound on open event streams when the server is not told another: 20,000 streams are
// about 120 MiB of the server's memory (measured: 6.0 KiB a spectator, docs/live.md).
const DefaultMaxStreams = 20000

// DefaultMaxStreamsPerAddress is the bound on one client address's open streams: generous, since a club's or a
// venue's wifi puts many phones behind one address, and still a tenth of all the places.
const DefaultMaxStreamsPerAddress = 2000

// DefaultMaxHostStreams and DefaultMaxHostStreamsPerAccount bound the hosts' own streams when the server is not
// told others: a club has tens of hosts, each with a phone, a tablet and a laptop's tabs (2,000 streams are about
// 12 MiB).
const (
	DefaultMaxHostStreams           = 2000
	DefaultMaxHostStreamsPerAccount = 20
)

// errStreams refuses a stream beyond its pool's bounds.
var errStreams = club.Errorf(club.Busy, "too many live streams are open")

// streamPool counts the open streams of one kind, in all and per holder (a client address, or an account).
type streamPool struct {
	mu   sync.Mutex
	open int
	per  map[string]int // open streams per holder; only holders with streams open
}

// take takes a place for holder if the pool has one under both bounds.
func (p *streamPool) take(holder string, limit, perLimit int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.per == nil {
		p.per = map[string]int{}
	}
	if p.per[holder] >= perLimit || p.open >= limit {
		return false
	}
	p.per[holder]++
	p.open++
	return true
}

// give gives holder's place back.
func (p *streamPool) give(holder string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.per[holder]--; p.per[holder] == 0 {
		delete(p.per, holder)
	}
	p.open--
}

// streamSlot takes a place for a spectator's event stream from r's client (MaxStreams, MaxStreamsPerAddress); the
// caller calls release when the stream ends.
func (s *Server) streamSlot(r *http.Request) (release func(), err error) {
	b := s.boundsOf()
	return s.slot(&b.spectatorStreams, s.clientAddr(r), orDefault(b.MaxStreams, DefaultMaxStreams), orDefault(b.MaxStreamsPerAddress, DefaultMaxStreamsPerAddress))
}

// hostStreamSlot takes a place for a host's own stream of a game's versions (MaxHostStreams,
// MaxHostStreamsPerAccount): a place of the hosts' pool, counted by account.
func (s *Server) hostStreamSlot(u *club.User) (release func(), err error) {
	b := s.boundsOf()
	return s.slot(&b.hostStreams, s.accountKey(u), orDefault(b.MaxHostStreams, DefaultMaxHostStreams), orDefault(b.MaxHostStreamsPerAccount, DefaultMaxHostStreamsPerAccount))
}

// accountKey names a club's account among those of every club of the installation, for what the clubs share
// (ShareBounds): an account is a club's, and the same id in two clubs is two people, so the key names the club
// by its slug (never by its Base, which is "" both for the own club and for a club at a host name of its own),
// and the account's kind, a club's account: a person's id (the installation's store) is yet another id.
func (s *Server) accountKey(u *club.User) string {
	return "club:" + s.slug() + " user:" + strconv.FormatInt(u.ID, 10)
}

// ShareBounds makes this site's live streams count against own's pools and bounds (MaxStreams,
// MaxStreamsPerAddress, MaxHostStreams, MaxHostStreamsPerAccount): on a platform of many clubs, every club's
// spectators together are bounded as one server's are, so that a server's memory stays bounded whatever the
// number of its clubs.
func (s *Server) ShareBounds(own *Server) {
	if own != s {
		s.bounds = own
	}
}

func (s *Server) boundsOf() *Server {
	if s.bounds != nil {
		return s.bounds
	}
	return s
}

// slot takes a place in pool for holder, counts it in the metrics and among the streams WaitStreams waits for.
func (s *Server) slot(pool *streamPool, holder string, limit, perLimit int) (release func(), err error) {
	if !pool.take(holder, limit, perLimit) {
		return nil, errStreams
	}
	s.running.Add(1)
	s.metrics.streams.Inc()
	return func() {
		s.metrics.streams.Dec()
		pool.give(holder)
		s.running.Done()
	}, nil
}

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

// WaitStreams waits until every live stream has ended (CloseStreams ends them), its last bytes written, and every
// feed behind them has stopped; or until ctx is done, with its error. A server that shuts down calls it after
// http.Server.Shutdown, which does not wait for the streams written straight to their connections, and before it
// closes the database the feeds read.
func (s *Server) WaitStreams(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// New builds the site over the club's services and parses every template, so that a broken template fails at
// start-up.
func New(svc *club.Services) (*Server, error) {
	cat, err := LoadCatalog()
	if err != nil {
		return nil, err
	}
	s := &Server{svc: svc, Catalog: cat, Cookies: CookieSecureAuto, Log: slog.Default(), Live: live.NewHub(), streams: make(chan struct{}),
		started: strconv.FormatInt(time.Now().UnixNano(), 36)}
	s.Stream = live.Stream{Heartbeat: 15 * time.Second, WriteTimeout: 10 * time.Second, Done: s.streams}
	s.feeds = newFeeds(s)
	s.metrics = newMetrics(liveGamesGauge(s))
	if err := s.parseTemplates(); err != nil {
		return nil, err
	}
	return s, nil
}

// Services returns the club's services the site runs on.
func (s *Server) Services() *club.Services { return s.svc }

func (s *Server) zone() *time.Location { return s.svc.Clock.Zone }

func (s *Server) now() time.Time { return s.svc.Clock.Now() }

// apiTime is a time as every JSON interface gives it: RFC 3339 with the club's zone offset.
func (s *Server) apiTime(t time.Time) string { return t.In(s.zone()).Format(time.RFC3339) }

// apiStamp is an RFC 3339 time stamp recorded in any zone (an imported game's are UTC) as apiTime gives it; a
// stamp that is not RFC 3339 (or "") stays as it is.
func (s *Server) apiStamp(stamp string) string {
	t, err := time.Parse(time.RFC3339, stamp)
	if err != nil {
		return stamp
	}
	return s.apiTime(t)
}

func (s *Server) parseTemplates() error {
	s.pages = map[string]*template.Template{}
	names, err := fs.Glob(templateFS, "templates/*.html")
	if err != nil {
		return err
	}
	for _, name := range names {
		base := strings.TrimSuffix(strings.TrimPrefix(name, "templates/"), ".html")
		if base == "layout" || strings.HasPrefix(base, "_") {
			continue
		}
		t := template.New("layout.html").Funcs(funcs).Funcs(template.FuncMap{
			// base is the club's path prefix ("" or "/c/SLUG"): every address of a club's page starts with it
			"base": func() string { return s.Base },
		})
		t, err := t.ParseFS(templateFS, "templates/layout.html", "templates/_*.html", name)
		if err != nil {
			return err
		}
		s.pages[base] = t
	}
	return nil
}

// CloseStreams ends every live stream (server-sent events) at once: a server that shuts down calls it, since an
// open stream never finishes by itself. Requests still in flight are not touched.
func (s *Server) CloseStreams() { s.closeStreams.Do(func() { close(s.streams) }) }

// Handler returns the site with its middleware: the request's log line and metrics, recovery, security headers,
// cross-origin protection for every state-changing request, and the session.
func (s *Server) Handler() http.Handler {
	return s.underBase(s.handler())
}

func (s *Server) handler() http.Handler {
	mux := http.NewServeMux()
	s.routes(&routeTable{mux: mux})
	return s.chain(s.routed(mux))
}

// chain wraps a handler in the site's middleware (Handler).
func (s *Server) chain(h http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, club.Errorf(club.Forbidden, "this form was sent from another site, so it was refused; open the page here and send it again"))
	}))
	return s.observe(s.recoverer(compress(securityHeaders(limitBodies(cop.Handler(s.session(h)))))))
}

// underBase answers, for a club under a path prefix, what the routes would answer with an address outside it: the
// prefix itself (/c/x, which http.StripPrefix hands on as "") goes to its front door (/c/x/), and a path that the
// routes' mux would clean (a doubled slash, a dot segment) goes to the cleaned path under the prefix (the mux's
// own redirect would name the path without it, another club's or the root's).
func (s *Server) underBase(next http.Handler) http.Handler {
	if s.Base == "" {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; p == "" || p[0] != '/' || cleanPath(p) != p {
			to := s.path(cleanPath(p))
			if r.URL.RawQuery != "" {
				to += "?" + r.URL.RawQuery
			}
			http.Redirect(w, r, to, http.StatusPermanentRedirect) // 308, as the platform's router answers /c/SLUG: a form's post stays a post
			return
		}
		next.ServeHTTP(w, r)
	})
}

// cleanPath is the canonical form of a URL path as http.ServeMux makes it: rooted, no dot segments or doubled
// slashes, a trailing slash kept.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}

// path is an address of this club's site: p (a path from the root of the club's site, "/games/12") under Base.
func (s *Server) path(p string) string { return s.Base + p }

// redirect sends the browser to p, a path of this club's site ("/games/12"), under Base: every redirect of the
// site's own goes through here (see 303: the answer to a form is a GET of the page).
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, p string) {
	http.Redirect(w, r, s.path(p), http.StatusSeeOther)
}

// cookieName is the name of one of the site's cookies for this club: name itself for the club at the root ("",
// as a single club's site has always named it), name_SLUG for a club under a prefix, so that the clubs on one
// host name never read each other's (a root club's cookie, of path /, is sent to every club's pages too).
func (s *Server) cookieName(name string) string {
	if s.Base == "" {
		return name
	}
	return name + "_" + safeName(strings.TrimPrefix(s.Base, "/c/"))
}

// safeName is a slug as a name that holds only letters, digits, hyphens and dots (a cookie's, a calendar UID's
// domain): any other character is "_".
func safeName(slug string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, slug)
}

// cookiePath is the Path of a cookie the site sets for p, a path of the club's site: "/" for the whole site, under
// Base, so that a club's cookies are sent to its own pages only.
func (s *Server) cookiePath(p string) string { return s.path(p) }

// limitBodies bounds every request body, so that nobody can make the server read or spool an endless upload:
// 16 MB for game imports, 2 MB for a profile with its photo, 1 MB for anything else.
func limitBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		limit := int64(1 << 20)
		switch r.URL.Path {
		case "/admin/import":
			limit = maxUpload + 1<<20
		case "/me/profile":
			limit = 2 << 20
		}
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		next.ServeHTTP(w, r)
	})
}

func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("X-Frame-Options", "DENY")
		next.ServeHTTP(w, r)
	})
}

func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.Log.Error("panic", "path", r.URL.Path, "value", v)
				http.Error(w, s.Catalog.T(s.pickLang(r, ""), "error.internal"), http.StatusInternalServerError)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

type ctxKey int

const userKey ctxKey = 1

// session loads the logged-in account, if any, into the request's context: the club's own session's, else, on an
// installation of several clubs, a person's session and his account in this club (personSession).
func (s *Server) session(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		found := false
		if c, err := r.Cookie(s.cookieName(sessionCookie)); err == nil && c.Value != "" {
			if u, err := s.svc.Accounts.Session(r.Context(), c.Value); err == nil {
				r = r.WithContext(context.WithValue(r.Context(), userKey, u))
				found = true
			}
		}
		if ps := s.persons(); !found && ps != nil {
			r = s.personSession(r, ps)
		}
		next.ServeHTTP(w, r)
	})
}

func currentUser(r *http.Request) *club.User {
	u, _ := r.Context().Value(userKey).(*club.User)
	return u
}

func (s *Server) secureCookie(r *http.Request) bool {
	switch s.Cookies {
	case CookieSecureAlways:
		return true
	case CookieSecureNever:
		return false
	}
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		return true
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// setSession gives the browser a session's token in an HttpOnly, SameSite=Lax cookie (Secure as configured).
func (s *Server) setSession(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(sessionCookie), Value: token, Path: s.cookiePath("/"), HttpOnly: true, Secure: s.secureCookie(r),
		SameSite: http.SameSiteLaxMode, MaxAge: int(club.SessionTTL.Seconds())})
}

// sessionToken is the request's session token, "" when none.
func (s *Server) sessionToken(r *http.Request) string {
	if c, err := r.Cookie(s.cookieName(sessionCookie)); err == nil {
		return c.Value
	}
	return ""
}

func (s *Server) endSession(w http.ResponseWriter, r *http.Request) {
	if err := s.svc.Accounts.Logout(r.Context(), s.sessionToken(r)); err != nil {
		s.Log.Error("logout", "err", err)
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(sessionCookie), Value: "", Path: s.cookiePath("/"), HttpOnly: true, Secure: s.secureCookie(r),
		SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// require wraps a handler that needs a role: no session goes to the login page (or 401 for scripts), a role too
// low is 403.
func (s *Server) require(role club.Role, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u := currentUser(r)
		if u == nil {
			if r.Method == http.MethodGet && currentPerson(r) != nil {
				s.redirect(w, r, "/join") // a person of the installation who is not a member here: he may join
				return
			}
			if r.Method == http.MethodGet {
				s.redirect(w, r, "/login?next="+urlQueryEscape(s.path(r.URL.RequestURI())))
				return
			}
			s.fail(w, r, club.Errorf(club.Unauthorized, "log in first"))
			return
		}
		if !u.Role.Can(role) {
			s.fail(w, r, club.Errorf(club.Forbidden, "this needs the %s role", role))
			return
		}
		h(w, r)
	}
}

// status maps a domain error code to an HTTP status, in one place.
func status(code club.Code) int {
	switch code {
	case club.Invalid:
		return http.StatusBadRequest
	case club.NotFound:
		return http.StatusNotFound
	case club.Conflict:
		return http.StatusConflict
	case club.Unauthorized:
		return http.StatusUnauthorized
	case club.Forbidden:
		return http.StatusForbidden
	case club.Rejected, club.Closed:
		return http.StatusUnprocessableEntity
	case club.TooMany:
		return http.StatusTooManyRequests
	case club.Busy:
		return http.StatusServiceUnavailable
	case club.NoSpace:
		return http.StatusInsufficientStorage // not "try again": nothing changes until the admin frees space
	}
	return http.StatusInternalServerError
}

// fail renders an error page for err; only internal errors are logged.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	code := club.ErrorCode(err)
	if errors.Is(err, context.Canceled) {
		return // the client went away; nothing to answer or to log
	}
	if code == club.Internal {
		s.Log.Error("request failed", "path", r.URL.Path, "err", err) // the error says its cause (club.Error)
		s.metrics.internal.Inc()
	}
	if code == club.NoSpace {
		s.diskFull(r, err)
	}
	if code == club.Busy || code == club.TooMany {
		w.Header().Set("Retry-After", "5")
	}
	p := s.page(r)
	p.Title = p.T("error.title") // the tab and the history name the page, as every other page's title does
	msg := s.errorText(p.Lang, err)
	w.WriteHeader(status(code))
	s.render(w, "error", struct {
		Page
		Message string
	}{p, msg})
}

// errorText says an error in the user's language.
func (s *Server) errorText(lang string, err error) string {
	var ce *club.Error
	if !errors.As(err, &ce) {
		return s.Catalog.T(lang, "error.internal")
	}
	if re := club.RuleError(err); re != nil {
		return s.ruleText(lang, err, re)
	}
	switch ce.Code {
	case club.Invalid:
		if errors.Is(err, club.ErrWrongPassword) {
			return s.Catalog.T(lang, "password.wrong")
		}
		msg := ce.Message
		if m, ok := s.domainText(lang, ce); ok {
			msg = m
		}
		return s.Catalog.T(lang, "error.invalid", msg)
	case club.Conflict:
		if errors.Is(err, club.ErrNickTaken) {
			return s.Catalog.T(lang, "profile.nick_taken")
		}
	case club.Forbidden:
		switch {
		case errors.Is(err, club.ErrNotApproved):
			return s.Catalog.T(lang, "nights.pending")
		case errors.Is(err, club.ErrExcluded):
			return s.Catalog.T(lang, "nights.excluded")
		}
	case club.Internal:
		return s.Catalog.T(lang, "error.internal")
	}
	if m, ok := s.domainText(lang, ce); ok { // a refusal with words of its own
		return m
	}
	return s.Catalog.T(lang, "error."+string(ce.Code))
}

// domainText says a domain error's own message in lang through the catalogue: the key "msg:" + its format, or,
// for a message that counts, the plural key "msg:" + its format + ".n", whose count is the format's first
// argument. ok is false when the catalogue has neither.
func (s *Server) domainText(lang string, ce *club.Error) (string, bool) {
	if ce.Format == "" {
		return "", false
	}
	if s.Catalog.Has("msg:" + ce.Format) {
		return s.Catalog.T(lang, "msg:"+ce.Format, s.localArgs(lang, ce.Args)...), true
	}
	if key := "msg:" + ce.Format + ".n"; s.Catalog.Has(key) && len(ce.Args) > 0 {
		if n, ok := countArg(ce.Args[0]); ok {
			return s.Catalog.N(lang, key, n, s.localArgs(lang, ce.Args[1:])...), true
		}
	}
	return "", false
}

// countArg is a message's count argument as an int.
func countArg(a any) (int, bool) {
	switch v := a.(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case int32:
		return int(v), true
	}
	return 0, false
}

// messageText says a domain error's own message in the user's language, without the words around it that
// errorText adds ("Check the form: ..."); errorText for anything else.
func (s *Server) messageText(lang string, err error) string {
	var ce *club.Error
	if errors.As(err, &ce) {
		if m, ok := s.domainText(lang, ce); ok {
			return m
		}
	}
	return s.errorText(lang, err)
}

// localArgs says a message's arguments that have names of their own (an account's role) in the user's language.
func (s *Server) localArgs(lang string, args []any) []any {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case club.Role:
			a = s.Catalog.T(lang, "members.role_"+string(v))
		case club.Field:
			a = s.Catalog.T(lang, "field."+string(v))
		}
		out[i] = a
	}
	return out
}

func (s *Server) render(w http.ResponseWriter, name string, data any) {
	t, ok := s.pages[name]
	if !ok {
		http.Error(w, "no page "+name, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := t.Execute(w, data); err != nil {
		s.Log.Error("render", "page", name, "err", err)
	}
}
