package web_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/internal/wasmengine"
	"mafiaclub/internal/web"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// The host page as a table app: the engine in WebAssembly applies each tap at once, the actions wait in the
// browser's storage while the network is down, and the server ends with each of them exactly once.

var (
	engineOnce sync.Once
	engineMod  *wasmengine.Module
	engineErr  error
)

// testEngine builds the engine from this checkout once for all the tests (Go's build cache makes it quick).
func testEngine(t *testing.T) *wasmengine.Module {
	t.Helper()
	engineOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		engineMod, engineErr = wasmengine.Find(ctx)
		if engineErr == nil {
			engineMod, engineErr = withQuickBrotli(engineMod)
		}
	})
	if engineErr != nil {
		t.Fatalf("the engine: %v", engineErr)
	}
	return engineMod
}

// appSite starts the site with the engine, and a live game of the club's rule set with ten guests.
func appSite(t *testing.T) (*e2eSite, *club.User, int64) {
	t.Helper()
	m := testEngine(t)
	site := startSite(t, time.UTC, func(s *web.Server) { s.SetEngine(m) })
	host, id := site.guestGame(t)
	return site, host, id
}

// guestGame starts a live fiim-2025-club game of ten guests (roles tenRoles) as the demo host, through the club's
// services; it returns the host and the game's id.
func (s *e2eSite) guestGame(t *testing.T) (*club.User, int64) {
	t.Helper()
	ctx := context.Background()
	svc := s.Site.Services()
	host, _, err := svc.Accounts.Login(ctx, club.Credentials{Login: club.DemoHostLogin, Password: club.DemoHostPassword, Addr: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	ng := club.NewGame{Rules: "fiim-2025-club"}
	for i, r := range tenRoles {
		ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("Guest %d", i+1), Role: r, Guest: true})
	}
	g, err := svc.Games.Start(ctx, host, ng)
	if err != nil {
		t.Fatal(err)
	}
	return host, g.ID
}

// appBrowser drives the table app in one tab.
type appBrowser struct {
	*hostBrowser
	posts  atomic.Int32  // the POST requests the tab sent
	finger time.Duration // taps are a finger's: pressed this long before it is lifted (0: a click, at once)
}

func newAppBrowser(t *testing.T, ctx context.Context, base string) *appBrowser {
	// a cut network fails loads on purpose
	b := &appBrowser{hostBrowser: &hostBrowser{t: t, ctx: ctx, base: base, expected: []string{"ERR_INTERNET_DISCONNECTED"}}}
	b.watch()
	reqs := chromedp.Events(ctx, network.RequestWillBeSent)
	go func() {
		for ev, err := range reqs {
			if err != nil {
				return
			}
			if ev.Request.Method == "POST" {
				b.posts.Add(1)
			}
		}
	}()
	return b
}

