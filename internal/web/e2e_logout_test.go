package web_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
)

// A club's local network often has no TLS: the site is at http://192.168.1.10:8080/ or at a name of the club's
// router. The browser takes such an address for no secure context, so it ignores the logout's Clear-Site-Data, has
// no service worker and no Cache Storage, but keeps IndexedDB: the host page's kept game, roles included. These
// tests run the site over plain HTTP at such a name, club.test, which the browser maps to the test server's
// 127.0.0.1 (localhost and 127.0.0.1 themselves are secure contexts).

const plainHost = "club.test"

// plainHTTP is the browser's option that maps plainHost to 127.0.0.1; every other name but localhost and
// 127.0.0.1 still resolves to nothing, as startBrowser has it.
func plainHTTP() chromedp.ExecAllocatorOption {
	return chromedp.Flag("host-resolver-rules", "MAP "+plainHost+" 127.0.0.1 , MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1")
}

// plainSite starts the site with the engine and a live game of ten guests (the roles tenRoles), its session cookie
// never Secure (a browser drops a Secure cookie sent over plain HTTP), and a browser that reaches it at
// http://club.test:port; it returns the site, the game's id, the browser and the site's address there.
func plainSite(t *testing.T) (*e2eSite, int64, context.Context, string) {
	t.Helper()
	needBrowser(t)
	m := testEngine(t)
	site := startSite(t, time.UTC, func(s *web.Server) { s.SetEngine(m); s.Cookies = web.CookieSecureNever })
	t.Cleanup(func() { site.checkLog(t) })
	_, id := site.guestGame(t)
	bctx, bcancel := startBrowser(t, plainHTTP())
	t.Cleanup(bcancel)
	deadline := time.AfterFunc(2*time.Minute, bcancel)
	t.Cleanup(func() { deadline.Stop() })
	base := strings.Replace(site.URL, "//127.0.0.1:", "//"+plainHost+":", 1)
	if base == site.URL {
		t.Fatalf("the test server is not on 127.0.0.1: %s", site.URL)
	}
	return site, id, bctx, base
}

// openPlain opens the game's host page in a tab of ctx as the demo host, checks that the page is no secure context
// (so that nothing but the page's own script can make the browser forget what it keeps) and waits for the engine.
func openPlain(t *testing.T, ctx context.Context, base string, id int64, expected ...string) *appBrowser {
	t.Helper()
	b := newAppBrowser(t, ctx, base)
	b.expected = append(b.expected, expected...)
	t.Cleanup(b.report)
	b.logIn(fmt.Sprintf("/games/%d", id), club.DemoHostLogin, club.DemoHostPassword)
	where := eval[struct {
		Origin  string `json:"origin"`
		Secure  bool   `json:"secure"`
		Worker  bool   `json:"worker"`
		Caches  bool   `json:"caches"`
		Indexed bool   `json:"indexed"`
	}](b.hostBrowser, `({ origin: location.origin, secure: window.isSecureContext, worker: 'serviceWorker' in navigator, caches: !!window.caches, indexed: !!window.indexedDB })`)
	if where.Origin != base || where.Secure {
		t.Fatalf("the page at %s is a secure context: %v; the test needs plain HTTP that the browser does not trust (Clear-Site-Data ignored)", where.Origin, where.Secure)
	}
	if !where.Indexed {
		t.Fatal("no IndexedDB over plain HTTP: the page keeps nothing, and the test shows nothing")
	}
	t.Logf("%s: secure context %v, service worker %v, Cache Storage %v, IndexedDB %v", where.Origin, where.Secure, where.Worker, where.Caches, where.Indexed)
	b.ready()
	return b
}

// keptGame is a game the host page keeps in the browser's storage, as read back from it.
type keptGame struct {
	Store string `json:"store"` // the browser's store it is kept in: "mafiaclub" and a club's prefix (keptEverywhereJS)
	Game  int64  `json:"game"`
	User  int64  `json:"user"`
	Ops   int    `json:"ops"`
	Roles bool   `json:"roles"` // its record names a role of the game's
}

