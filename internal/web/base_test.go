package web_test

import (
	"context"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/demo"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/web"
)

// A club's site mounted under a path prefix (/c/SLUG), as the platform of many clubs mounts it: every address the
// site writes carries the prefix, and its cookies are its own (issue 29).

// mountedSite is the demo club's site over a store of its own, as the platform's router mounts it.
func mountedSite(t *testing.T, base string) (*web.Server, *sqlstore.DB) {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := club.SeedDemo(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	site, err := web.New(club.NewServices(db, club.NewClock(time.UTC, nil)))
	if err != nil {
		t.Fatal(err)
	}
	site.Base = base
	site.Cookies = web.CookieSecureNever
	site.Log = slog.New(slog.NewTextHandler(testLog{t}, nil))
	return site, db
}

// mount serves each site at its Base on mux as the platform's router does: http.StripPrefix(Base, Handler()); the
// site at "" also answers /static/ for all (the files shared by every club) and everything else.
func mount(mux *http.ServeMux, site *web.Server) {
	h := site.Handler()
	if site.Base == "" {
		mux.Handle("/", h)
		return
	}
	mux.Handle(site.Base+"/", http.StripPrefix(site.Base, h))
	mux.Handle(site.Base, http.StripPrefix(site.Base, h))
}

// newBaseHarness is the demo club's site, with its season, at base ("" or "/c/x") on an httptest server; with a base, the server
// answers /static/ from the same site (the router sends it to the shared files) and nothing else outside base.
func newBaseHarness(t *testing.T, base string) *harness {
	t.Helper()
	site, db := mountedSite(t, base)
	// the demo's season: its club nights, saved games, tournament and members' accounts
	if _, err := demo.Season(context.Background(), db, demo.Options{Seed: demo.DefaultSeed, Zone: time.UTC, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mount(mux, site)
	if base != "" {
		mux.Handle("/static/", site.Handler())
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &harness{t: t, srv: srv, site: site, store: db}
}

// loginAt logs in at the site under base and returns the client.
func (h *harness) loginAt(base, login, pass string) *http.Client {
	h.t.Helper()
	c := h.client()
	resp := h.post(c, base+"/login", url.Values{"login": {login}, "password": {pass}})
	if resp.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("login %s at %q: %d %s", login, base, resp.StatusCode, errorOf(resp.Body))
	}
	return c
}

// attrRE finds the addresses a page gives: links, forms, sources, and every data attribute (read for addresses).
var attrRE = regexp.MustCompile(`\s(href|src|action|formaction|data-[a-z0-9-]+)="([^"]*)"`)

// formRE finds a form's method and action, to follow the GET forms (a rule set's rating, a player's filters).
var formRE = regexp.MustCompile(`<form\b([^>]*)>`)

// addressCheck is what a crawl of the site under base asks of every address it finds.
type addressCheck struct {
	t    *testing.T
	base string
	host string // the test server's host: an absolute address of it is the site's own
	bad  map[string]string
}

// own says whether u is an address of this site to check (and returns its path and query); false for another
// site's, a fragment, data: and the like.
func (a *addressCheck) own(u string) (string, bool) {
	if u == "" || strings.HasPrefix(u, "#") || strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "mailto:") || strings.HasPrefix(u, "tg:") {
		return "", false
	}
	if strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
		p, err := url.Parse(u)
		if err != nil || p.Host != a.host {
			return "", false // another site's
		}
		return p.RequestURI(), true
	}
	return u, true
}

// check notes u, found at where (what), if it leaves the club's site: under a base it starts with base + "/" (or is
// base) or with /static/; at the root it starts with one "/" and never with /c/.
func (a *addressCheck) check(where, what, u string) {
	p, ok := a.own(u)
	if !ok {
		return
	}
	if !strings.HasPrefix(p, "/") {
		if strings.HasPrefix(what, "data-") {
			return // a data attribute that holds no address (a count, a name, a version)
		}
		a.bad[where+" "+what+"="+u] = "not an absolute path"
		return
	}
	good := strings.HasPrefix(p, "/static/")
	if a.base != "" {
		good = good || p == a.base || strings.HasPrefix(p, a.base+"/") || strings.HasPrefix(p, a.base+"?")
	} else {
		good = !strings.HasPrefix(p, "//") && !strings.HasPrefix(p, "/c/")
	}
	if !good {
		a.bad[where+" "+what+"="+u] = "outside the club's site"
	}
}

// shapeRE names a page's route for the crawl: its numbers are one, so that a crawl visits a few of each kind.
var shapeRE = regexp.MustCompile(`[0-9]+`)

// crawl visits, as client c, every page of the site reachable from starts (a few of each route), checks every
// address each page gives and each redirect's Location, and returns the routes visited.
func (h *harness) crawl(a *addressCheck, c *http.Client, who string, starts ...string) map[string]bool {
	h.t.Helper()
	seen := map[string]bool{}
	shapes := map[string]int{}
	routes := map[string]bool{}
	queue := slices.Clone(starts)
	for len(queue) > 0 && len(seen) < 600 {
		u := queue[0]
		queue = queue[1:]
		if seen[u] {
			continue
		}
		seen[u] = true
		pu, _ := url.Parse(u)
		shape := shapeRE.ReplaceAllString(pu.Path, "N")
		if pu.RawQuery != "" {
			shape += "?"
		}
		if shapes[shape] >= 2 {
			continue
		}
		shapes[shape]++
		routes[shapeRE.ReplaceAllString(pu.Path, "N")] = true
		r := h.get(c, u)
		where := who + " " + u
		if r.StatusCode >= 300 && r.StatusCode < 400 {
			loc := r.Header.Get("Location")
			a.check(where, "Location", loc)
			if p, ok := a.own(loc); ok {
				queue = append(queue, p)
			}
			continue
		}
		if r.StatusCode >= 500 {
			h.t.Errorf("%s: %d", where, r.StatusCode)
		}
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			continue
		}
		getForms := map[string]bool{}
		for _, m := range formRE.FindAllStringSubmatch(r.Body, -1) {
			if !strings.Contains(m[1], `method="post"`) {
				if am := regexp.MustCompile(`action="([^"]*)"`).FindStringSubmatch(m[1]); am != nil {
					getForms[html.UnescapeString(am[1])] = true
				}
			}
		}
		for _, m := range attrRE.FindAllStringSubmatch(r.Body, -1) {
			what, v := m[1], html.UnescapeString(m[2])
			a.check(where, what, v)
			follow := what == "href" || what == "src" || (what == "action" && getForms[v])
			if !follow {
				continue
			}
			p, ok := a.own(v)
			if !ok || strings.HasPrefix(p, "/static/") || strings.Contains(p, "/events") {
				continue
			}
			p, _, _ = strings.Cut(p, "#")
			if strings.HasPrefix(p, "/") && !seen[p] {
				queue = append(queue, p)
			}
		}
	}
	return routes
}