// until waits for a script expression to be true.
func (b *appBrowser) until(what, js string, wait time.Duration) {
	b.t.Helper()
	end := time.Now().Add(wait)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(end) || b.ctx.Err() != nil {
			b.t.Fatalf("%s: not after %v (last error %v; page %s)", what, wait, err, b.where())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (b *appBrowser) ready() {
	b.t.Helper()
	b.until("the engine starts", `!!(window.mafiaclubHost && mafiaclubHost.ready())`, 30*time.Second)
}

func (b *appBrowser) version() int64 {
	b.t.Helper()
	return eval[int64](b.hostBrowser, `+document.getElementById('game').dataset.version`)
}

// tap clicks sel and checks that the page shows the next version at once, without a new document.
func (b *appBrowser) tap(what, sel string) {
	b.t.Helper()
	v := b.version()
	eval[bool](b.hostBrowser, `window.__sameDocument = true`)
	form := eval[string](b.hostBrowser, fmt.Sprintf(`(() => { const e = document.querySelector(%q); return e && e.form ? e.form.outerHTML.slice(0, 600) : (e ? e.outerHTML.slice(0, 300) : 'none'); })()`, sel))
	b.t.Cleanup(func() {
		if b.t.Failed() {
			b.t.Logf("the last control tapped: %s", form)
		}
	})
	if b.finger > 0 {
		b.press(what, sel)
	} else {
		b.do(what, chromedp.Click(chromedp.CSS(sel)))
	}
	b.until(what+" drawn", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d`, v+1), 5*time.Second)
	if !eval[bool](b.hostBrowser, `window.__sameDocument === true`) {
		b.t.Fatalf("%s: the page was reloaded", what)
	}
}

// press taps sel as a finger does: down on the middle of it, held for b.finger, then lifted (the click).
func (b *appBrowser) press(what, sel string) {
	b.t.Helper()
	at := eval[[]float64](b.hostBrowser, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.scrollIntoView({ block: 'nearest' });
	  const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel))
	opts := []chromedp.MouseOption{chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)}
	b.do(what+": down", chromedp.MouseEvent(chromedp.MousePressed, at[0], at[1], opts...))
	time.Sleep(b.finger)
	b.do(what+": up", chromedp.MouseEvent(chromedp.MouseReleased, at[0], at[1], opts...))
}

// actionAtHand is what a host does next, for a generic walk through a game: the best move, a vote (started if it
// is not, and no hands: "nobody", the last candidate's the hands not raised), the lift vote (nobody), a shot, a
// check, a heal, one nomination per speaker, or the main action.
const actionAtHand = `(() => {
  const q = s => document.querySelector(s);
  const seat = b => '#' + b.closest('.seat').id + ' ' + '.seat-main[value=' + b.value + ']';
  if (q('#bm-form')) { if (!q('#bm-form .seatpick input:checked')) { q('#bm-form .seatpick input').click(); } return '#act-bm'; }
  if (q('#vote-form')) { q('details.voting').open = true; return q('#act-nobody') ? '#act-nobody' : '#act-vote'; }
  if (q('#lift-form')) { return '#act-lift-nobody'; }
  for (const v of ['shoot', 'check', 'heal']) {
    const all = document.querySelectorAll('.seat-main[value=' + v + ']');
    if (all.length) { return seat(all[all.length > 3 ? 3 : 0]); }
  }
  const noms = document.querySelectorAll('.seat-main[value=nominate]:not(:disabled)');
  const speaker = q('#game').dataset.speaker;
  if (noms.length && window.__nominatedBy !== speaker && +speaker % 3 === 1) { window.__nominatedBy = speaker; return seat(noms[noms.length - 1]); }
  if (q('[data-key=n]')) { return '[data-key=n]'; }
  return '';
})()`

// play takes n actions at hand.
func (b *appBrowser) play(n int) {
	b.t.Helper()
	for i := 0; i < n; i++ {
		sel := eval[string](b.hostBrowser, actionAtHand)
		if sel == "" {
			b.t.Fatalf("no action at hand (page %s):\n%s", b.where(), eval[string](b.hostBrowser, `document.getElementById('game').innerText.slice(0, 1500)`))
		}
		b.tap(sel, sel)
	}
}

func (b *appBrowser) pending() int {
	b.t.Helper()
	return eval[int](b.hostBrowser, `mafiaclubHost.pending()`)
}

// offline cuts the tab's network (its service worker's too) and tells the page, as a venue's dead wifi does.
func (b *appBrowser) offline(off bool) {
	b.t.Helper()
	yes := true
	ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.Call(ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		EmulateOfflineServiceWorker: &yes,
		MatchedNetworkConditions:    []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}}})
	if err == nil {
		_, err = chromedp.Call(ctx, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
	}
	if err != nil {
		b.t.Fatalf("network offline=%v: %v", off, err)
	}
}

// cut cuts the network between the tab and the site (or brings it back): the tab's emulation, which tells the page
// (navigator.onLine, the "offline" event), and the site unreachable, since the emulation lets a reloaded page's
// first requests through.
func (a *appTest) cut(b *appBrowser, off bool) {
	a.t.Helper()
	if off {
		a.site.down.Store(true)
		b.offline(true)
		return
	}
	b.offline(false)
	a.site.down.Store(false)
}

// serverRecord is the game as the server stores it.
func serverRecord(t *testing.T, site *e2eSite, host *club.User, id int64) *club.State {
	t.Helper()
	st, err := site.Site.Services().Games.Load(context.Background(), host, id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// sameGame checks that the tab's confirmed game is the server's: the same events in the same order, the same
// result.
func sameGame(t *testing.T, b *appBrowser, st *club.State) {
	t.Helper()
	raw := eval[string](b.hostBrowser, `JSON.stringify(mafiaclubHost.record())`)
	local, err := record.Decode([]byte(raw))
	if err != nil {
		t.Fatalf("the page's record: %v", err)
	}
	if got, want := local.EngineEvents(), st.Record.EngineEvents(); !reflect.DeepEqual(got, want) {
		t.Fatalf("the page's game has %d events, the server's %d, or they differ:\npage:   %v\nserver: %v", len(got), len(want), got, want)
	}
	play, err := local.Replay()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(record.ResultJSON(play, nil)), string(record.ResultJSON(st.Play, nil)); got != want {
		t.Fatalf("results differ:\npage:   %s\nserver: %s", got, want)
	}
}

// localGame is the game as the page's engine holds it, actions not yet saved included: what it draws.
type localGame struct {
	Version int64    `json:"version"`
	Pending int      `json:"pending"`
	Chrono  []string `json:"chrono"` // the chronology's lines, in order
	Winner  string   `json:"winner"` // the result's heading, "" while the game goes on
}

// local asks the page's engine to draw the game as it holds it and reads what it drew.
func (b *appBrowser) local() localGame {
	b.t.Helper()
	return evalAsync[localGame](b.hostBrowser, `mafiaclubHost.engine('draw').then(r => {
	  if (r.error) { throw new Error(r.error); }
	  const t = document.createElement('template');
	  t.innerHTML = r.html;
	  const w = t.content.querySelector('#winner');
	  return { version: r.version, pending: r.pending, chrono: Array.from(t.content.querySelectorAll('#chronology li'), li => li.textContent),
	    winner: w ? w.textContent : '' };
	})`)
}

// clockTime is a chronology line's time ("Day 1, 19:42:05, ..."): the page's engine tells the tap's time, the
// server the time the action reached it.
var clockTime = regexp.MustCompile(`, \d\d:\d\d:\d\d, `)

// sameAsLocal checks that the server's game is the one the page's engine held (captured before the page could
// fetch the server's): the same events in the same order, as the chronology tells them (times aside), and the same
// result.
func sameAsLocal(t *testing.T, cat web.Catalog, lang string, local localGame, st *club.State) {
	t.Helper()
	times := make([]string, len(st.Record.Events))
	for i := range times {
		times[i] = "@"
	}
	var server []string
	for _, l := range hostview.Chronology(cat, lang, st.Record, times) {
		server = append(server, l.Text)
	}
	var mine []string
	for _, l := range local.Chrono {
		mine = append(mine, clockTime.ReplaceAllString(l, ", @, "))
	}
	if len(server) != len(st.Record.Events) || !reflect.DeepEqual(mine, server) {
		t.Fatalf("the server's %d events are not the %d the page's engine held:\npage:   %q\nserver: %q", len(st.Record.Events), len(mine), mine, server)
	}
	want := ""
	if st.Play.Finished() {
		want = cat.T(lang, "game.winner", cat.T(lang, "winner."+st.Play.Winner().String()))
	}
	if strings.TrimSpace(local.Winner) != want {
		t.Fatalf("the page's engine had the result %q, the server has %q", local.Winner, want)
	}
}

// wantSync waits for the page's sync box to say that n actions are not yet saved (the catalogue's words) and, when
// offline, that there is no connection.
func (b *appBrowser) wantSync(cat web.Catalog, lang string, n int, offline bool) {
	b.t.Helper()
	want := []string{cat.N(lang, "host.pending.n", n)}
	if offline {
		want = append(want, cat.T(lang, "host.offline"))
	}
	end := time.Now().Add(5 * time.Second)
	for {
		txt := b.text("#sync")
		missing := ""
		for _, w := range want {
			if !strings.Contains(txt, w) {
				missing = w
			}
		}
		if missing == "" {
			return
		}
		if time.Now().After(end) {
			b.t.Fatalf("the page's sync box says %q, not %q", txt, missing)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// appTest is a browser test of the table app: the site with a live game, and a browser (stopped after 3 minutes
// at most). The site's log is checked when the test ends, after the browser is gone.
type appTest struct {
	t    *testing.T
	site *e2eSite
	host *club.User
	id   int64
	ctx  context.Context
}

func startAppTest(t *testing.T) *appTest {
	t.Helper()
	needBrowser(t)
	site, host, id := appSite(t)
	t.Cleanup(func() { site.checkLog(t) })
	bctx, bcancel := startBrowser(t)
	t.Cleanup(bcancel)
	deadline := time.AfterFunc(3*time.Minute, bcancel)
	t.Cleanup(func() { deadline.Stop() })
	return &appTest{t: t, site: site, host: host, id: id, ctx: bctx}
}

// open opens the game's host page as the demo host in the browser's first tab and waits for the engine; expected
// are failed loads the test expects.
func (a *appTest) open(expected ...string) *appBrowser { return a.openIn(a.ctx, expected...) }

// openIn is open in a tab of ctx.
func (a *appTest) openIn(ctx context.Context, expected ...string) *appBrowser {
	a.t.Helper()
	b := newAppBrowser(a.t, ctx, a.site.URL)
	b.expected = append(b.expected, expected...)
	a.t.Cleanup(b.report)
	b.logIn(fmt.Sprintf("/games/%d", a.id), club.DemoHostLogin, club.DemoHostPassword)
	b.ready()
	return b
}

// device is a second browser context (another phone: no cookies of the first) with the host page open.
func (a *appTest) device() *appBrowser {
	ctx, cancel := chromedp.NewContext(a.ctx, chromedp.WithNewBrowserContext())
	a.t.Cleanup(cancel)
	return a.openIn(ctx)
}

// server is the game as the server stores it.
func (a *appTest) server() *club.State { return serverRecord(a.t, a.site, a.host, a.id) }

// sameDrawing checks that the engine in the browser draws the page exactly as the server drew it (the forms' fresh
// idempotency keys aside, and the versions in the forms of actions, which the page's engine leaves out): one view,
// not two.
func sameDrawing(t *testing.T, b *appBrowser) {
	t.Helper()
	// the page's own forms of actions: blanked once its engine runs, as the engine draws them
	if n := b.count(`form[action$="/act"] input[name=version]:not([value=""]), form[action$="/undo"] input[name=version]:not([value=""])`); n != 0 {
		t.Fatalf("%d forms of actions still carry a version once the engine runs", n)
	}
	diff := evalAsync[string](b.hostBrowser, `mafiaclubHost.engine('draw').then(text => {
	  const t = document.createElement('template');
	  t.innerHTML = text.html;
	  const mine = t.content.querySelector('#game'), server = document.getElementById('game').cloneNode(true);
	  for (const root of [mine, server]) { root.querySelectorAll('input[name=key]').forEach(i => i.value = ''); root.removeAttribute('data-app'); }
	  server.querySelectorAll('form[action$="/act"] input[name=version], form[action$="/undo"] input[name=version]').forEach(i => i.value = '');
	  server.querySelectorAll('.step.active').forEach(e => e.classList.remove('active'));
	  server.querySelectorAll('[class=""]').forEach(e => e.removeAttribute('class'));
	  for (const root of [mine, server]) { const timer = root.querySelector('#timer'); if (timer) { timer.hidden = true; root.querySelector('#clock').textContent = '0:00'; root.querySelector('#clock').className = 'clock'; } }
	  if (mine.isEqualNode(server)) { return ''; }
	  const a = mine.outerHTML, b = server.outerHTML; let i = 0; while (i < a.length && a[i] === b[i]) { i++; }
	  return 'engine: ' + a.slice(Math.max(0, i - 80), i + 120) + '\nserver: ' + b.slice(Math.max(0, i - 80), i + 120);
	})`)
	if diff != "" {
		t.Fatalf("the engine draws the page otherwise than the server:\n%s", diff)
	}
}

// TestE2EHostAppOffline: a host plays with the network cut in the middle (and reloads the page there), then it
// comes back; the server ends with every action exactly once, in order, and the same game as the page.
func TestE2EHostAppOffline(t *testing.T) {
	a := startAppTest(t)
	b := a.open()
	sameDrawing(t, b)
	b.until("the service worker controls the page", `!!navigator.serviceWorker.controller || (location.reload(), false)`, 15*time.Second)
	b.ready()
	b.until("the page is kept for a reload offline", `(window.__kept = window.__kept || caches.match(location.pathname).then(r => !!r)) && window.__kept.then(v => window.__keptOK = v) && window.__keptOK === true`, 10*time.Second)

	b.play(6)
	b.until("online actions saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	if v := a.server().Game.Version; v != 6 {
		t.Fatalf("server version %d after 6 online actions", v)
	}

	lang := eval[string](b.hostBrowser, `document.documentElement.lang`)
	cat := mustCatalog(t)

	// at least 20 actions with the network down, a reload among them
	// waiting checks that the page keeps n actions, says so, and that the server has none of them
	waiting := func(what string, n int) {
		t.Helper()
		if got := b.pending(); got != n {
			t.Fatalf("%s: %d actions wait, want %d", what, got, n)
		}
		b.wantSync(cat, lang, n, true)
		if v := a.server().Game.Version; v != 6 {
			t.Fatalf("%s: the server has version %d while the network is down", what, v)
		}
	}
	a.cut(b, true)
	b.play(10)
	waiting("10 actions offline", 10)

	// a reload in the dead spot: the page and its engine come from the browser's cache, the actions from storage
	b.do("reload offline", chromedp.Reload())
	b.ready()
	waiting("after the reload", 10)
	if v := b.version(); v != 16 {
		t.Fatalf("after the reload the page shows version %d, want 16", v)
	}
	b.play(10)
	waiting("20 actions offline", 20)
	// the game goes on (no result, an action at hand), so that the actions after the network's return are valid
	if b.count("#winner") != 0 || eval[string](b.hostBrowser, actionAtHand) == "" {
		t.Fatalf("after 26 actions the game has ended or has no action at hand (page %s)", b.where())
	}
	// the game as the page's engine holds it, before the page can hear anything from the server
	local := b.local()
	if local.Version != 26 || local.Pending != 20 {
		t.Fatalf("the page's engine holds version %d with %d actions waiting, want 26 and 20", local.Version, local.Pending)
	}

	a.cut(b, false)
	b.until("every action saved", `mafiaclubHost.pending() === 0`, 30*time.Second)
	st := a.server()
	if st.Game.Version != 26 {
		t.Fatalf("the server has version %d, want 26 (each action once)", st.Game.Version)
	}
	sameAsLocal(t, cat, lang, local, st)
	b.play(4)
	b.until("every action saved", `mafiaclubHost.pending() === 0`, 10*time.Second)

	st = a.server()
	if st.Game.Version != 30 {
		t.Fatalf("the server has version %d, want 30 (each action once)", st.Game.Version)
	}
	sameGame(t, b, st)
	b.do("reload online", chromedp.Reload())
	b.ready()
	sameDrawing(t, b) // day 2 or later, with the server's own times
}

// TestE2EHostAppFollower: a second device on the same game follows 30 changes of the first from the live stream,
// drawing each, and never posts anything; nor does it draw each page's actions ahead until its host touches it.
func TestE2EHostAppFollower(t *testing.T) {
	at := startAppTest(t)
	a := at.open()
	f := at.device()
	eval[bool](f.hostBrowser, `window.__sameDocument = true`)
	before := f.posts.Load()

	for i := 1; i <= 30; i++ {
		a.play(1)
		if i%10 == 0 {
			f.until(fmt.Sprintf("the follower shows version %d", i), fmt.Sprintf(`+document.getElementById('game').dataset.version === %d && mafiaclubHost.version() === %d`, i, i), 10*time.Second)
		}
	}
	a.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	f.until("the follower shows version 30", `+document.getElementById('game').dataset.version === 30`, 10*time.Second)
	if n := f.posts.Load() - before; n != 0 {
		t.Fatalf("the follower sent %d POST requests", n)
	}
	if !eval[bool](f.hostBrowser, `window.__sameDocument === true`) {
		t.Fatal("the follower's page was reloaded")
	}
	if alert := eval[string](f.hostBrowser, `(document.querySelector('[role=alert]:not([hidden])') || {}).textContent || ''`); alert != "" {
		t.Fatalf("the follower shows %q", alert)
	}
	sameGame(t, f, at.server())
	drawn := eval[int](f.hostBrowser, `mafiaclubHost.drawnAhead()`)
	time.Sleep(time.Second) // drawing ahead, if it ran, would draw a page every few milliseconds
	if n := eval[int](f.hostBrowser, `mafiaclubHost.drawnAhead()`) - drawn; n != 0 || eval[string](f.hostBrowser, `document.getElementById('host').getAttribute('data-ahead') || ''`) != "" {
		t.Fatalf("the follower drew %d pages ahead in a second while nobody touched it", n)
	}
	f.do("the follower's host touches it", chromedp.KeyEvent("x"))
	f.until("drawn ahead once touched", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
}

// TestE2EHostAppConflict: one device acts offline while another moves the game on; when the first comes back,
// the server refuses its actions, the page says so (with their count) and offers both choices: drop them (and it
// tells how many were dropped), or re-apply them on top.
func TestE2EHostAppConflict(t *testing.T) {
	at := startAppTest(t)
	a := at.open(fmt.Sprintf("409 /games/%d/act", at.id), "409 (Conflict)")
	o := at.device()

	a.play(3) // day 1, the first speeches
	a.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	o.until("the other device follows", `mafiaclubHost.version() === 3`, 10*time.Second)

	lang := eval[string](a.hostBrowser, `document.documentElement.lang`)
	cat := mustCatalog(t)
	// the dialog names the count of the device's actions not saved, in the catalogue's words
	wantConflict := func(n int) {
		t.Helper()
		if got, want := a.text("#conflict-text"), cat.N(lang, "host.conflict.n", n); got != want {
			t.Fatalf("the conflict dialog says %q, want %q", got, want)
		}
	}

	// 1. drop: the offline device's two fouls are dropped, the other device's stays
	a.offline(true)
	a.tap("foul on #5 (offline)", "#seat-5 button[name=act][value=foul]")
	a.tap("foul on #5 again (offline)", "#seat-5 button[name=act][value=foul]")
	o.tap("foul on #4", "#seat-4 button[name=act][value=foul]")
	o.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	a.offline(false)
	a.until("the conflict is shown", `mafiaclubHost.conflict() && !document.getElementById('conflict').hidden`, 20*time.Second)
	wantConflict(2)
	if v := at.server().Game.Version; v != 4 {
		t.Fatalf("server version %d: the refused action was recorded", v)
	}
	a.do("drop", chromedp.Click(chromedp.CSS("#conflict-drop")))
	a.until("dropped", `!mafiaclubHost.conflict() && mafiaclubHost.pending() === 0 && mafiaclubHost.version() === 4`, 10*time.Second)
	a.until("the drop is told", fmt.Sprintf(`(document.getElementById('game-error') || {}).textContent === %q`, cat.N(lang, "host.dropped.n", 2)), 5*time.Second)
	if f := a.text("#seat-4 .fouls"); f == "" {
		t.Fatal("after the drop the page does not show the other device's foul")
	}
	if a.count("#seat-5 .fouls") != 0 {
		t.Fatal("after the drop the page still shows the dropped foul")
	}
	sameGame(t, a, at.server())

	// 2. re-apply: the offline device's foul goes on top of the other device's action
	a.offline(true)
	a.tap("foul on #5 (offline)", "#seat-5 button[name=act][value=foul]")
	o.tap("foul on #6", "#seat-6 button[name=act][value=foul]")
	o.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	a.offline(false)
	a.until("the conflict is shown", `mafiaclubHost.conflict() && !document.getElementById('conflict').hidden`, 20*time.Second)
	wantConflict(1)
	a.do("re-apply", chromedp.Click(chromedp.CSS("#conflict-reapply")))
	a.until("re-applied and saved", `!mafiaclubHost.conflict() && mafiaclubHost.pending() === 0 && mafiaclubHost.version() === 6`, 10*time.Second)
	st := at.server()
	last := st.Record.Events[len(st.Record.Events)-2:]
	if last[0].Seat != 6 || last[1].Seat != 5 {
		t.Fatalf("the last two events are on #%d and #%d, want the other device's #6 and then the re-applied #5", last[0].Seat, last[1].Seat)
	}
	sameGame(t, a, st)
}

// summarize gives p50, p99 and the maximum of durations in ms.
func summarize(ms []float64) string {
	if len(ms) == 0 {
		return "none"
	}
	s := append([]float64(nil), ms...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	at := func(p float64) float64 { return s[int(p*float64(len(s)-1))] }
	return fmt.Sprintf("p50 %.1f ms, p99 %.1f ms, max %.1f ms", at(0.5), at(0.99), s[len(s)-1])
}

// TestE2EHostAppTapTimes measures tap to updated screen over a whole game's worth of actions (the figures go to
// docs/host-app.md; nothing is asserted on time), twice: on a quiet machine, and on one kept busy by one process
// per core besides the browser, the server and the test (a phone at a club night runs other apps too). Between the
// game's taps, the host taps a bare spot of the page, which changes nothing: measured the same way, its times are
// the floor that any tap has here, the wait for the next frame. With -count=N each subtest also prints its figures
// pooled over the runs so far, so that a p99 is that of N games' taps, not of one game's 38.
func TestE2EHostAppTapTimes(t *testing.T) {
	t.Run("quiet", func(t *testing.T) { tapTimes(t) })
	t.Run("loaded", func(t *testing.T) {
		// one busy process per core, or MAFIACLUB_BUSY_PER_CORE of them: the busy device had a load
		// average of 4.5-9.6, which one per core on two cores does not reach
		per := 1
		if v, err := strconv.Atoi(os.Getenv("MAFIACLUB_BUSY_PER_CORE")); err == nil && v > 0 {
			per = v
		}
		busyLoad(t, per*runtime.NumCPU())
		tapTimes(t)
	})
}

// pooledTaps keeps the taps' times of every run of each subtest of TestE2EHostAppTapTimes (-count=N)
var pooledTaps = map[string]*struct{ drawn, frame, noop []float64 }{}

// busyLoad keeps n cores busy until the test ends: n copies of this test binary, each spinning in TestBusyLoop, at
// the test's own priority (the browser gets no precedence over them).
func busyLoad(t *testing.T, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestBusyLoop$")
		cmd.Env = append(os.Environ(), "MAFIACLUB_BUSY_LOOP=1")
		if err := cmd.Start(); err != nil {
			t.Fatalf("starting a busy process: %v", err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	}
	time.Sleep(time.Second) // the processes running
	t.Logf("%d busy processes on %d cores", n, runtime.NumCPU())
}

// TestBusyLoop is the load of TestE2EHostAppTapTimes/loaded: it keeps one core busy for up to ten minutes (the
// test that started it stops it sooner). Run by itself it does nothing.
func TestBusyLoop(t *testing.T) {
	if os.Getenv("MAFIACLUB_BUSY_LOOP") != "1" {
		t.Skip("only the load of TestE2EHostAppTapTimes/loaded")
	}
	x := uint64(1)
	for end := time.Now().Add(10 * time.Minute); time.Now().Before(end); {
		for i := 0; i < 1<<20; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	if x == 0 {
		t.Log(x)
	}
}

func tapTimes(t *testing.T) {
	b := startAppTest(t).open()
	b.finger = 80 * time.Millisecond // a finger's tap: down, and lifted 50-150 ms later
	// a host's first tap comes seconds after the page, not milliseconds: by then the engine has drawn the page's
	// actions ahead while the page was idle (which also has the browser compile the engine's code, as it does when
	// it first runs it); later taps come at a quick host's pace, whether their drawings are ready or not
	b.until("the first page's actions drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
	// the bare spot: the page's left margin, which no control covers; its taps are timed as host.js times a tap;
	// and the browser's own Event Timing gives each tap's time to the screen: to the frame that shows what the
	// tap's handlers did, in steps of 8 ms, for those of 16 ms or more
	const noop = `(() => {
	  const at = document.elementFromPoint(2, 400);
	  if (!at || at.closest('button, a, input, label, summary, select, textarea, form')) { return false; }
	  window.__at = at; window.__noop = []; window.__screen = [];
	  document.addEventListener('click', e => {
	    if (e.target !== at) { return; }
	    const t0 = e.timeStamp, drawn = performance.now() - t0;
	    requestAnimationFrame(() => window.__noop.push({ drawn, frame: performance.now() - t0 }));
	  }, true);
	  new PerformanceObserver(l => l.getEntries().forEach(e => e.name === 'click' && window.__screen.push({ noop: e.target === at, ms: e.duration, delay: e.processingStart - e.startTime, handlers: e.processingEnd - e.processingStart })))
	    .observe({ type: 'event', durationThreshold: 16 });
	  return true; })()`
	if !eval[bool](b.hostBrowser, noop) {
		t.Fatalf("the page's left margin at (2, 400) is a control: %s", eval[string](b.hostBrowser, `document.elementFromPoint(2, 400).outerHTML.slice(0, 200)`))
	}
	// a whole game: until it has a result
	taps, noops := 0, 0
	for ; taps < 200 && eval[bool](b.hostBrowser, `!document.getElementById('winner')`); taps++ {
		b.play(1)
		time.Sleep(150 * time.Millisecond)
		if eval[bool](b.hostBrowser, `document.elementFromPoint(2, 400) === window.__at`) { // still the bare spot
			b.do("a tap on nothing", chromedp.MouseClickXY(2, 400))
			noops++
		}
		time.Sleep(100 * time.Millisecond) // a host's pace, at its quickest: each tap's saving is done before the next
	}
	if b.count("#winner") == 0 {
		t.Fatalf("the game has no result after %d taps (page %s)", taps, b.where())
	}
	b.until("saved", `mafiaclubHost.pending() === 0`, 20*time.Second)
	// each tap is measured after its next frame: the last one's may come a moment after it was drawn
	b.until(fmt.Sprintf("%d taps measured", taps), fmt.Sprintf(`window.mafiaclubTapParts.length >= %d && window.__noop.length >= %d`, taps, noops), 5*time.Second)
	type part struct {
		Type                         string // the action's type (day, speech, nominate, vote, ...)
		Engine, Worker, Drawn, Frame float64
		Handled, Morph               float64 // the click's wait for the page's handler; the page's changes
		Ahead, Planned               bool    // drawn ahead; compared with the page before the tap
	}
	parts, nothing := eval[[]part](b.hostBrowser, `window.mafiaclubTapParts`), eval[[]part](b.hostBrowser, `window.__noop`)
	if len(parts) != taps || len(nothing) != noops || noops < taps*3/4 {
		t.Fatalf("%d taps and %d taps on nothing measured, %d and %d played", len(parts), len(nothing), taps, noops)
	}
	var eng, work, drawn, frame, nFrame []float64
	for _, p := range nothing {
		nFrame = append(nFrame, p.Frame)
	}
	ahead := 0
	for i, p := range parts {
		drawn, frame = append(drawn, p.Drawn), append(frame, p.Frame)
		if p.Ahead {
			ahead++
		} else {
			eng, work = append(eng, p.Engine), append(work, p.Worker)
		}
		if p.Frame > 1000.0/60 || p.Drawn > 10 { // the taps whose frame began later than one frame's time after the tap, or drawn slowly
			t.Logf("tap %d (%s): drawn ahead %v, planned %v, engine %.1f, worker %.1f, handled %.1f, changes %.1f, drawn %.1f, frame %.1f ms",
				i+1, p.Type, p.Ahead, p.Planned, p.Engine, p.Worker, p.Handled, p.Morph, p.Drawn, p.Frame)
		}
	}
	// to the screen: a tap with no entry was on the screen in under 16 ms
	type shown struct {
		Noop                bool
		Ms, Delay, Handlers float64 // to the screen; of which the wait for the page's thread, and the click's handlers
	}
	screen := map[bool][]float64{}
	var delay, handlers []float64 // the game's taps that took 16 ms or more to the screen
	for _, e := range eval[[]shown](b.hostBrowser, `window.__screen`) {
		screen[e.Noop] = append(screen[e.Noop], e.Ms)
		if !e.Noop {
			delay, handlers = append(delay, e.Delay), append(handlers, e.Handlers)
		}
	}
	t.Logf("the browser's Event Timing of the %d taps 16 ms or more to the screen: the wait for the page's thread %s; the click's handlers %s", len(delay), summarize(delay), summarize(handlers))
	late := func(ms []float64) (n int) {
		for _, m := range ms {
			if m > 0 {
				n++
			}
		}
		return n
	}
	for len(screen[false]) < taps {
		screen[false] = append(screen[false], 0) // under 16 ms
	}
	for len(screen[true]) < noops {
		screen[true] = append(screen[true], 0)
	}
	t.Logf("%d taps, %d drawn ahead: page drawn %s; frame begun %s; on the screen %s; the others' engine's answer %s (of which the engine itself %s)",
		len(parts), ahead, summarize(drawn), summarize(frame), summarize(screen[false]), summarize(eng), summarize(work))
	t.Logf("%d taps on nothing: frame begun %s; on the screen %s (0: under 16 ms); on the screen 16 ms or more after the tap: %d of %d taps, %d of %d taps on nothing",
		noops, summarize(nFrame), summarize(screen[true]), late(screen[false]), taps, late(screen[true]), noops)
	t.Logf("the engine drew %d pages ahead in the game", eval[int](b.hostBrowser, `mafiaclubHost.drawnAhead()`))
	t.Logf("each tap (ms, for pooling runs of separate processes): drawn %.1f; frame %.1f", drawn, frame)
	pool := pooledTaps[t.Name()]
	if pool == nil {
		pool = &struct{ drawn, frame, noop []float64 }{}
		pooledTaps[t.Name()] = pool
	}
	pool.drawn, pool.frame, pool.noop = append(pool.drawn, drawn...), append(pool.frame, frame...), append(pool.noop, nFrame...)
	t.Logf("pooled over the runs so far, %d taps: page drawn %s; frame begun %s; %d taps on nothing: frame begun %s",
		len(pool.drawn), summarize(pool.drawn), summarize(pool.frame), len(pool.noop), summarize(pool.noop))
}

// TestE2EHostAppLoadTimes measures the host page's first load (nothing cached) and a cached load: the page shown
// (DOMContentLoaded) and the engine ready (the figures go to docs/host-app.md; nothing is asserted on time).
func TestE2EHostAppLoadTimes(t *testing.T) {
	b := startAppTest(t).open() // the first load
	const times = `(() => { const n = performance.getEntriesByType('navigation')[0]; const r = performance.getEntriesByName('engine-ready')[0];
	  return [n ? n.domContentLoadedEventEnd : -1, r ? r.startTime : -1]; })()`
	// marks reads the load's two marks; each must be there (the page shown, the engine ready once it is)
	marks := func(what string) []float64 {
		t.Helper()
		m := eval[[]float64](b.hostBrowser, times)
		if len(m) != 2 || m[0] <= 0 || m[1] <= 0 {
			t.Fatalf("%s: [the page shown, the engine ready] at %v ms: a mark is missing (-1) or zero", what, m)
		}
		return m
	}
	first := marks("the first load")
	b.until("the service worker controls the page", `!!navigator.serviceWorker.controller`, 10*time.Second)
	var cached [][]float64
	for i := 0; i < 5; i++ {
		// a host reloads a page he has looked at: its engine has drawn its actions ahead (that work
		// overlapping the next load made it 0.3 s slower)
		b.until("the page settled", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
		b.do("reload", chromedp.Reload())
		b.ready()
		cached = append(cached, marks(fmt.Sprintf("cached load %d", i+1)))
	}
	var shown, ready []float64
	for _, c := range cached {
		shown, ready = append(shown, c[0]), append(ready, c[1])
	}
	m := testEngine(t)
	t.Logf("engine %d bytes, %d gzip; first load: page shown %.0f ms, engine ready %.0f ms; cached loads: page shown %s, engine ready %s",
		len(m.WASM), len(m.WASMGzip), first[0], first[1], summarize(shown), summarize(ready))
}

// TestE2EHostTimerAndKeys: "next speaker" starts the speech's timer (one tap per speech), ±10 s moves it, and on a
// keyboard a digit takes the action at hand on that seat (here: the speaker nominates #3).
func TestE2EHostTimerAndKeys(t *testing.T) {
	b := startAppTest(t).open()
	b.tap("wake the city", "#act-day")
	b.tap("next speaker", "#act-speech")
	// the clock's text in seconds ("m:ss")
	clock := func(what string) int {
		t.Helper()
		txt := eval[string](b.hostBrowser, `document.getElementById('clock').textContent`)
		var m, s int
		if n, err := fmt.Sscanf(txt, "%d:%02d", &m, &s); n != 2 || err != nil || s > 59 {
			t.Fatalf("%s: the clock shows %q, not m:ss", what, txt)
		}
		return m*60 + s
	}
	b.until("the speech's timer runs", `document.getElementById('clock').textContent === '0:58'`, 5*time.Second)
	b.do("-10 s", chromedp.Click(chromedp.ID("t-minus")))
	if got := clock("after -10 s"); got < 47 || got > 48 { // 58 less 10, and one second may pass
		t.Fatalf("after -10 s on a running 0:58 the timer shows %d s, want 48", got)
	}
	b.do("+10 s", chromedp.Click(chromedp.ID("t-plus")))
	if got := clock("after +10 s"); got < 57 || got > 58 {
		t.Fatalf("after +10 s on a running 0:48 the timer shows %d s, want 58", got)
	}
	b.do("+10 s", chromedp.Click(chromedp.ID("t-plus")))
	if got := clock("after +10 s again"); got < 59 || got > 60 { // 60 s at most
		t.Fatalf("after +10 s on a running 0:58 the timer shows %d s, want 1:00 (the speech's limit)", got)
	}
	b.do("pause", chromedp.Click(chromedp.ID("t-pause")))
	before := clock("paused")
	b.do("-10 s", chromedp.Click(chromedp.ID("t-minus")))
	if got := clock("paused, after -10 s"); got < before-11 || got > before-9 {
		t.Fatalf("after -10 s on a paused timer it shows %d s, before %d s", got, before)
	}
	b.do("+10 s", chromedp.Click(chromedp.ID("t-plus")))
	if got := clock("paused, after -10 s and +10 s"); got < before-1 || got > before+1 {
		t.Fatalf("after -10 s and +10 s on a paused timer it shows %d s, before %d s", got, before)
	}
	v := b.version()
	b.do("key 3", chromedp.KeyEvent("3"))
	b.until("the digit nominated #3", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d && !!document.querySelector('#seat-3 .nominated')`, v+1), 5*time.Second)
}

// TestE2EHostAppLogoutForgets: logging out makes the browser forget the device's copy of the live game (the kept
// page and the stored record, both of which hold the roles), so that the device's next user finds none of it; and
// with actions not yet saved, logging out asks first, and a "no" keeps them.
func TestE2EHostAppLogoutForgets(t *testing.T) {
	a := startAppTest(t)
	b := a.open()
	b.until("the service worker controls the page", `!!navigator.serviceWorker.controller || (location.reload(), false)`, 15*time.Second)
	b.ready()
	b.until("the page is kept for a reload offline", `(window.__kept = window.__kept || caches.match(location.pathname).then(r => !!r)) && window.__kept.then(v => window.__keptOK = v) && window.__keptOK === true`, 10*time.Second)

	a.cut(b, true)
	b.play(2)
	eval[bool](b.hostBrowser, `window.__asked = 0, window.confirm = () => (window.__asked++, false), document.querySelector('form[action="/logout"]').requestSubmit(), true`)
	b.until("asked before logging out", `window.__asked === 1`, 5*time.Second)
	time.Sleep(300 * time.Millisecond) // a logout that went on anyway would be on its way
	if asked, n := eval[int](b.hostBrowser, `window.__asked`), b.pending(); asked != 1 || n != 2 || b.count("form[action='/logout']") != 1 {
		t.Fatalf("logging out with 2 actions not yet saved: asked %d times, %d actions left; want asked once, both kept, still logged in", asked, n)
	}
	a.cut(b, false)
	b.until("the actions saved", `mafiaclubHost.pending() === 0`, 20*time.Second)

	stored := fmt.Sprintf(`new Promise(done => { const q = indexedDB.open('mafiaclub', 1);
	  q.onupgradeneeded = () => q.result.createObjectStore('games', { keyPath: 'game' });
	  q.onsuccess = () => { const g = q.result.transaction('games').objectStore('games').get(%d); g.onsuccess = () => { q.result.close(); done(g.result ? 'kept' : ''); }; };
	  q.onerror = () => done('error') })`, a.id)
	if got := evalAsync[string](b.hostBrowser, stored); got != "kept" {
		t.Fatalf("before logging out the game is not stored on the device (%q): the test shows nothing", got)
	}
	// actions this account left waiting in the browser's storage ask as well on any other page of the site
	b.do("another page", chromedp.Navigate(b.base+"/rating"))
	const leftOver = `new Promise(done => { const q = indexedDB.open('mafiaclub', 1);
	  q.onsuccess = () => { const tx = q.result.transaction('games', 'readwrite');
	    tx.objectStore('games').put({ game: 999999, user: +document.getElementById('logout').dataset.user, base: {}, ops: [{ key: 'k', form: 'type=day' }] });
	    tx.oncomplete = () => { q.result.close(); done('put'); }; }; })`
	if got := evalAsync[string](b.hostBrowser, leftOver); got != "put" {
		t.Fatalf("storing an action left over: %q", got)
	}
	eval[bool](b.hostBrowser, `window.__asked = 0, window.confirm = () => (window.__asked++, false), document.getElementById('logout').requestSubmit(), true`)
	b.until("asked before logging out on another page", `window.__asked === 1`, 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	if b.count("form[action='/logout']") != 1 {
		t.Fatal("a \"no\" to logging out with actions waiting logged out")
	}
	eval[bool](b.hostBrowser, `window.confirm = () => true, document.getElementById('logout').requestSubmit(), true`)
	b.until("logged out", `location.pathname === '/' && !document.querySelector('form[action="/logout"]')`, 10*time.Second)
	if got := evalAsync[string](b.hostBrowser, stored); got != "" {
		t.Errorf("after logging out the game is still stored on the device (%q)", got)
	}
	if keys := evalAsync[string](b.hostBrowser, `caches.keys().then(k => k.join(','))`); keys != "" {
		t.Errorf("after logging out the browser still keeps pages: %s", keys)
	}
}

// TestE2EHostAppTimesInClubZone: the page's engine writes an action's time as the server will (in the club's
// zone, by the server's own time zone data): Chromium's data and Debian's disagree on America/Edmonton by an hour,
// and the chronology showed the host's unsaved actions an hour off the saved ones.
func TestE2EHostAppTimesInClubZone(t *testing.T) {
	a := startAppTest(t)
	zone, err := time.LoadLocation("America/Edmonton") // the project's default, where the two disagree
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	a.site.Site.Services().Clock.Zone = zone // before the site answers any page
	b := a.open()
	b.play(1)
	line := eval[string](b.hostBrowser, `document.querySelector('#chronology li:last-child').textContent`)
	at, err := time.ParseInLocation("15:04:05", regexp.MustCompile(`\d\d:\d\d:\d\d`).FindString(line), zone)
	if err != nil {
		t.Fatalf("no time in the engine's chronology line %q", line)
	}
	now := time.Now().In(zone)
	shown := time.Date(now.Year(), now.Month(), now.Day(), at.Hour(), at.Minute(), at.Second(), 0, zone)
	if d := now.Sub(shown); d < -5*time.Second || d > 30*time.Second {
		t.Errorf("the engine wrote the action at %s; the club's time is %s", shown.Format("15:04:05"), now.Format("15:04:05"))
	}
}

// shapeOf is what a host sees of the game drawn in root (a clone, or a parsed drawing): its text and every
// element's classes and fields, without what the page's script keeps in it (the timer, the step it points at, the
// messages) and the forms' random keys.
const shapeOf = `(root => {
  root.querySelectorAll('#timer, #game-error, #sync, #conflict').forEach(e => e.remove());
  root.querySelectorAll('.step.active').forEach(e => e.classList.remove('active'));
  return JSON.stringify({
    text: root.textContent.replace(/\s+/g, ' '),
    classes: [...root.querySelectorAll('[class]')].map(e => e.tagName + '.' + e.className),
    fields: [...root.querySelectorAll('input, button')].map(e => e.name + '=' + (e.name === 'key' ? '' : e.value) + (e.checked ? '+' : '')),
  });
})`

// TestE2EHostAppTapKeptAtOnce: a tap the page shows (drawn ahead, in the tap's own event) is in the browser's
// storage before the engine has taken it, so that a reload in between (a crash, a phone that drops the tab)
// replays it: the server then has it once. Here the engine never answers the tap.
func TestE2EHostAppTapKeptAtOnce(t *testing.T) {
	a := startAppTest(t)
	b := a.open()
	b.until("the page's actions drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
	v := b.version()
	eval[bool](b.hostBrowser, `(() => { const post = Worker.prototype.postMessage;
	  Worker.prototype.postMessage = function (m) { if (m && m.fn === 'act') { return; } return post.apply(this, arguments); };
	  return true; })()`)
	b.tap("wake the city", "#act-day") // shown at once, drawn ahead
	if n := b.pending(); n != 1 {
		t.Fatalf("a tap the engine has not taken: %d actions waiting, want 1", n)
	}
	kept := fmt.Sprintf(`new Promise(done => { const q = indexedDB.open('mafiaclub', 1);
	  q.onsuccess = () => { const g = q.result.transaction('games').objectStore('games').get(%d);
	    g.onsuccess = () => { q.result.close(); done(g.result ? g.result.ops.length : -1); }; }; })`, a.id)
	if n := evalAsync[int](b.hostBrowser, kept); n != 1 {
		t.Fatalf("a tap shown is kept in the browser's storage with %d actions, want 1", n)
	}
	b.do("reload", chromedp.Reload())
	b.ready()
	b.until("the tap replayed and saved", fmt.Sprintf(`mafiaclubHost.pending() === 0 && +document.getElementById('game').dataset.version === %d`, v+1), 20*time.Second)
	st := a.server()
	if got := len(st.Record.Events); got != int(v)+1 || st.Record.Events[got-1].Type != mafia.EvDay {
		t.Fatalf("the server has %d events (the last %v), want %d ending with the day", got, st.Record.Events[got-1].Type, v+1)
	}
}

// TestE2EHostAppSaveAsksFirst: at the end of a game "save" asks first, once; a "no" leaves the host in the table
// app, where the next action (an undo) is taken at once as before, and a "yes" saves the game.
func TestE2EHostAppSaveAsksFirst(t *testing.T) {
	const teamLoss = `(f => (f.elements.reason.value = 'the team talked at night', f.requestSubmit(), true))(document.querySelector('input[name=type][value=team_loss]').form)`
	a := startAppTest(t)
	b := a.open()
	b.tap("wake the city", "#act-day")
	eval[bool](b.hostBrowser, `window.__asked = 0, window.__answer = true, window.confirm = () => (window.__asked++, window.__answer), true`)
	v := b.version()
	eval[bool](b.hostBrowser, teamLoss)
	b.until("the game over", fmt.Sprintf(`!!document.getElementById('winner') && +document.getElementById('game').dataset.version === %d`, v+1), 10*time.Second)
	b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	eval[bool](b.hostBrowser, `window.__asked = 0, window.__answer = false, window.__sameDocument = true, true`)
	b.do("save: no", chromedp.Click(chromedp.CSS(`form[action$="/save"] button`)))
	time.Sleep(300 * time.Millisecond)
	if asked, ready := eval[int](b.hostBrowser, `window.__asked`), eval[bool](b.hostBrowser, `window.__sameDocument === true && mafiaclubHost.ready()`); asked != 1 || !ready {
		t.Fatalf("save, answered no: asked %d times (want 1); still the table app: %v", asked, ready)
	}
	eval[bool](b.hostBrowser, `document.getElementById('undo').open = true, true`)
	b.tap("undo the team's loss", "#undo-yes")
	b.until("the undo saved", `mafiaclubHost.pending() === 0 && !document.getElementById('winner')`, 10*time.Second)
	if got := a.server().Record.Events; len(got) != 1 {
		t.Fatalf("after the undo the server has %d events, want 1 (the day)", len(got))
	}
	eval[bool](b.hostBrowser, `window.__answer = true`)
	eval[bool](b.hostBrowser, teamLoss)
	b.until("the game over again", `!!document.getElementById('winner') && mafiaclubHost.pending() === 0`, 10*time.Second)
	eval[bool](b.hostBrowser, `window.__asked = 0, true`)
	b.do("save: yes", chromedp.Click(chromedp.CSS(`form[action$="/save"] button`)))
	b.until("the game saved", `!!document.getElementById('saved')`, 10*time.Second)
}

// TestE2EHostAppBackForwardCache: a host page the browser restores from its back-forward cache (the host went to
// another page and came back) would show the game as it was when he left, its live stream closed, and its forms,
// drawn by the page's engine, with no version for a plain post; it loads the game again. The test fires the event
// the browser fires for a restore: whether Chromium keeps this page in the cache at all depends on its open
// connections.
func TestE2EHostAppBackForwardCache(t *testing.T) {
	b := startAppTest(t).open()
	b.tap("wake the city", "#act-day")
	b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	eval[bool](b.hostBrowser, `window.__old = true, window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true })), true`)
	b.until("the game loaded again", `!window.__old && !!window.mafiaclubHost && mafiaclubHost.ready()`, 20*time.Second)
	if v := b.version(); v != 1 {
		t.Fatalf("after the reload the page shows version %d, want 1", v)
	}
	// a page shown the ordinary way is not loaded again
	eval[bool](b.hostBrowser, `window.__old = true, window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: false })), true`)
	time.Sleep(300 * time.Millisecond)
	if !eval[bool](b.hostBrowser, `window.__old === true`) {
		t.Fatal("a pageshow not from the back-forward cache reloaded the page")
	}
}

// TestE2EHostAppKeptPageOutlivesARestart: while the server restarts, the club's proxy answers 502; a host who
// reloads then gets the kept page (and its engine) from the browser, not the proxy's error, and the page is still
// kept afterwards; the server back, what he did meanwhile is saved.
func TestE2EHostAppKeptPageOutlivesARestart(t *testing.T) {
	a := startAppTest(t)
	b := a.open("502")
	b.until("the service worker controls the page", `!!navigator.serviceWorker.controller || (location.reload(), false)`, 15*time.Second)
	b.ready()
	const kept = `(window.__kept = caches.match(location.pathname).then(r => window.__keptOK = !!r)) && window.__keptOK === true`
	b.until("the page is kept", kept, 10*time.Second)
	v := b.version()
	a.site.failing.Store(true)
	b.do("reload", chromedp.Reload())
	b.ready()
	if b.count("#game") != 1 {
		t.Fatalf("a reload while the proxy answers 502 shows no game: %s", eval[string](b.hostBrowser, `document.body.innerText.slice(0, 300)`))
	}
	b.play(1)
	eval[bool](b.hostBrowser, `window.__keptOK = false, true`)
	b.until("the page still kept after a 502", kept, 10*time.Second)
	a.site.failing.Store(false)
	b.until("the action saved once the server is back", fmt.Sprintf(`mafiaclubHost.pending() === 0 && +document.getElementById('game').dataset.version === %d`, v+1), 40*time.Second)
	if st := a.server(); len(st.Record.Events) != int(v)+1 {
		t.Fatalf("the server has %d events, want %d", len(st.Record.Events), v+1)
	}
}

// TestE2EHostAppKeepsTheSeatInPlace: a tap changes the page around the seat the host touched (a nomination takes
// every seat's nomination button away, and the step names the nominee above the table), but that seat stays where
// it was on the screen, with its new badge: the page does not jump. The first nomination is drawn ahead; the
// second is tapped at once after the speech, before its drawing is ready (the engine draws it after the tap).
func TestE2EHostAppKeepsTheSeatInPlace(t *testing.T) {
	b := startAppTest(t).open()
	b.tap("wake the city", "#act-day")
	b.tap("next speaker", "#act-speech") // the first speech: every seat can be nominated
	for i, seat := range []int{7, 9} {
		if i == 0 {
			b.until("the page's actions drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
		}
		top := eval[float64](b.hostBrowser, fmt.Sprintf(`(() => { const s = document.getElementById('seat-%d');
		  window.scrollBy(0, s.getBoundingClientRect().top - 300); return s.getBoundingClientRect().top; })()`, seat))
		b.tap(fmt.Sprintf("nominate #%d", seat), fmt.Sprintf("#seat-%d .seat-main[value=nominate]", seat))
		after := evalAsync[float64](b.hostBrowser, fmt.Sprintf(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() =>
		  r(document.getElementById('seat-%d').getBoundingClientRect().top))))`, seat))
		ahead := eval[bool](b.hostBrowser, `window.mafiaclubTapParts.at(-1).ahead`)
		if math.Abs(after-top) > 2 || b.count(fmt.Sprintf("#seat-%d .nominated", seat)) != 1 {
			t.Fatalf("nominating #%d (drawn ahead: %v): the seat's card was at %.0f px on the screen and is at %.0f px after the tap (its badge shown: %d)", seat, ahead, top, after, b.count(fmt.Sprintf("#seat-%d .nominated", seat)))
		}
		if i == 0 && !ahead {
			t.Fatalf("nominating #%d: not drawn ahead, though the page's drawings were ready", seat)
		}
		t.Logf("nominating #%d: drawn ahead %v, the card at %.0f px before and after", seat, ahead, top)
		// the speaker has nominated: every seat keeps its nomination button, greyed, until the next speech; a
		// seat's digit does nothing then
		if all, grey := b.count(".seat-main[value=nominate]"), b.count(".seat-main[value=nominate]:disabled"); all != 10 || grey != 10 {
			t.Fatalf("after a nomination: %d nomination buttons, %d of them greyed; want all ten kept and greyed", all, grey)
		}
		if i == 0 {
			v := b.version()
			b.do("the key 3", chromedp.KeyEvent("3"))
			time.Sleep(300 * time.Millisecond)
			if b.version() != v || b.pending() != 0 {
				t.Fatalf("the key 3 after the speaker's nomination: version %d -> %d, %d actions waiting", v, b.version(), b.pending())
			}
		}
		// "next speaker" lights the buttons again and moves no card's contents
		sizes := `Array.from(document.querySelectorAll('#seats > .seat'), s => { const r = s.getBoundingClientRect(); return r.width + 'x' + r.height; }).join(' ')`
		before := eval[string](b.hostBrowser, sizes)
		b.tap("next speaker", "#act-speech")
		if after := eval[string](b.hostBrowser, sizes); after != before || b.count(".seat-main[value=nominate]:disabled") != i+1 {
			t.Fatalf("\"next speaker\": the cards were %s and are %s; %d nomination buttons greyed (want the nominated seats' %d)",
				before, after, b.count(".seat-main[value=nominate]:disabled"), i+1)
		}
	}
	// a host on a keyboard keeps his place: "next speaker" taken with the Enter key stays focused (the button is
	// the same one after the tap), so the next Enter takes the next speech
	v := b.version()
	eval[bool](b.hostBrowser, `document.getElementById('act-speech').focus(), true`)
	b.do("Enter", chromedp.KeyEvent("\r"))
	b.until("the next speech taken by the Enter key", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d`, v+1), 5*time.Second)
	if got := eval[string](b.hostBrowser, `document.activeElement.id || document.activeElement.tagName`); got != "act-speech" {
		t.Fatalf("after \"next speaker\" by the Enter key the focus is on %s, not on the button", got)
	}
}

// TestE2EHostAppDrawsAhead: while the host looks at the page, the engine draws the page after each action the
// page offers; a tap on one shows that drawing at once, with the tap's time in it, and it is the page the engine
// draws once it has taken the action: the main action, a seat's own button (tapped, and by the keyboard), a foul, a
// vote whose hands were ticked after the page was drawn (drawn again as it now reads), and an undo.
func TestE2EHostAppDrawsAhead(t *testing.T) {
	b := startAppTest(t).open()
	check := func(what string) {
		t.Helper()
		if !eval[bool](b.hostBrowser, `window.mafiaclubTapParts.at(-1).ahead`) {
			t.Fatalf("%s: not drawn ahead", what)
		}
		b.until(what+": saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
		shown := eval[string](b.hostBrowser, shapeOf+`(document.getElementById('game').cloneNode(true))`)
		// the engine's drawing of the game it has now, parsed as the page parses it
		eval[bool](b.hostBrowser, `window.__drawn = null, mafiaclubHost.engine('draw').then(r => {
		  const t = document.createElement('template'); t.innerHTML = r.html; window.__drawn = `+shapeOf+`(t.content.querySelector('#game')); }), true`)
		b.until(what+": the engine's drawing", `window.__drawn !== null`, 5*time.Second)
		if drawn := eval[string](b.hostBrowser, `window.__drawn`); shown != drawn {
			t.Fatalf("%s: the page drawn ahead is not the engine's page:\n%s\n----\n%s", what, shown, drawn)
		}
	}
	fingerTaps, plannedTaps := 0, 0
	// a tap is measured in its next frame, after the page that shows it: its parts are read once they are there
	// (the page's version, which the test waits for, is in the page drawn before that frame)
	tapMeasured := func(before int) {
		t.Helper()
		b.until("the tap measured", fmt.Sprintf(`window.mafiaclubTapParts.length > %d`, before), 5*time.Second)
	}
	aheadTap := func(what, sel string) {
		t.Helper()
		b.until(what+": drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
		n := eval[int](b.hostBrowser, `(window.mafiaclubTapParts || []).length`)
		b.tap(what, sel)
		tapMeasured(n)
		// a finger's tap: the drawing was compared with the page when the finger touched the button, unless the
		// page changed in between (the speech's timer ticks): counted, and most must have been
		fingerTaps++
		if eval[bool](b.hostBrowser, `window.mafiaclubTapParts.at(-1).planned`) {
			plannedTaps++
		}
		check(what)
	}
	aheadTap("wake the city", "#act-day")
	aheadTap("next speaker", "#act-speech")
	// drawn ahead, "next speaker" still starts the speech's timer (one tap per speech)
	b.until("the speech's timer runs", `document.getElementById('clock').textContent === '0:58'`, 5*time.Second)
	aheadTap("the speaker nominates #4", "#seat-4 .seat-main[value=nominate]")
	aheadTap("next speaker", "#act-speech")
	// a key fires no pointerdown: this drawing is filled in and parsed in the tap
	b.until("drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
	v := b.version()
	b.do("key 7", chromedp.KeyEvent("7"))
	b.until("the speaker nominates #7 by the keyboard", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d`, v+1), 5*time.Second)
	check("the speaker nominates #7 by the keyboard")
	aheadTap("a foul of #5's", "#seat-5 button[value=foul]")
	// the page changes between the touch and the tap (as a timer's tick or another device's action does): the plan
	// made at the touch is stale, and the tap compares the page again (a stale plan would leave the changed name)
	b.until("drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
	v = b.version()
	n := eval[int](b.hostBrowser, `(window.mafiaclubTapParts || []).length`)
	eval[bool](b.hostBrowser, `(() => { const el = document.querySelector('#seat-6 button[value=foul]');
	  el.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, isPrimary: true }));
	  const name = document.querySelector('#seat-2 .name'); name.textContent = 'changed meanwhile';
	  el.click(); return true; })()`)
	b.until("a foul of #6's", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d`, v+1), 5*time.Second)
	tapMeasured(n)
	if planned, ahead := eval[bool](b.hostBrowser, `window.mafiaclubTapParts.at(-1).planned`), eval[bool](b.hostBrowser, `window.mafiaclubTapParts.at(-1).ahead`); planned || !ahead {
		t.Fatalf("a tap after the page changed since the touch: planned %v (want false), drawn ahead %v (want true)", planned, ahead)
	}
	check("a foul of #6's, the page changed between the touch and the tap")
	for i := 0; eval[int](b.hostBrowser, `document.querySelectorAll('#vote-form').length`) == 0; i++ {
		if i > 12 {
			t.Fatal("no vote after the day's speeches")
		}
		aheadTap("next speaker", "[data-key=n]")
	}
	b.do("start the vote", chromedp.Click(chromedp.CSS("#act-start-vote")))
	b.until("drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
	b.do("hands", chromedp.Click(chromedp.CSS(`#vote-form .seatpick input[value="2"]`)), chromedp.Click(chromedp.CSS(`#vote-form .seatpick input[value="7"]`)))
	aheadTap("the vote with two hands", "#act-vote")
	b.until("drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
	b.do("open undo", chromedp.Click(chromedp.CSS("#undo > summary")))
	aheadTap("undo", "#undo-yes")
	if plannedTaps*2 < fingerTaps {
		t.Errorf("%d of %d finger's taps drawn ahead applied the plan made at the touch; want most", plannedTaps, fingerTaps)
	}
}

// TestE2EHostAppTapLeavesItsFrameAlone: a tap drawn ahead does its work at the finger's touch and leaves the
// frame that shows it to the page. A speech's clock ticking between the touch and the click does not make the
// comparison made at the touch stale (before, a third of a speech's taps compared the page again in the tap); the
// engine (the worker's thread) takes the action only after the tap's frame; and a page scrolled between the touch
// and the click keeps the touched seat where the host sees it then (the seat's place read at the touch is not used).
func TestE2EHostAppTapLeavesItsFrameAlone(t *testing.T) {
	b := startAppTest(t).open()
	b.finger = 80 * time.Millisecond
	ahead := func(what string) {
		t.Helper()
		b.until(what+": drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
	}
	ahead("wake the city")
	b.tap("wake the city", "#act-day")
	ahead("next speaker")
	b.tap("next speaker", "#act-speech")
	b.until("the speech's timer runs", `document.getElementById('clock').textContent === '0:58'`, 5*time.Second)
	ahead("the next speaker")
	// the order of the tap's frame and the engine's taking of the action, as the page's thread sees them
	eval[bool](b.hostBrowser, `(() => { window.__order = [];
	  const post = Worker.prototype.postMessage;
	  Worker.prototype.postMessage = function (m) { if (m && m.fn === 'act') { window.__order.push('engine'); } return post.apply(this, arguments); };
	  document.addEventListener('click', () => requestAnimationFrame(() => window.__order.push('frame')), { capture: true, once: true });
	  return true; })()`)
	// the finger down on "next speaker", held until the clock has ticked, then lifted
	v := b.version()
	at := eval[[]float64](b.hostBrowser, `(() => { const r = document.querySelector('#act-speech').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	opts := []chromedp.MouseOption{chromedp.ButtonType(input.MouseButtonLeft), chromedp.ClickCount(1)}
	clock := eval[string](b.hostBrowser, `document.getElementById('clock').textContent`)
	b.do("next speaker: down", chromedp.MouseEvent(chromedp.MousePressed, at[0], at[1], opts...))
	b.until("the clock ticks under the finger", fmt.Sprintf(`document.getElementById('clock').textContent !== %q`, clock), 3*time.Second)
	b.do("next speaker: up", chromedp.MouseEvent(chromedp.MouseReleased, at[0], at[1], opts...))
	b.until("next speaker drawn", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d`, v+1), 5*time.Second)
	b.until("the tap measured", `window.mafiaclubTapParts.length === 3 && window.__order.length === 2`, 5*time.Second)
	if planned, ahead := eval[bool](b.hostBrowser, `window.mafiaclubTapParts.at(-1).planned`), eval[bool](b.hostBrowser, `window.mafiaclubTapParts.at(-1).ahead`); !planned || !ahead {
		t.Errorf("a tap whose clock ticked between the touch and the click: planned %v, drawn ahead %v; want both (the tap compared the page again)", planned, ahead)
	}
	if order := eval[[]string](b.hostBrowser, `window.__order`); order[0] != "frame" {
		t.Errorf("the tap's frame and the engine's taking of the action came in the order %v; want the frame first", order)
	}
	b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	// the page scrolled between the touch and the click: the seat touched stays where it is after the scroll
	ahead("a foul")
	const seat = `#seat-8`
	sel := seat + ` button[value=foul]`
	if !eval[bool](b.hostBrowser, `document.scrollingElement.scrollHeight > innerHeight + 200`) {
		t.Fatalf("the page does not scroll (%d px, the window %d px)", eval[int](b.hostBrowser, `document.scrollingElement.scrollHeight`), eval[int](b.hostBrowser, `innerHeight`))
	}
	eval[bool](b.hostBrowser, fmt.Sprintf(`(document.querySelector(%q).scrollIntoView({ block: 'center' }), true)`, sel))
	v = b.version()
	pos := fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, sel)
	at = eval[[]float64](b.hostBrowser, pos)
	b.do("a foul: down", chromedp.MouseEvent(chromedp.MousePressed, at[0], at[1], opts...))
	// scrolled as a page is (the host's other finger, a wheel): the browser tells of it in its next frame
	evalAsync[bool](b.hostBrowser, `new Promise(done => { addEventListener('scroll', () => done(true), { once: true }); window.scrollBy(0, 60); })`)
	at = eval[[]float64](b.hostBrowser, pos)
	top := eval[float64](b.hostBrowser, fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().top`, seat))
	b.do("a foul: up", chromedp.MouseEvent(chromedp.MouseReleased, at[0], at[1], opts...))
	b.until("the foul drawn", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d`, v+1), 5*time.Second)
	evalAsync[bool](b.hostBrowser, `new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))`)
	if now := eval[float64](b.hostBrowser, fmt.Sprintf(`document.querySelector(%q).getBoundingClientRect().top`, seat)); math.Abs(now-top) > 3 {
		t.Errorf("the seat touched, the page scrolled before the click: %.0f px from the top before the click, %.0f after; want where it was", top, now)
	}
}

// TestE2EKeptPageForgotten: a session can end without a logout (it expires, its cookie is
// gone); the game's page the service worker kept for a reload offline, and the games the host's page kept in the
// browser's storage, hold the roles, so the site's next page seen by nobody or another account makes the browser
// forget them, but a game with actions not yet saved (only its account may send them).
func TestE2EKeptPageForgotten(t *testing.T) {
	b := startAppTest(t).open()
	b.until("the service worker controls the page", `!!navigator.serviceWorker.controller || (location.reload(), false)`, 15*time.Second)
	b.ready()
	b.until("the page is kept for a reload offline", `(window.__kept = window.__kept || caches.match(location.pathname).then(r => !!r)) && window.__kept.then(v => window.__keptOK = v) && window.__keptOK === true`, 10*time.Second)
	// two games kept in the browser's storage: one all saved, one with an action not yet saved
	const keep = `new Promise(done => { const q = indexedDB.open('mafiaclub', 1);
	  q.onupgradeneeded = () => q.result.createObjectStore('games', { keyPath: 'game' });
	  q.onsuccess = () => { const tx = q.result.transaction('games', 'readwrite'), st = tx.objectStore('games'), me = +document.getElementById('host').dataset.user;
	    st.put({ game: 999998, user: me, base: { roles: 'kept' }, ops: [] });
	    st.put({ game: 999999, user: me, base: { roles: 'kept' }, ops: [{ key: 'k', form: 'type=day' }] });
	    tx.oncomplete = () => { q.result.close(); done('kept'); }; }; })`
	if got := evalAsync[string](b.hostBrowser, keep); got != "kept" {
		t.Fatalf("keeping two games: %q", got)
	}
	if _, err := chromedp.Call(b.ctx, network.ClearBrowserCookies, cdp.Empty{}); err != nil { // the session ends
		t.Fatal(err)
	}
	b.do("the next page", chromedp.Navigate(b.base+"/"))
	b.until("the kept pages forgotten", `(window.__has = window.__has || caches.has('mafiaclub-pages').then(v => window.__hasV = v)) && window.__hasV === false`, 10*time.Second)
	// asked again until it reads so (the forgetting runs as the page loads)
	const left = `(() => { if (!window.__asking) { window.__asking = new Promise(done => { const q = indexedDB.open('mafiaclub', 1);
	  q.onsuccess = () => { const k = q.result.transaction('games').objectStore('games').getAllKeys(); k.onsuccess = () => { q.result.close(); done(k.result.join(',')); }; }; })
	  .then(v => { window.__leftV = v; window.__asking = null; }); } return window.__leftV === '999999'; })()`
	b.until("the saved games forgotten, the unsaved one kept", left, 10*time.Second)
}
