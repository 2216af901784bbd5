package web_test

import (
	"context"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/platform"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/storetest"
	"mafiaclub/internal/web"
)

// twoClubs is an installation of two clubs (issue 29): its own club "a" at the root, and club "club-b" at /c/club-b/, each a
// site over a store of its own, behind one web.Platform; both stores hold the demo club (the same logins and
// passwords in each: one club's account is still nobody in the other).
type twoClubs struct {
	a, b *harness // a.srv and b.srv are the same server, the platform's; b's paths carry /c/club-b
}

func newTwoClubs(t *testing.T, ownDSN string) *twoClubs {
	t.Helper()
	ctx := context.Background()
	own, err := sqlstore.Open(ctx, ownDSN)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() })
	if _, err := club.SeedDemo(ctx, own); err != nil {
		t.Fatal(err)
	}
	plat := &platform.Platform{Own: own, OwnDSN: ownDSN}
	bdb, err := plat.Create(ctx, club.Tenant{Slug: "club-b", Name: "Club B"}, func(ctx context.Context, db *sqlstore.DB) error {
		_, err := club.SeedDemo(ctx, db)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		bdb.Close()
		if err := plat.Remove(context.Background(), "club-b"); err != nil {
			t.Errorf("remove club club-b: %v", err)
		}
	})
	zone, _ := time.LoadLocation("America/Edmonton")
	newSite := func(db *sqlstore.DB) *web.Server {
		site, err := web.New(club.NewServices(db, club.NewClock(zone, nil)))
		if err != nil {
			t.Fatal(err)
		}
		site.Cookies = web.CookieSecureNever
		site.Log = slog.New(slog.NewTextHandler(testLog{t}, nil))
		return site
	}
	asite, bsite := newSite(own), newSite(bdb)
	bsite.Base = web.Prefix("club-b")
	p := web.NewPlatform(asite)
	p.Add(club.Tenant{Slug: "club-b", Name: "Club B"}, http.StripPrefix(bsite.Base, bsite.Handler()))
	srv := httptest.NewServer(p)
	t.Cleanup(func() { asite.CloseStreams(); bsite.CloseStreams(); srv.CloseClientConnections(); srv.Close() })
	a := &harness{t: t, srv: srv, site: asite, store: own}
	b := &harness{t: t, srv: &httptest.Server{URL: srv.URL + "/c/club-b"}, site: bsite, store: bdb}
	return &twoClubs{a: a, b: b}
}

// game starts a game of ten named players (prefix 1..prefix 10) on h's club as its host c, and plays the first
// night into day 1 with a speech, so that it is live with a public view.
func (tc *twoClubs) game(h *harness, c *http.Client, prefix string) int64 {
	h.t.Helper()
	f := url.Values{"form": {"1"}, "rules": {"fiim-2025-club"}, "n": {"10"}, "deal": {"hand"}}
	for i, r := range tenRoles {
		f.Set(fmt.Sprintf("name%d", i+1), fmt.Sprintf("%s %d", prefix, i+1))
		f.Set(fmt.Sprintf("role%d", i+1), r)
	}
	resp := h.post(c, "/games", f)
	if resp.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("new game: %d %s", resp.StatusCode, errorOf(resp.Body))
	}
	loc := resp.Header.Get("Location")
	id, err := strconv.ParseInt(loc[strings.LastIndex(loc, "/")+1:], 10, 64)
	if err != nil {
		h.t.Fatalf("new game: Location %q", loc)
	}
	h.mustAct(c, id, "type", "day")
	h.mustAct(c, id, "type", "speech", "seat", "1")
	return id
}

func TestTwoClubsSeeNothingOfEachOther(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		twoClubsApart(t, newTwoClubs(t, filepath.Join(t.TempDir(), "mafiaclub.db")))
	})
	t.Run("PostgreSQL", func(t *testing.T) { twoClubsApart(t, newTwoClubs(t, storetest.FreshPostgres(t))) })
}