// startBaseGame has the host start a live game of ten guests through the site's form at base and take a few
// actions (the plain form posts), checking each redirect; it returns the game's id.
func (h *harness) startBaseGame(a *addressCheck, host *http.Client, base string) int64 {
	h.t.Helper()
	f := url.Values{"form": {"1"}, "rules": {"fiim-2025-club"}, "n": {"10"}, "deal": {"hand"}, "rated": {"on"}}
	for i, r := range tenRoles {
		f.Set(fmt.Sprintf("name%d", i+1), fmt.Sprintf("Guest %d", i+1))
		f.Set(fmt.Sprintf("role%d", i+1), r)
	}
	resp := h.post(host, base+"/games", f)
	if resp.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("new game at %q: %d %s", base, resp.StatusCode, errorOf(resp.Body))
	}
	loc := resp.Header.Get("Location")
	a.check("POST "+base+"/games", "Location", loc)
	id, err := strconv.ParseInt(strings.TrimPrefix(loc, base+"/games/"), 10, 64)
	if err != nil {
		h.t.Fatalf("the new game's address %q", loc)
	}
	for _, act := range []url.Values{{"type": {"day"}}, {"type": {"speech"}, "seat": {"1"}}} {
		act.Set("version", strconv.FormatInt(h.version(id), 10))
		r := h.post(host, fmt.Sprintf("%s/games/%d/act", base, id), act)
		if r.StatusCode != http.StatusSeeOther {
			h.t.Fatalf("act %v: %d %s", act, r.StatusCode, errorOf(r.Body))
		}
		a.check("POST act", "Location", r.Header.Get("Location"))
	}
	return id
}