// keptJS reads every game kept in the browser's storage, without making the store: the database listed by
// indexedDB.databases() or none.
const keptJS = `indexedDB.databases().then(list => list.some(d => d.name === 'mafiaclub') ? new Promise((done, fail) => {
  const q = indexedDB.open('mafiaclub');
  q.onerror = () => fail(q.error);
  q.onsuccess = () => {
    const d = q.result;
    if (!d.objectStoreNames.contains('games')) { d.close(); done([]); return; }
    const all = d.transaction('games').objectStore('games').getAll();
    all.onsuccess = () => { d.close(); done(all.result.map(r => ({ game: r.game, user: r.user, ops: (r.ops || []).length,
      roles: /"(sheriff|don|mafia)"/.test(JSON.stringify(r.base || {})) }))); };
    all.onerror = () => { d.close(); fail(all.error); };
  };
}) : [])`

func (b *appBrowser) kept() []keptGame {
	b.t.Helper()
	return evalAsync[[]keptGame](b.hostBrowser, keptJS)
}

// keepUnsaved stores an action not yet saved of the page's account for another game, as a host page of that game
// would have left it.
func (b *appBrowser) keepUnsaved(game int64) {
	b.t.Helper()
	js := fmt.Sprintf(`new Promise((done, fail) => { const q = indexedDB.open('mafiaclub', 1);
	  q.onupgradeneeded = () => q.result.createObjectStore('games', { keyPath: 'game' });
	  q.onerror = () => fail(q.error);
	  q.onsuccess = () => { const tx = q.result.transaction('games', 'readwrite');
	    tx.objectStore('games').put({ game: %d, user: +document.getElementById('logout').dataset.user, base: { record: { seats: [{ role: 'sheriff' }] } }, ops: [{ key: 'k', form: 'type=day' }] });
	    tx.oncomplete = () => { q.result.close(); done('kept'); }; }; })`, game)
	if got := evalAsync[string](b.hostBrowser, js); got != "kept" {
		b.t.Fatalf("keeping an action not yet saved of game %d: %q", game, got)
	}
}

// logOutByButton logs out through the menu's button, as a host does, and waits for the home page.
func (b *appBrowser) logOutByButton() {
	b.t.Helper()
	b.do("open the menu", chromedp.Click(chromedp.CSS(`details.menu > summary`)))
	b.do("log out", chromedp.WaitVisible(chromedp.CSS(`#logout button`)), chromedp.Click(chromedp.CSS(`#logout button`)))
	b.until("logged out", `location.pathname === '/' && document.readyState === 'complete' && !document.getElementById('logout') && !!document.querySelector('a[href^="/login"]')`, 10*time.Second)
}