func twoClubsApart(t *testing.T, tc *twoClubs) {
	a, b := tc.a, tc.b
	// the same demo logins in both stores: each logs into its own club
	hostA, hostB := a.login(club.DemoHostLogin, club.DemoHostPassword), b.login(club.DemoHostLogin, club.DemoHostPassword)
	idA := tc.game(a, hostA, "Alpha")
	idB := tc.game(b, hostB, "Bravo")
	if idA != idB {
		t.Logf("game ids: a %d, b %d", idA, idB)
	}

	// a host of club a is nobody in club b: b's host pages send him to b's login, and b's games are not his
	if r := b.get(hostA, fmt.Sprintf("/games/%d", idB)); r.StatusCode != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "login") {
		t.Errorf("club a's host on club b's game: %d %q; want a redirect to the login", r.StatusCode, r.Header.Get("Location"))
	}
	if r := b.act(hostA, idB, "type", "speech", "seat", "2"); r.StatusCode == http.StatusSeeOther {
		t.Errorf("club a's host acted in club b's game")
	}
	if r := a.get(hostB, "/admin/members"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("club b's host on club a's members: %d; want a redirect to the login", r.StatusCode)
	}

	// every public page, API and stream of one club: nothing of the other's live game (its players' names)
	pages := []string{"/", "/live", "/history", "/rating", "/nights", "/tournaments", "/stats", "/api/standings", "/api/nights",
		"/players/search?q=a"}
	for _, id := range []int64{idA, idB} {
		pages = append(pages, fmt.Sprintf("/live/%d", id), fmt.Sprintf("/live/%d/screen", id), fmt.Sprintf("/live/%d/overlay", id),
			fmt.Sprintf("/api/live/%d", id), fmt.Sprintf("/api/games/%d", id), fmt.Sprintf("/history/%d", id), fmt.Sprintf("/games/%d", id),
			fmt.Sprintf("/games/%d/state.json", id), fmt.Sprintf("/games/%d/record.json", id))
	}
	for _, side := range []struct {
		name        string
		h           *harness
		host        *http.Client
		other, mine string
	}{{"club a", a, hostA, "Bravo", "Alpha"}, {"club b", b, hostB, "Alpha", "Bravo"}} {
		sawMine := false
		for _, p := range pages {
			for _, who := range []*http.Client{side.h.client(), side.host} {
				r := side.h.get(who, p)
				if strings.Contains(r.Body, side.other) {
					t.Errorf("%s's %s shows the other club's game (%q): %d", side.name, p, side.other, r.StatusCode)
				}
				sawMine = sawMine || strings.Contains(r.Body, side.mine+" 1")
			}
		}
		if !sawMine {
			t.Errorf("%s's pages never showed its own game: the check above saw nothing", side.name)
		}
	}

	// a stream of club b's game hears club b's actions only: club a's host acting in his game with the same id
	// (or another) sends b's spectators nothing
	sse := openSSE(t, b.srv.URL, fmt.Sprintf("/live/%d/events", idB))
	defer sse.close()
	first := sse.next("club b's first frame")
	if !strings.Contains(first.Data, "Bravo") || strings.Contains(first.Data, "Alpha") {
		t.Fatalf("club b's stream's first frame: %.200q", first.Data)
	}
	a.mustAct(hostA, idA, "type", "speech", "seat", "2")
	a.mustAct(hostA, idA, "type", "speech", "seat", "3")
	b.mustAct(hostB, idB, "type", "speech", "seat", "2")
	f := sse.next("club b's frame after its own action")
	if strings.Contains(f.Data, "Alpha") || !strings.Contains(f.Data, "Bravo") {
		t.Errorf("club b's stream after the actions of both clubs: %.300q", f.Data)
	}
	if key, _ := b.liveAPI(idB, ""); frameKey(f.ID) != key.Key {
		t.Errorf("club b's stream's frame %s is not club b's view %s: another club's frame came first", f.ID, key.Key)
	}
}