// TestBaseAddresses crawls the demo club's site mounted at /c/x (http.StripPrefix, as the platform's router serves
// it) as an anonymous visitor, a member, the host and the admin, from the front door and their menus, a live game's
// pages, a saved game's, a player's, a club night's and a tournament's: every link, form, source, data attribute
// and redirect stays under /c/x/ (or is a /static/ file, or another site's). At the root (Base "") the same crawl
// finds every address at the root, as a single club's site has always written them.
func TestBaseAddresses(t *testing.T) {
	for _, base := range []string{"/c/x", ""} {
		t.Run("base="+base, func(t *testing.T) {
			h := newBaseHarness(t, base)
			a := &addressCheck{t: t, base: base, host: strings.TrimPrefix(h.srv.URL, "http://"), bad: map[string]string{}}
			anon := h.client()
			admin := h.loginAt(base, club.DemoAdminLogin, club.DemoAdminPassword)
			host := h.loginAt(base, club.DemoHostLogin, club.DemoHostPassword)
			member := h.loginAt(base, demo.MemberLogin(club.DemoNicks()[0]), demo.MemberPassword)
			if r := h.post(h.client(), base+"/signup", url.Values{"login": {"taras"}, "nick": {"Taras"}, "password": {"secret-pass"}, "password2": {"secret-pass"}}); r.StatusCode != http.StatusSeeOther {
				t.Fatalf("sign-up: %d %s", r.StatusCode, errorOf(r.Body))
			} else {
				a.check("POST /signup", "Location", r.Header.Get("Location"))
			}
			// the club's logo and a member's photo, so that the pages give their addresses
			if r := h.multipart(admin, base+"/admin/club", clubFields(), "logo", logoPNG()); r.StatusCode != http.StatusSeeOther {
				t.Fatalf("the club's identity: %d %s", r.StatusCode, errorOf(r.Body))
			} else {
				a.check("POST /admin/club", "Location", r.Header.Get("Location"))
			}
			joker, err := h.store.UserByLogin(context.Background(), demo.MemberLogin(club.DemoNicks()[0]))
			if err != nil {
				t.Fatal(err)
			}
			png := logoPNG()
			if r := h.multipart(member, base+"/me/profile", map[string]string{"nick": club.DemoNicks()[0]}, "photo", png); r.StatusCode != http.StatusSeeOther {
				t.Fatalf("the member's photo: %d %s", r.StatusCode, errorOf(r.Body))
			} else {
				a.check("POST /me/profile", "Location", r.Header.Get("Location"))
			}
			id := h.startBaseGame(a, host, base)
			live := fmt.Sprintf("%s/live/%d", base, id)
			game := fmt.Sprintf("%s/games/%d", base, id)
			player := fmt.Sprintf("%s/players/%d", base, joker.PlayerID)

			want := map[string][]string{ // the routes each must reach (numbers as N)
				"anonymous": {"/", "/rating", "/history", "/history/N", "/players/N", "/nights", "/nights/N", "/tournaments", "/tournaments/N", "/live", "/live/N", "/live/N/screen", "/live/N/overlay", "/rules", "/login", "/signup", "/club/logo", "/players/N/photo"},
				"member":    {"/me", "/me/profile", "/me/password", "/me/notices", "/me/telegram"},
				"host":      {"/games", "/games/new", "/games/N", "/games/N/seats"},
				"admin":     {"/admin/members", "/admin/strikes", "/admin/import", "/admin/summaries", "/admin/backups", "/admin/club", "/admin/telegram", "/nights/new"},
			}
			for _, who := range []struct {
				name string
				c    *http.Client
			}{{"anonymous", anon}, {"member", member}, {"host", host}, {"admin", admin}} {
				routes := h.crawl(a, who.c, who.name, base+"/", live, game, player, base+"/me")
				t.Logf("the %s's crawl: %d routes", who.name, len(routes))
				for _, r := range want[who.name] {
					if !routes[base+r] && !(r == "/" && routes[base+"/"]) {
						t.Errorf("the %s's crawl did not reach %s%s", who.name, base, r)
					}
				}
			}
			// the forms' answers: the login's next, the language switch's return, a night's registration, the
			// redirect to the login of a page that needs one, the logout
			posts := []struct {
				c    *http.Client
				path string
				form url.Values
				want string
			}{
				{h.client(), "/login", url.Values{"login": {club.DemoHostLogin}, "password": {club.DemoHostPassword}, "next": {base + "/games/new"}}, base + "/games/new"},
				{h.client(), "/login", url.Values{"login": {club.DemoHostLogin}, "password": {club.DemoHostPassword}, "next": {"//elsewhere.example/"}}, base + "/"},
				{anon, "/lang", url.Values{"lang": {"en"}, "next": {base + "/rating?page=2"}}, base + "/rating?page=2"},
				{member, "/lang", url.Values{"lang": {"uk"}, "next": {"https://elsewhere.example/"}}, base + "/"},
				{member, "/me/notices/read", url.Values{}, base + "/me/notices"},
			}
			for _, p := range posts {
				r := h.post(p.c, base+p.path, p.form)
				if got := r.Header.Get("Location"); r.StatusCode != http.StatusSeeOther || got != p.want {
					t.Errorf("POST %s%s %v: %d to %q, want %q", base, p.path, p.form, r.StatusCode, got, p.want)
				}
			}
			if base != "" {
				// a next outside the club's site (the root's, another club's) is its front door
				for _, next := range []string{"/rating", "/c/other/rating", "/c/xy/rating"} {
					r := h.post(h.client(), base+"/login", url.Values{"login": {club.DemoHostLogin}, "password": {club.DemoHostPassword}, "next": {next}})
					if got := r.Header.Get("Location"); got != base+"/" {
						t.Errorf("the login with next %s goes to %q, want %s/", next, got, base)
					}
				}
			}
			if r := h.get(anon, base+"/me/profile"); r.Header.Get("Location") != base+"/login?next="+url.QueryEscape(base+"/me/profile") {
				t.Errorf("a member's page to an anonymous visitor: %d to %q", r.StatusCode, r.Header.Get("Location"))
			}
			if r := h.post(member, base+"/logout", nil); r.Header.Get("Location") != base+"/" {
				t.Errorf("the logout: %d to %q", r.StatusCode, r.Header.Get("Location"))
			}
			// the host page's input names the base for the browser's engine, and the service worker its own
			if body := h.get(host, game).Body; base != "" && !strings.Contains(body, `&#34;base&#34;:&#34;`+base) && !strings.Contains(body, `"base":"`+base) {
				t.Errorf("the host page's input does not name the base %q", base)
			}
			if sw := h.get(anon, base+"/sw.js").Body; !strings.Contains(sw, fmt.Sprintf("const BASE = %q;", base)) {
				t.Errorf("the service worker at %s/sw.js does not name its base: %.200s", base, sw)
			}
			// the bounds on bodies by path hold under the prefix: an import of 2 MB is read (1 MB elsewhere)
			big := append([]byte(`{"games": [`), make([]byte, 2<<20)...)
			if r := h.multipart(admin, base+"/admin/import", map[string]string{"from": "mafiaratings"}, "files", big); strings.Contains(r.Body, html.EscapeString(mustCatalog(t).T("uk", "import.too_big"))) {
				t.Errorf("an import of 2 MB at %s/admin/import is refused as too big: %d", base, r.StatusCode)
			}
			// the calendar's nights are named for the club: two clubs' nights never clash in one calendar
			uid := "@mafiaclub\r\n"
			if base != "" {
				uid = "@x.mafiaclub\r\n"
			}
			if ics := h.get(anon, base+"/nights.ics").Body; !strings.Contains(ics, "UID:night-") || !strings.Contains(ics, uid) {
				t.Errorf("the calendar's UIDs do not end in %q: %.300s", uid, ics)
			}
			if base != "" {
				// the prefix itself goes to the club's front door, a path the mux would clean stays under it
				for from, to := range map[string]string{base: base + "/", base + "//rating": base + "/rating", base + "/history/../rating?page=2": base + "/rating?page=2"} {
					if r := h.get(anon, from); r.StatusCode/100 != 3 || r.Header.Get("Location") != to {
						t.Errorf("GET %s: %d to %q, want %q", from, r.StatusCode, r.Header.Get("Location"), to)
					}
				}
			}
			for k, why := range a.bad {
				t.Errorf("%s: %s", why, k)
			}
		})
	}
}