// TestE2ELogoutPlainHTTP: over plain HTTP, where the browser ignores the logout's Clear-Site-Data, logging out
// through the site's button still makes the browser forget the game the host page kept (its record holds the
// roles), the account's actions not yet saved (logging out asks first), and the page's own keys; the game's address
// then shows the login page, with no role.
func TestE2ELogoutPlainHTTP(t *testing.T) {
	_, id, bctx, base := plainSite(t)
	b := openPlain(t, bctx, base, id, "Clear-Site-Data")
	cat := mustCatalog(t)
	lang := eval[string](b.hostBrowser, `document.documentElement.lang`)

	b.tap("wake the city", "#act-day")
	b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	b.do("show the roles", chromedp.Click(chromedp.CSS(`label:has(#show-roles)`)))
	if !eval[bool](b.hostBrowser, `document.body.classList.contains('show-roles') && sessionStorage.getItem('showRoles') === '1'`) {
		t.Fatal("the roles are not shown after the host asked")
	}
	kept := b.kept()
	if !slices.ContainsFunc(kept, func(g keptGame) bool { return g.Game == id && g.Roles }) {
		t.Fatalf("before logging out the browser keeps %+v, not game %d with its roles: the test shows nothing", kept, id)
	}
	b.keepUnsaved(999999)
	t.Logf("kept before logging out: %+v; sessionStorage %s, localStorage %s", b.kept(),
		eval[string](b.hostBrowser, `JSON.stringify(Object.assign({}, sessionStorage))`), eval[string](b.hostBrowser, `JSON.stringify(Object.assign({}, localStorage))`))

	asked := len(b.dialogMessages())
	b.logOutByButton()
	if got := b.dialogMessages()[asked:]; !slices.Equal(got, []string{cat.T(lang, "host.logout_unsaved")}) {
		t.Errorf("logging out with an action not yet saved asked %q, want the question about unsaved actions once", got)
	}
	if kept := b.kept(); len(kept) != 0 {
		t.Errorf("after logging out over plain HTTP the browser still keeps %+v", kept)
	}
	if n := evalAsync[string](b.hostBrowser, `window.caches ? caches.keys().then(k => k.join(',')) : ''`); n != "" {
		t.Errorf("after logging out the browser still keeps pages: %s", n)
	}
	if s := eval[string](b.hostBrowser, `JSON.stringify(Object.assign({}, sessionStorage))`); s != "{}" {
		t.Errorf("after logging out the tab still keeps %s", s)
	}
	if s := eval[string](b.hostBrowser, `JSON.stringify(Object.assign({}, localStorage))`); s != `{"mafiaclub:user":""}` {
		t.Errorf("after logging out the browser keeps %s in localStorage, want only the mark of nobody", s)
	}

	// the game's address, and the way back to it, shows the login page: nothing kept serves it
	b.do("the game's address", chromedp.Navigate(fmt.Sprintf("%s/games/%d", base, id)))
	b.until("the login page", `location.pathname === '/login' && !document.getElementById('game')`, 10*time.Second)
	b.wantNoRoles(cat, lang, "the game's address after the logout")
	// back past the home page to the game's page of before the logout: the browser loads it again (the site sends
	// it no-store), and the site answers with the login page
	eval[bool](b.hostBrowser, `window.__e2eOld = true, history.go(-2), true`)
	b.until("the login page again", `!window.__e2eOld && location.pathname === '/login' && document.readyState === 'complete' && !document.getElementById('game')`, 10*time.Second)
	b.wantNoRoles(cat, lang, "going back to the game after the logout")
	if kept := b.kept(); len(kept) != 0 {
		t.Errorf("after the game's address was opened again the browser keeps %+v", kept)
	}
}

// TestE2ELogoutPlainHTTPElsewhere: over plain HTTP, the account logs out in another tab while its host page is
// open: that page keeps nothing any more (a tap there stores no game); and a session that ends without a logout
// (its cookie gone) leaves no kept game either once a page of the site is seen by nobody, but those with actions not
// yet saved, which the host sends once he logs in again.
func TestE2ELogoutPlainHTTPElsewhere(t *testing.T) {
	_, id, bctx, base := plainSite(t)
	cat := mustCatalog(t)

	// 1. The host page in one tab, the logout in another of the same browser.
	a := openPlain(t, bctx, base, id, "401", "Clear-Site-Data")
	a.tap("wake the city", "#act-day")
	a.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	if kept := a.kept(); !slices.ContainsFunc(kept, func(g keptGame) bool { return g.Game == id && g.Roles }) {
		t.Fatalf("the host page keeps %+v, not game %d with its roles", kept, id)
	}
	tctx, tcancel := chromedp.NewContext(bctx) // a new tab, the same cookies and storage
	t.Cleanup(tcancel)
	other := newAppBrowser(t, tctx, base)
	other.expected = append(other.expected, "Clear-Site-Data")
	t.Cleanup(other.report)
	other.do("another page", chromedp.Navigate(base+"/rating"))
	other.logOutByButton()
	if kept := other.kept(); len(kept) != 0 {
		t.Errorf("after logging out in another tab the browser keeps %+v", kept)
	}
	a.until("the host page heard of the logout", `!mafiaclubHost.ready()`, 5*time.Second)
	// a tap on the open page is no longer kept: it is a plain form, which the server refuses without a session
	eval[bool](a.hostBrowser, `document.querySelector('[data-key=n]').click(), true`)
	a.until("the tap's answer", `!document.getElementById('host') || !window.mafiaclubHost`, 10*time.Second)
	if kept := a.kept(); len(kept) != 0 {
		t.Errorf("a tap on the host page after the logout elsewhere kept %+v", kept)
	}

	// 2. A session that ends without a logout: the next page seen by nobody forgets the kept game, but an action
	// not yet saved, which its host may still send.
	a.logIn(fmt.Sprintf("/games/%d", id), club.DemoHostLogin, club.DemoHostPassword)
	a.ready()
	a.tap("next speaker", "[data-key=n]")
	a.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	a.keepUnsaved(999999)
	if kept := a.kept(); len(kept) != 2 {
		t.Fatalf("the browser keeps %+v, want the game and the action not yet saved", kept)
	}
	if _, err := chromedp.Call(a.ctx, network.ClearBrowserCookies, cdp.Empty{}); err != nil { // the session ends
		t.Fatal(err)
	}
	a.do("the next page", chromedp.Navigate(base+"/"))
	a.until("seen by nobody", `document.readyState === 'complete' && !document.getElementById('logout')`, 10*time.Second)
	end := time.Now().Add(10 * time.Second)
	for {
		kept := a.kept()
		if len(kept) == 1 && kept[0].Game == 999999 && kept[0].Ops == 1 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("after a page seen by nobody the browser keeps %+v, want only the action not yet saved", kept)
		}
		time.Sleep(50 * time.Millisecond)
	}
	a.wantNoRoles(cat, eval[string](a.hostBrowser, `document.documentElement.lang`), "the home page seen by nobody")
}