func TestPlatformUnknownClub(t *testing.T) {
	tc := newTwoClubs(t, filepath.Join(t.TempDir(), "mafiaclub.db"))
	c := tc.a.client()
	for _, p := range []string{"/c/zz/", "/c/zz/games/1", "/c/zz/live/1/events", "/c/nope"} {
		req, _ := http.NewRequest(http.MethodGet, tc.a.srv.URL+p, nil)
		req.Header.Set("Accept-Language", "uk")
		r := tc.a.do(c, req)
		if r.StatusCode != http.StatusNotFound || !strings.Contains(r.Body, "немає такого клубу") {
			t.Errorf("%s: %d %s; want 404 in Ukrainian", p, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := tc.a.get(c, "/c/club-b"); r.StatusCode != http.StatusPermanentRedirect || r.Header.Get("Location") != "/c/club-b/" {
		t.Errorf("/c/club-b: %d %q; want 308 to /c/club-b/", r.StatusCode, r.Header.Get("Location"))
	}
}

// testPlatform is the platform admin's side of a twoClubs installation: a club added is made as the platform
// makes it and served by the router at once.
type testPlatform struct {
	t      *testing.T
	plat   *platform.Platform
	router *web.Platform
}

func (p *testPlatform) Tenants(ctx context.Context) ([]club.Tenant, error) {
	return p.plat.Own.Tenants(ctx)
}

func (p *testPlatform) AddClub(ctx context.Context, u *club.User, t club.Tenant, login, name, password string) error {
	if u == nil || !u.Role.Can(club.RoleAdmin) {
		return club.Errorf(club.Forbidden, "only the installation's own admins add clubs")
	}
	db, err := p.plat.Create(ctx, t, platform.WithAdmin(t.Name, login, name, password))
	if err != nil {
		return err
	}
	p.t.Cleanup(func() { db.Close(); p.plat.Remove(context.Background(), t.Slug) })
	site, err := web.New(club.NewServices(db, club.NewClock(time.UTC, nil)))
	if err != nil {
		return err
	}
	site.Cookies = web.CookieSecureNever
	site.Base = web.Prefix(t.Slug)
	p.router.Add(t, http.StripPrefix(site.Base, site.Handler()))
	return nil
}

// The platform admin's page (/admin/clubs): the own club's admins list the clubs and add one, served at once; a
// bad or taken slug is refused on the form with the reason in the admin's language, and nothing is added; a host
// is refused the page; on a club's own site there is no such page.
func TestPlatformAdminAddsClubs(t *testing.T) {
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "mafiaclub.db")
	own, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() })
	if _, err := club.SeedDemo(ctx, own); err != nil {
		t.Fatal(err)
	}
	site, err := web.New(club.NewServices(own, club.NewClock(time.UTC, nil)))
	if err != nil {
		t.Fatal(err)
	}
	site.Cookies = web.CookieSecureNever
	router := web.NewPlatform(site)
	site.Platform = &testPlatform{t: t, plat: &platform.Platform{Own: own, OwnDSN: dsn}, router: router}
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	h := &harness{t: t, srv: srv, site: site, store: own}
	admin := h.login(club.DemoAdminLogin, club.DemoAdminPassword)
	missing := regexp.MustCompile(`\[[a-z_]+\.[a-z_.]+\]`)
	for _, lang := range web.Languages {
		h.post(admin, "/lang", url.Values{"lang": {lang}})
		r := h.get(admin, "/admin/clubs")
		if r.StatusCode != http.StatusOK || missing.MatchString(r.Body) || !strings.Contains(r.Body, `id="no-clubs"`) {
			t.Errorf("%s /admin/clubs: %d %s", lang, r.StatusCode, missing.FindString(r.Body))
		}
	}
	h.post(admin, "/lang", url.Values{"lang": {"uk"}})
	add := func(slug string) response {
		return h.post(admin, "/admin/clubs", url.Values{"slug": {slug}, "name": {"Mafia " + slug}, "login": {"boss"},
			"admin_name": {"Boss"}, "password": {"boss-password"}})
	}
	if r := add("edmonton"); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/admin/clubs?added=edmonton" {
		t.Fatalf("add edmonton: %d %q %s", r.StatusCode, r.Header.Get("Location"), errorOf(r.Body))
	}
	if r := h.get(admin, "/admin/clubs?added=edmonton"); !strings.Contains(r.Body, `id="club-added"`) || !strings.Contains(r.Body, `href="/c/edmonton/"`) {
		t.Errorf("the list after the add: %s", errorOf(r.Body))
	}
	// the list says how many clubs there are and leads to the form below it, in the admin's language
	if r := h.get(admin, "/admin/clubs"); !strings.Contains(r.Body, `id="clubs-count">1 клуб · <a href="#club-add-title">`) ||
		!strings.Contains(r.Body, `id="club-add-title"`) {
		t.Errorf("the list's count and the way to the form: %s", regexp.MustCompile(`<p id="clubs-count">[^\n]*`).FindString(r.Body))
	}
	// a club at a host name of its own is listed at it, with its prefix (its slug) under it: the slug's column is
	// hidden on a phone
	if r := h.post(admin, "/admin/clubs", url.Values{"slug": {"calgary"}, "name": {"Mafia calgary"}, "host": {"calgary.example.org"},
		"login": {"boss"}, "password": {"boss-password"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("add calgary at its host name: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := h.get(admin, "/admin/clubs"); !strings.Contains(r.Body, `<td class="club-address"><a href="https://calgary.example.org/">https://calgary.example.org/</a><br><span class="muted small club-path">/c/calgary/</span>`) ||
		!strings.Contains(r.Body, `<td class="club-address"><a href="/c/edmonton/">/c/edmonton/</a></td>`) || !strings.Contains(r.Body, `id="clubs-count">2 клуби`) {
		t.Errorf("the list with a club at its own host name: %s", regexp.MustCompile(`(?s)<table class="list" id="clubs">.*?</table>`).FindString(r.Body))
	}
	if r := h.get(h.client(), "/c/edmonton/"); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, "Mafia edmonton") {
		t.Errorf("the new club is not served at once: %d", r.StatusCode)
	}
	for slug, want := range map[string]string{
		"edmonton":  "уже зайняв",           // taken
		"Edmonton!": "малих латинських",     // not URL-safe
		"x":         "щонайменше 2 символи", // too short
		"":          "потрібна коротка адреса",
	} {
		r := add(slug)
		if r.StatusCode == http.StatusSeeOther || !strings.Contains(errorOf(r.Body), want) {
			t.Errorf("slug %q: %d %q; want it refused saying %q", slug, r.StatusCode, errorOf(r.Body), want)
		}
		if !strings.Contains(r.Body, `value="`+template.HTMLEscapeString(slug)+`"`) {
			t.Errorf("slug %q: the form lost what was typed", slug)
		}
	}
	if ts, _ := own.Tenants(ctx); len(ts) != 2 {
		t.Errorf("clubs after the refusals: %+v", ts)
	}
	host := h.login(club.DemoHostLogin, club.DemoHostPassword)
	if r := h.get(host, "/admin/clubs"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a host on /admin/clubs: %d", r.StatusCode)
	}
	if r := h.post(host, "/admin/clubs", url.Values{"slug": {"calgary"}, "name": {"C"}, "login": {"x"}, "password": {"x-password"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a host adds a club: %d", r.StatusCode)
	}
	boss := (&harness{t: t, srv: &httptest.Server{URL: srv.URL + "/c/edmonton"}}).login("boss", "boss-password")
	if r := h.get(boss, "/c/edmonton/admin/clubs"); r.StatusCode != http.StatusNotFound {
		t.Errorf("a club's own admin on its site's /admin/clubs: %d, want 404 (only the installation's own site has it)", r.StatusCode)
	}
}

// Every club's spectators count against the installation's bounds together (ShareBounds): a server's memory
// stays bounded whatever the number of its clubs. Here the bound is 2 streams: one in each club, then a third in
// either is refused.
func TestClubsShareTheStreamBound(t *testing.T) {
	tc := newTwoClubs(t, filepath.Join(t.TempDir(), "mafiaclub.db"))
	tc.a.site.MaxStreams = 2
	tc.b.site.ShareBounds(tc.a.site)
	hostA, hostB := tc.a.login(club.DemoHostLogin, club.DemoHostPassword), tc.b.login(club.DemoHostLogin, club.DemoHostPassword)
	idA, idB := tc.game(tc.a, hostA, "Alpha"), tc.game(tc.b, hostB, "Bravo")
	one := openSSE(t, tc.a.srv.URL, fmt.Sprintf("/live/%d/events", idA))
	defer one.close()
	two := openSSE(t, tc.b.srv.URL, fmt.Sprintf("/live/%d/events", idB))
	defer two.close()
	for _, h := range []*harness{tc.a, tc.b} {
		id := map[*harness]int64{tc.a: idA, tc.b: idB}[h]
		if r := h.get(h.client(), fmt.Sprintf("/live/%d/events", id)); r.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("a third stream (%s): %d, want 503: the bound is the installation's", h.srv.URL, r.StatusCode)
		}
	}
}

// A club cannot be added at a host name the installation answers on as itself (its address, its -public-url's
// host, localhost, any IP address) nor at what is no host name: the form refuses each with its reason in the
// admin's language, and nothing is added. Afterwards the own admins still log in and the other clubs still
// answer: before, a club at 127.0.0.1 took the whole installation over (the own admins got 401, the other clubs
// 404). And a club a registry of an older version gives one of those names is not served there (the router).
func TestPlatformAdminRefusesOwnHosts(t *testing.T) {
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "mafiaclub.db")
	own, err := sqlstore.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { own.Close() })
	if _, err := club.SeedDemo(ctx, own); err != nil {
		t.Fatal(err)
	}
	site, err := web.New(club.NewServices(own, club.NewClock(time.UTC, nil)))
	if err != nil {
		t.Fatal(err)
	}
	site.Cookies = web.CookieSecureNever
	site.PublicURL = "https://fed.example.org"
	router := web.NewPlatform(site)
	plat := &platform.Platform{Own: own, OwnDSN: dsn}
	site.Platform = &testPlatform{t: t, plat: plat, router: router}
	srv := httptest.NewServer(router)
	t.Cleanup(srv.Close)
	addr := strings.TrimPrefix(srv.URL, "http://")
	plat.Names = platform.NewOwnNames(site.PublicURL, addr)
	router.OwnHost = plat.Names.Has
	h := &harness{t: t, srv: srv, site: site, store: own}
	admin := h.login(club.DemoAdminLogin, club.DemoAdminPassword)
	h.post(admin, "/lang", url.Values{"lang": {"uk"}})
	add := func(slug, host string) response {
		return h.post(admin, "/admin/clubs", url.Values{"slug": {slug}, "name": {"Mafia " + slug}, "host": {host},
			"login": {"boss"}, "admin_name": {"Boss"}, "password": {"boss-password"}})
	}
	if r := add("edmonton", ""); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("add edmonton: %d %s", r.StatusCode, errorOf(r.Body))
	}
	for _, c := range []struct{ host, want string }{
		{"127.0.0.1", "IP-адреса"},
		{addr, "IP-адреса"}, // the address it listens on, with the port
		{"[::1]", "IP-адреса"},
		{"0.0.0.0", "IP-адреса"},
		{"fed.example.org", "цього сервера (його адреса, -public-url чи -addr)"},
		{"FED.Example.org.", "цього сервера (його адреса, -public-url чи -addr)"},
		{"localhost", "цієї машини (localhost)"},
		{"club.localhost", "цієї машини (localhost)"},
		{"-x.example", "не починається й не закінчується дефісом"},
		{"a..example.org", "порожніх частин між крапками"},
		{strings.Repeat("a", 64) + ".example.org", "щонайбільше 63 символи"},
		{"calgary.example.org:8443", "як edmonton.example.org"},
	} {
		r := add("calgary", c.host)
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), c.want) {
			t.Errorf("host %q: %d %q; want 400 saying %q", c.host, r.StatusCode, errorOf(r.Body), c.want)
		}
	}
	if ts, _ := own.Tenants(ctx); len(ts) != 1 || ts[0].Slug != "edmonton" {
		t.Errorf("clubs after the refusals: %+v", ts)
	}
	stillOwn := func(when string) {
		t.Helper()
		if r := h.post(h.client(), "/login", url.Values{"login": {club.DemoAdminLogin}, "password": {club.DemoAdminPassword}}); r.StatusCode != http.StatusSeeOther {
			t.Errorf("%s: the own admin logs in: %d %s", when, r.StatusCode, errorOf(r.Body))
		}
		if r := h.get(admin, "/admin/clubs"); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `href="/c/edmonton/"`) {
			t.Errorf("%s: the own admin's list of clubs: %d", when, r.StatusCode)
		}
		if r := h.get(h.client(), "/c/edmonton/"); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, "Mafia edmonton") {
			t.Errorf("%s: the other club: %d", when, r.StatusCode)
		}
	}
	stillOwn("after the refusals")
	// a club at the installation's own address, as an older version could register it, is not served there
	rogue := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "rogue", http.StatusTeapot) })
	router.Add(club.Tenant{Slug: "rogue", Host: "127.0.0.1"}, rogue)
	t.Cleanup(func() { router.Remove("rogue") })
	stillOwn("with a club at 127.0.0.1 in the router")
	// a club's own host name is still its own
	router.Add(club.Tenant{Slug: "rogue", Host: "rogue.example.org"}, rogue)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	req.Host = "Rogue.Example.org"
	if r := h.do(h.client(), req); r.StatusCode != http.StatusTeapot {
		t.Errorf("a club at its own host name: %d", r.StatusCode)
	}
}

