package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
)

// TestE2EBase: a club's site mounted at /c/x (as the platform's router mounts a club, with only /static/ served at
// the root beside it) in a browser. The host logs in and starts a game through the form, and records actions
// through the table app (the engine in the page, the actions sent by host.js's own requests); a spectator's live
// page gets its stream and follows the game; the language switch brings the spectator back to the /c/x/ page. No
// request of the pages leaves /c/x/ but for the shared /static/ files.
func TestE2EBase(t *testing.T) {
	needBrowser(t)
	const base = "/c/x"
	m := testEngine(t)
	site := startSite(t, time.UTC, func(s *web.Server) { s.SetEngine(m); s.Base = base })
	t.Cleanup(func() { site.checkLog(t) })
	bctx, bcancel := startBrowser(t)
	t.Cleanup(bcancel)
	deadline := time.AfterFunc(3*time.Minute, bcancel)
	t.Cleanup(func() { deadline.Stop() })

	// the host: the login brings him back to /c/x/games/new; the game starts through the form
	host := newAppBrowser(t, bctx, site.URL)
	t.Cleanup(host.report)
	host.logIn(base+"/games/new", club.DemoHostLogin, club.DemoHostPassword)
	id := host.startHandGame("fiim-2025-club", tenRoles)
	gamePath := fmt.Sprintf("%s/games/%d", base, id)
	if got := eval[string](host.hostBrowser, `location.pathname`); got != gamePath {
		t.Fatalf("after the start the host is at %s, want %s", got, gamePath)
	}
	// the table app: each tap drawn at once by the engine and sent by the page itself
	host.ready()
	host.play(3)
	host.until("the taps saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	if v := serverVersion(t, site, id); v != host.version() || v < 3 {
		t.Fatalf("the server has the game at version %d, the page at %d", v, host.version())
	}
	if host.posts.Load() < 3 {
		t.Errorf("%d POSTs from the host's tab for 3 taps", host.posts.Load())
	}
	if !eval[bool](host.hostBrowser, `!!navigator.serviceWorker`) {
		t.Log("no service worker in this browser")
	} else {
		host.until("the service worker registered for the club's pages", `navigator.serviceWorker.getRegistrations().then(rs => window.__scopes = rs.map(r => r.scope)) && (window.__scopes || []).some(s => s.endsWith('/c/x/'))`, 10*time.Second)
	}

	// a spectator, in a browser context of his own: the live page's stream brings the host's next action
	sctx, scancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	t.Cleanup(scancel)
	spect := newAppBrowser(t, sctx, site.URL)
	t.Cleanup(spect.report)
	livePath := fmt.Sprintf("%s/live/%d", base, id)
	spect.do("open the live page", chromedp.Navigate(site.URL+livePath), chromedp.WaitReady("#live-view"))
	if ev := eval[string](spect.hostBrowser, `document.getElementById('live-view').dataset.events`); !strings.HasPrefix(ev, livePath+"/events?") {
		t.Fatalf("the live page's stream is %q, want under %s", ev, livePath)
	}
	spect.until("the stream's first frame", `!!document.getElementById('live-view').dataset.updated`, 10*time.Second)
	before := eval[string](spect.hostBrowser, `document.getElementById('live-view').innerText`)
	host.play(1)
	host.until("the tap saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	spect.until("the spectator's page follows the game", fmt.Sprintf(`document.getElementById('live-view').innerText !== %q`, before), 10*time.Second)

	// the language switch (the menu's buttons) returns to the page under /c/x/, in the language chosen
	spect.submitWith("switch to English", func() {
		eval[bool](spect.hostBrowser, `(document.querySelector('form[action$="/lang"] button[value=en]').click(), true)`)
	})
	if got := eval[string](spect.hostBrowser, `location.pathname + ' ' + document.documentElement.lang`); got != livePath+" en" {
		t.Errorf("after the language switch the spectator is at %q, want %s in en", got, livePath)
	}

	// every request of the pages was the club's (under /c/x/) or a shared file's (/static/)
	site.reqs.mu.Lock()
	defer site.reqs.mu.Unlock()
	for _, line := range site.reqs.lines {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if p := f[1]; !strings.HasPrefix(p, base+"/") && !strings.HasPrefix(p, "/static/") {
			t.Errorf("a request outside the club's site: %s", line)
		}
	}
}

// serverVersion is the game's version as the server stores it.
func serverVersion(t *testing.T, site *e2eSite, id int64) int64 {
	t.Helper()
	g, err := site.DB.Game(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g.Version
}