// TestBaseSessionsApart: two clubs on one host name, one at the root and one at /c/x, each over its own store:
// logged into one, a visitor is anonymous to the other, whichever cookies his browser sends; the cookies are named
// and scoped for their club (the root's exactly as a single club's site has always set them).
func TestBaseSessionsApart(t *testing.T) {
	root, _ := mountedSite(t, "")
	x, _ := mountedSite(t, "/c/x")
	mux := http.NewServeMux()
	mount(mux, root)
	mount(mux, x)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	h := &harness{t: t, srv: srv}

	loggedIn := func(c *http.Client, base string) bool {
		t.Helper()
		r := h.get(c, base+"/me")
		return r.StatusCode == http.StatusOK && strings.Contains(r.Body, `id="logout"`)
	}
	cookieOf := func(r response, name string) *http.Cookie {
		for _, line := range r.Header.Values("Set-Cookie") {
			if c, err := http.ParseSetCookie(line); err == nil && c.Name == name {
				return c
			}
		}
		return nil
	}
	post := func(c *http.Client, path string, form url.Values) response {
		t.Helper()
		return h.post(c, path, form)
	}

	// logged in at the root: the root's cookie, of path /, is sent to /c/x too, and /c/x does not take it
	atRoot := h.client()
	r := post(atRoot, "/login", url.Values{"login": {club.DemoAdminLogin}, "password": {club.DemoAdminPassword}})
	if c := cookieOf(r, "mafiaclub_session"); c == nil || c.Path != "/" {
		t.Fatalf("the root's session cookie: %v", r.Header.Values("Set-Cookie"))
	}
	if !loggedIn(atRoot, "") {
		t.Fatal("not logged in at the root after its login")
	}
	if loggedIn(atRoot, "/c/x") {
		t.Error("a session of the root's is taken by /c/x")
	}
	if r := h.get(atRoot, "/c/x/games/new"); r.Header.Get("Location") != "/c/x/login?next="+url.QueryEscape("/c/x/games/new") {
		t.Errorf("/c/x's host page to the root's admin: %d to %q, want its login", r.StatusCode, r.Header.Get("Location"))
	}

	// logged in at /c/x: its own cookie, sent to its own pages only; the root does not know it
	atX := h.client()
	r = post(atX, "/c/x/login", url.Values{"login": {club.DemoHostLogin}, "password": {club.DemoHostPassword}})
	sc := cookieOf(r, "mafiaclub_session_x")
	if sc == nil || sc.Path != "/c/x/" || !sc.HttpOnly || sc.SameSite != http.SameSiteLaxMode {
		t.Fatalf("/c/x's session cookie: %v", r.Header.Values("Set-Cookie"))
	}
	if cookieOf(r, "mafiaclub_session") != nil {
		t.Error("/c/x set the root's session cookie")
	}
	if dc := cookieOf(r, "mafiaclub_device_x"); dc == nil || dc.Path != "/c/x/login" {
		t.Errorf("/c/x's device cookie: %v", r.Header.Values("Set-Cookie"))
	}
	if !loggedIn(atX, "/c/x") {
		t.Fatal("not logged in at /c/x after its login")
	}
	if loggedIn(atX, "") {
		t.Error("a session of /c/x's is taken by the root")
	}
	// its cookie sent to the root anyway (a browser that ignored the path), under either name: anonymous there
	for _, name := range []string{"mafiaclub_session_x", "mafiaclub_session"} {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/me", nil)
		req.AddCookie(&http.Cookie{Name: name, Value: sc.Value})
		if r := h.do(h.client(), req); r.StatusCode == http.StatusOK {
			t.Errorf("the root takes /c/x's session token as %s", name)
		}
	}

	// one browser logged into both: each club sees its own account; logging out of one leaves the other
	both := h.client()
	post(both, "/login", url.Values{"login": {club.DemoAdminLogin}, "password": {club.DemoAdminPassword}})
	post(both, "/c/x/login", url.Values{"login": {club.DemoHostLogin}, "password": {club.DemoHostPassword}})
	if !strings.Contains(h.get(both, "/me").Body, "("+club.DemoAdminLogin+")") || !strings.Contains(h.get(both, "/c/x/me").Body, "("+club.DemoHostLogin+")") {
		t.Error("one browser logged into both clubs does not see each club's own account")
	}
	r = post(both, "/c/x/logout", nil)
	if r.Header.Get("Clear-Site-Data") != "" {
		t.Errorf("the logout of /c/x clears the whole host name's data (the root's host's actions not yet saved too): %q", r.Header.Get("Clear-Site-Data"))
	}
	if loggedIn(both, "/c/x") || !loggedIn(both, "") {
		t.Error("after the logout of /c/x: still logged in there, or logged out at the root")
	}

	// the language: each club's own cookie
	r = post(both, "/c/x/lang", url.Values{"lang": {"en"}, "next": {"/c/x/rating"}})
	if c := cookieOf(r, "lang_x"); c == nil || c.Path != "/c/x/" || c.Value != "en" {
		t.Errorf("/c/x's language cookie: %v", r.Header.Values("Set-Cookie"))
	}
	if got := h.get(h.client(), "/rating").Body; !strings.Contains(got, `<html lang="uk">`) {
		t.Error("the root's page is not in its default language")
	}
	anonX := h.client()
	post(anonX, "/c/x/lang", url.Values{"lang": {"en"}, "next": {"/c/x/"}})
	if !strings.Contains(h.get(anonX, "/c/x/rating").Body, `<html lang="en">`) || !strings.Contains(h.get(anonX, "/rating").Body, `<html lang="uk">`) {
		t.Error("a language chosen at /c/x is not /c/x's only")
	}
}

// TestBaseMessageLinks: the links of a club's Telegram messages are PublicURL + Base + the page's path.
func TestBaseMessageLinks(t *testing.T) {
	for base, want := range map[string]string{"": "https://club.example.org/nights/7", "/c/x": "https://club.example.org/c/x/nights/7"} {
		site, _ := mountedSite(t, base)
		site.PublicURL = "https://club.example.org/"
		n := club.Notice{ID: 1, NightID: 7, Kind: club.NoticeReminder, Night: club.ClubNight{ID: 7, StartsAt: time.Date(2026, 12, 4, 19, 0, 0, 0, time.UTC), Place: "Hall"}}
		_, k, ok := site.TelegramRender(context.Background(), club.TelegramMessage{Notice: n, Lang: "en"})
		if !ok || len(k) == 0 || len(k[0]) == 0 || k[0][0].URL != want {
			t.Errorf("base %q: the notice's button %+v, want a link to %s", base, k, want)
		}
	}
}