// hostNameClub is an installation of the own club (a) and club-h at a host name of its own (h, its Base "" as the
// own club's), both over stores of the demo club, h sharing a's bounds (ShareBounds) as the platform's clubs do;
// h's address is http://club-h.test:PORT, which client reaches on the test server.
type hostNameClub struct {
	a, h   *harness
	client func(h *harness) *http.Client
}

func newHostNameClub(t *testing.T) *hostNameClub {
	t.Helper()
	ctx := context.Background()
	zone, _ := time.LoadLocation("America/Edmonton")
	newSite := func(name string) (*sqlstore.DB, *web.Server) {
		db, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), name+".db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		if _, err := club.SeedDemo(ctx, db); err != nil {
			t.Fatal(err)
		}
		site, err := web.New(club.NewServices(db, club.NewClock(zone, nil)))
		if err != nil {
			t.Fatal(err)
		}
		site.Cookies = web.CookieSecureNever
		site.Log = slog.New(slog.NewTextHandler(testLog{t}, nil))
		return db, site
	}
	const host = "club-h.test"
	own, asite := newSite("own")
	hdb, hsite := newSite("club-h")
	hsite.Slug = "club-h" // its Base stays "", as the platform serves it at its host name's root
	hsite.ShareBounds(asite)
	p := web.NewPlatform(asite)
	p.Add(club.Tenant{Slug: "club-h", Name: "Club H", Host: host}, hsite.Handler())
	srv := httptest.NewServer(p)
	t.Cleanup(func() { asite.CloseStreams(); hsite.CloseStreams(); srv.CloseClientConnections(); srv.Close() })
	a := &harness{t: t, srv: srv, site: asite, store: own}
	h := &harness{t: t, srv: &httptest.Server{URL: "http://" + host + ":" + srv.URL[strings.LastIndex(srv.URL, ":")+1:]}, site: hsite, store: hdb}
	// every connection goes to the test server, whatever the host name: club-h.test is the club's own
	toServer := srv.Client().Transport.(*http.Transport).Clone()
	toServer.DialContext = func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, srv.Listener.Addr().String())
	}
	return &hostNameClub{a: a, h: h, client: func(h *harness) *http.Client {
		c := h.client()
		c.Transport = toServer
		return c
	}}
}