// keptEverywhereJS reads every game kept in the browser's storage by the host page of any club of the page's origin
// (the store "mafiaclub" of the club at the root, "mafiaclub/c/SLUG" of one under a prefix), without making a
// store.
const keptEverywhereJS = `indexedDB.databases().then(list => Promise.all(list.filter(d => d.name === 'mafiaclub' || d.name.startsWith('mafiaclub/')).map(d => new Promise((done, fail) => {
  const q = indexedDB.open(d.name);
  q.onerror = () => fail(q.error);
  q.onsuccess = () => {
    const db = q.result;
    if (!db.objectStoreNames.contains('games')) { db.close(); done([]); return; }
    const all = db.transaction('games').objectStore('games').getAll();
    all.onsuccess = () => { db.close(); done(all.result.map(r => ({ store: d.name, game: r.game, user: r.user, ops: (r.ops || []).length,
      roles: /"(sheriff|don|mafia)"/.test(JSON.stringify(r.base || {})) }))); };
    all.onerror = () => { db.close(); fail(all.error); };
  };
})))).then(l => l.flat())`

// TestE2EPersonLogoutForgetsEveryClub: a person (one account for the installation's clubs) hosts a game in the club
// at the root and one in the club at /c/club-b, in two tabs of one browser over plain HTTP (no Clear-Site-Data);
// his session is one for both clubs, and so is his logout: logging out at club b leaves no game of either club in
// the browser's storage, and his host page of the other club, open in the other tab, keeps nothing more.
func TestE2EPersonLogoutForgetsEveryClub(t *testing.T) {
	needBrowser(t)
	m := testEngine(t)
	pc := newPersonsClubs(t)
	pc.a.site.SetEngine(m)
	pc.b.site.SetEngine(m)
	ctx := context.Background()

	// the person, an active member and a host in both clubs, with a live game of ten guests in each
	const login, password = "nomad", "nomad-password"
	if err := pc.persons.SignUp(ctx, "", club.SignUpForm{Login: login, Password: password, Nick: "Nomad", Addr: "127.0.0.1"}); err != nil {
		t.Fatal(err)
	}
	person, _, err := pc.persons.Login(ctx, club.Credentials{Login: login, Password: password, Addr: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pc.persons.Join(ctx, person, "club-b", "Nomad B", ""); err != nil {
		t.Fatal(err)
	}
	games := map[string]int64{}
	for slug, h := range map[string]*harness{"": pc.a, "club-b": pc.b} {
		svc := h.site.Services()
		admin, _, err := svc.Accounts.Login(ctx, club.Credentials{Login: club.DemoAdminLogin, Password: club.DemoAdminPassword, Addr: "127.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		u, err := pc.persons.Member(ctx, person, slug)
		if err != nil {
			t.Fatal(err)
		}
		for _, ch := range [][2]string{{"status", "active"}, {"role", "host"}} {
			if err := svc.Accounts.ChangeMember(ctx, admin, u.ID, ch[0], ch[1], "the test's"); err != nil {
				t.Fatalf("club %q: %s %s: %v", slug, ch[0], ch[1], err)
			}
		}
		if u, err = pc.persons.Member(ctx, person, slug); err != nil {
			t.Fatal(err)
		}
		ng := club.NewGame{Rules: "fiim-2025-club"}
		for i, r := range tenRoles {
			ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("Guest %d", i+1), Role: r, Guest: true})
		}
		g, err := svc.Games.Start(ctx, u, ng)
		if err != nil {
			t.Fatalf("club %q: the person's game: %v", slug, err)
		}
		games[slug] = g.ID
	}

	bctx, bcancel := startBrowser(t, plainHTTP())
	t.Cleanup(bcancel)
	deadline := time.AfterFunc(2*time.Minute, bcancel)
	t.Cleanup(func() { deadline.Stop() })
	base := strings.Replace(pc.a.srv.URL, "//127.0.0.1:", "//"+plainHost+":", 1)

	// 1. the club at the root: he logs in on his game's page and wakes the city
	a := newAppBrowser(t, bctx, base)
	a.expected = append(a.expected, "401", "Clear-Site-Data")
	t.Cleanup(a.report)
	a.logIn(fmt.Sprintf("/games/%d", games[""]), login, password)
	if eval[bool](a.hostBrowser, `window.isSecureContext`) {
		t.Fatal("the page is a secure context: the test needs plain HTTP, where the browser ignores Clear-Site-Data")
	}
	a.ready()
	a.tap("wake the city at the root", "#act-day")
	a.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)

	// 2. club b, in another tab of the same browser: the same session, his game there
	tctx, tcancel := chromedp.NewContext(bctx)
	t.Cleanup(tcancel)
	b := newAppBrowser(t, tctx, base+"/c/club-b")
	b.expected = append(b.expected, "Clear-Site-Data")
	t.Cleanup(b.report)
	b.do("his game in club b", chromedp.Navigate(fmt.Sprintf("%s/c/club-b/games/%d", base, games["club-b"])))
	b.ready()
	b.tap("wake the city in club b", "#act-day")
	b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	kept := evalAsync[[]keptGame](b.hostBrowser, keptEverywhereJS)
	for _, want := range []keptGame{{Store: "mafiaclub", Game: games[""]}, {Store: "mafiaclub/c/club-b", Game: games["club-b"]}} {
		if !slices.ContainsFunc(kept, func(g keptGame) bool { return g.Store == want.Store && g.Game == want.Game && g.Roles }) {
			t.Fatalf("before the logout the browser keeps %+v, not game %d in %s with its roles: the test shows nothing", kept, want.Game, want.Store)
		}
	}
	t.Logf("kept before the logout: %+v", kept)

	// 3. he logs out at club b: his session ends in both clubs, and the browser forgets both clubs' games
	b.do("open the menu", chromedp.Click(chromedp.CSS(`details.menu > summary`)))
	b.do("log out", chromedp.WaitVisible(chromedp.CSS(`#logout button`)), chromedp.Click(chromedp.CSS(`#logout button`)))
	b.until("logged out", `location.pathname === '/c/club-b/' && document.readyState === 'complete' && !document.getElementById('logout')`, 10*time.Second)
	if kept := evalAsync[[]keptGame](b.hostBrowser, keptEverywhereJS); len(kept) != 0 {
		t.Errorf("after his logout at club b the browser still keeps %+v", kept)
	}
	if n := evalAsync[string](b.hostBrowser, `window.caches ? caches.keys().then(k => k.join(',')) : ''`); n != "" {
		t.Errorf("after his logout the browser still keeps pages: %s", n)
	}
	// his host page at the root, open in the other tab, heard of it and keeps nothing more: a tap there is a plain
	// form, which the server refuses without a session, and no game is kept again
	a.until("the root club's host page heard of the logout", `!mafiaclubHost.ready()`, 5*time.Second)
	eval[bool](a.hostBrowser, `document.querySelector('[data-key=n]').click(), true`)
	a.until("the tap's answer", `!document.getElementById('host') || !window.mafiaclubHost`, 10*time.Second)
	if kept := evalAsync[[]keptGame](b.hostBrowser, keptEverywhereJS); len(kept) != 0 {
		t.Errorf("a tap on the root club's host page after the logout at club b kept %+v", kept)
	}
	cat := mustCatalog(t)
	a.wantNoRoles(cat, eval[string](a.hostBrowser, `document.documentElement.lang`), "the root club's host page after the logout at club b")
}