// A club at a host name of its own has Base "", as the installation's own club has, and shares the installation's
// bounds on live streams (ShareBounds); its accounts are still its own: its host, whose account has the same id as
// the own club's host (both stores hold the demo club), follows his game on his devices while the own club's host
// holds every place an account has (MaxHostStreamsPerAccount).
func TestHostStreamPlacesAreEachClubsAccounts(t *testing.T) {
	ctx := context.Background()
	hc := newHostNameClub(t)
	a, h, own, hdb := hc.a, hc.h, hc.a.store, hc.h.store
	a.site.MaxHostStreamsPerAccount = 2
	login := func(h *harness) *http.Client {
		c := hc.client(h)
		if r := h.post(c, "/login", url.Values{"login": {club.DemoHostLogin}, "password": {club.DemoHostPassword}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("the host's login at %s: %d %s", h.srv.URL, r.StatusCode, errorOf(r.Body))
		}
		return c
	}
	hostA, hostH := login(a), login(h)
	ua, err := own.UserByLogin(ctx, club.DemoHostLogin)
	if err != nil {
		t.Fatal(err)
	}
	uh, err := hdb.UserByLogin(ctx, club.DemoHostLogin)
	if err != nil {
		t.Fatal(err)
	}
	if ua.ID != uh.ID {
		t.Fatalf("the hosts' accounts are %d and %d: the test needs the same id in both clubs", ua.ID, uh.ID)
	}
	idA, idH := a.newGame(hostA, "fiim-2025-club", tenRoles, nil), h.newGame(hostH, "fiim-2025-club", tenRoles, nil)
	if r := h.get(hostH, "/"); !strings.Contains(r.Body, `data-base=""`) {
		t.Fatalf("club h is not served at its host name's root (Base \"\"): %d %s", r.StatusCode, errorOf(r.Body))
	}
	var open []*http.Response
	defer func() {
		for _, r := range open {
			r.Body.Close()
		}
	}()
	stream := func(h *harness, c *http.Client, id int64) int {
		t.Helper()
		resp, err := c.Get(h.srv.URL + fmt.Sprintf("/games/%d/live", id))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusOK {
			open = append(open, resp)
		} else {
			resp.Body.Close()
		}
		return resp.StatusCode
	}
	for i := 1; i <= 2; i++ {
		if code := stream(a, hostA, idA); code != http.StatusOK {
			t.Fatalf("the own club's host, device %d: %d, want 200", i, code)
		}
	}
	if code := stream(a, hostA, idA); code != http.StatusServiceUnavailable {
		t.Fatalf("the own club's host's third stream (2 an account): %d, want 503", code)
	}
	for i := 1; i <= 2; i++ {
		if code := stream(h, hostH, idH); code != http.StatusOK {
			t.Errorf("club h's host (account %d, as the own club's host), device %d, the own club's host holding his places: %d, want 200", uh.ID, i, code)
		}
	}
	if code := stream(h, hostH, idH); code != http.StatusServiceUnavailable {
		t.Errorf("club h's host's third stream: %d, want 503 (his own 2 places taken)", code)
	}
}

// The calendar of a club at a host name of its own names its nights for the club, as a prefixed club's does: a
// calendar that follows it and the own club (both with Base "") keeps their nights apart.
func TestHostNameClubsCalendarIsItsOwn(t *testing.T) {
	hc := newHostNameClub(t)
	ctx := context.Background()
	for _, h := range []*harness{hc.a, hc.h} { // a night in each club, each its store's first
		svc := h.site.Services()
		admin, _, err := svc.Accounts.Login(ctx, club.Credentials{Login: club.DemoAdminLogin, Password: club.DemoAdminPassword, Addr: "127.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: svc.Clock.Now().Add(48 * time.Hour), Place: "Café", Tables: 1, PerTable: 10}); err != nil {
			t.Fatal(err)
		}
	}
	for h, uid := range map[*harness]string{hc.a: "@mafiaclub\r\n", hc.h: "@club-h.mafiaclub\r\n"} {
		if ics := h.get(hc.client(h), "/nights.ics").Body; !strings.Contains(ics, "UID:night-") || !strings.Contains(ics, uid) {
			t.Errorf("%s: the calendar's UIDs do not end in %q: %.300s", h.srv.URL, uid, ics)
		}
	}
}
