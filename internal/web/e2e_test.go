package web_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/web"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

const chromiumPath = "/usr/bin/chromium"

// TestE2EHostGame plays a whole fiim-2025-club game in headless Chromium the way a host does it on the host page:
// log in, set up a hand-dealt table, click through the days and nights (nominations, a foul, a tied vote with its
// tie speeches and the re-vote, shots, checks, the best move, an undo, a point correction) until the engine
// declares the winner, save the game as rated, then replay the downloaded record and compare it with the page.
func TestE2EHostGame(t *testing.T) {
	began := time.Now()
	// The site, in process, on a temporary SQLite database with the demo club, and the browser; the whole game must
	// fit in a minute even on a slow machine (the browser is stopped after 90 s).
	_, b := plainBrowser(t)

	// 1. Log in through the form: the new-game page sends an anonymous visitor to the login page and back.
	lang, cat := b.hostAtNewGame()

	// 2. The new game: fiim-2025-club, 10 players (the form reloads itself on a change), roles entered by hand.
	// SetValue fires "input" and "change" as a real choice does, and the form reloads itself on each.
	b.chooseTable("fiim-2025-club", 10)
	if got := eval[string](b, `document.querySelector('select[name=rules]').value + '/' + document.querySelector('select[name=n]').value`); got != "fiim-2025-club/10" {
		t.Fatalf("new-game form after apply: %s", got)
	}
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	names := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Zoryana"}
	const guestSeat = 10
	b.do("deal by hand", chromedp.Click(chromedp.CSS(`input[name=deal][value=hand]`)))
	for i, name := range names {
		n := i + 1
		b.do(fmt.Sprintf("seat %d", n),
			chromedp.SendKeys(chromedp.CSS(fmt.Sprintf(`input[name=name%d]`, n)), name),
			chromedp.SetValue(chromedp.CSS(fmt.Sprintf(`select[name=role%d]`, n)), roles[i]))
	}
	b.do("the guest", chromedp.Click(chromedp.CSS(fmt.Sprintf(`input[name=guest%d]`, guestSeat))))
	b.submit("start the game", "#start")
	gameID := eval[int64](b, `+document.getElementById('game').dataset.game`)
	if gameID <= 0 {
		t.Fatalf("no game page after the start (at %s)", eval[string](b, `location.pathname`))
	}
	for i, name := range names {
		got := b.text(fmt.Sprintf("#seat-%d .name", i+1))
		if !strings.HasPrefix(got, name) {
			t.Errorf("seat %d shows %q, want %s", i+1, got, name)
		}
		if guest := strings.Contains(got, cat.T(lang, "new.guest")); guest != (i+1 == guestSeat) {
			t.Errorf("seat %d %q: guest mark %v", i+1, got, guest)
		}
	}
	t.Logf("game %d started after %v", gameID, time.Since(began).Round(time.Millisecond))

	// 3. Day 1: speeches, two nominations, a foul, a tied vote, the tie speeches and the re-vote.
	b.act("wake the city", "#act-day")
	b.speech(1)
	b.speech(2)
	b.nominate(3) // #2 nominates #3
	b.speech(3)
	b.speech(4)
	b.nominate(7) // #4 nominates #7
	b.act("foul on #6", "#seat-6 button[name=act][value=foul]")
	if f := b.text("#seat-6 .fouls"); !strings.HasPrefix(f, "1") {
		t.Errorf("seat 6 fouls badge %q", f)
	}
	for s := 5; s <= 10; s++ {
		b.speech(s)
	}
	b.vote(3, 1, 2, 4, 5, 6) // 5 hands
	b.vote(7)                // the rest (3, 8, 9, 10 and his own default vote): 5 — a tie

	// The tie: two 30 s speeches, walked through with the page's timer, then the re-vote.
	steps := eval[[]string](b, `[...document.querySelectorAll('#plan .step')].map(s => s.dataset.limit + ':' + (s.dataset.event || '-'))`)
	if !slices.Equal(steps, []string{"30:-", "30:-", "0:vote"}) {
		t.Errorf("plan after the tie: %v, want two 30 s tie speeches and the vote", steps)
	}
	b.do("the first tie speech is timed", chromedp.WaitVisible(chromedp.ID("timer")))
	if c := b.text("#clock"); c != "0:30" {
		t.Errorf("tie speech clock %q, want 0:30", c)
	}
	b.do("start and pass the first tie speech", chromedp.Click(chromedp.ID("t-start")), chromedp.Click(chromedp.ID("t-pass")))
	if c := b.text("#plan .step.active .label"); !strings.Contains(c, "#7") {
		t.Errorf("second tie speech: active step %q", c)
	}
	if c := b.text("#clock"); c != "0:30" {
		t.Errorf("second tie speech clock %q, want 0:30", c)
	}
	b.do("pass the second tie speech", chromedp.Click(chromedp.ID("t-pass")))
	if ev := eval[string](b, `document.querySelector('#plan .step.active').dataset.event`); ev != "vote" {
		t.Errorf("after the tie speeches the active step records %q, want vote", ev)
	}
	if hidden := eval[bool](b, `document.getElementById('timer').hidden`); !hidden {
		t.Error("the timer is still shown for the re-vote")
	}
	b.vote(3, 1, 2, 4, 5, 6, 8) // 6
	b.vote(7)                   // 4: #3 leaves
	b.act("night", "#act-night")

	// Night: all the blacks at #1, the don's check, the sheriff's check.
	b.act("all shoot #1", "#seat-1 button[name=act][value=shoot]")
	b.act("the don checks #5", "#seat-5 button[name=act][value=check]")
	b.wantAnswer(cat.T(lang, "answer."+mafia.AnswerSheriff.String()))
	b.act("the sheriff checks #9", "#seat-9 button[name=act][value=check]")
	b.wantAnswer(cat.T(lang, "answer."+mafia.AnswerBlack.String()))
	b.act("morning", "#act-day")

	// Morning: the best move of #1, killed at night.
	if by := eval[string](b, `document.querySelector('#bm-form input[name=by]').value`); by != "1" {
		t.Fatalf("the best move form is for #%s (%q), want #1, the player killed at night", by, b.text("#bm-form p"))
	}
	b.tick("#bm-form", "targets", 7, 9, 10)
	b.act("best move 7 9 10", "#act-bm")

	// Day 2, with an undo and a point correction.
	b.speech(2)
	b.nominate(9)
	b.do("open undo", chromedp.Click(chromedp.CSS("#undo > summary")))
	want := cat.T(lang, "ev.nominate", 2, 9)
	if u := b.text("#undo p"); !strings.Contains(u, want) {
		t.Errorf("undo asks %q, want it to name %q", u, want)
	}
	b.act("undo the nomination", "#undo-yes")
	if b.count(".nominations .tag") != 0 {
		t.Error("the nomination is still listed after the undo")
	}
	// the audit may name an undone shot or check, so it is shown with the roles only: read its text as it is
	if a := eval[string](b, `document.getElementById('audit').textContent`); !strings.Contains(a, cat.T(lang, "audit.undo", want)) {
		t.Errorf("audit %q does not show the undo of %q", a, want)
	}
	b.nominate(9) // again
	b.do("open discipline", chromedp.Click(chromedp.CSS("#discipline > summary")))
	b.do("fill the correction",
		chromedp.SetValue(chromedp.CSS(`#discipline form.adjust select[name=seat]`), "5"),
		chromedp.SetValue(chromedp.CSS(`#discipline form.adjust select[name=points]`), "0.3"),
		chromedp.SendKeys(chromedp.CSS(`#discipline form.adjust input[name=reason]`), "clear sheriff play"))
	b.act("+0.3 to #5", "#discipline form.adjust button.adjust-submit")
	b.speech(4)
	b.nominate(7)
	for _, s := range []int{5, 6, 7, 8, 9, 10} {
		b.speech(s)
	}
	b.vote(9, 2, 4, 5, 6, 8, 10) // 6 of 8: #9 leaves
	b.vote(7)
	b.act("night", "#act-night")

	// Night 3: the don alone shoots #10 ("all at" is one shot now), checks #2; the sheriff checks #7.
	b.act("all shoot #10", "#seat-10 button[name=act][value=shoot]")
	b.act("the don checks #2", "#seat-2 button[name=act][value=check]")
	b.act("the sheriff checks #7", "#seat-7 button[name=act][value=check]")
	b.wantAnswer(cat.T(lang, "answer."+mafia.AnswerBlack.String()))
	b.act("morning", "#act-day")

	// Day 3: the first red speaker nominates #7; a single candidate is voted by the whole city.
	nominated := false
	for b.count("#act-speech") > 0 {
		s := b.speech(0)
		if s != 7 && !nominated {
			b.nominate(7)
			nominated = true
		}
	}
	if !nominated {
		t.Fatal("day 3 had no speech to nominate #7 in")
	}
	b.vote(7, 2, 4, 5, 6, 8)
	b.do("the result", chromedp.WaitVisible(chromedp.ID("winner")))
	wantWinner := cat.T(lang, "game.winner", cat.T(lang, "winner."+mafia.RedWins.String()))
	if w := b.text("#winner"); w != wantWinner {
		t.Errorf("winner %q, want %q", w, wantWinner)
	}

	// Save as rated: the form asks for a confirmation first.
	dialogs := len(b.dialogMessages())
	b.act("save as rated", "#save-rated")
	if asked := b.dialogMessages()[dialogs:]; !slices.Equal(asked, []string{cat.T(lang, "game.save_confirm")}) {
		t.Errorf("saving asked %q, want the save confirmation", asked)
	}
	b.do("saved", chromedp.WaitVisible(chromedp.ID("saved")))
	if n := b.count("#act-day, #act-speech, #act-night, #vote-form, #undo, #save-rated"); n != 0 {
		t.Errorf("a saved game still shows %d host controls", n)
	}
	t.Logf("game played and saved after %v", time.Since(began).Round(time.Millisecond))

	// 4. The record, downloaded with the browser's session, replayed by the engine.
	raw := evalAsync[string](b, fmt.Sprintf(`fetch('/games/%d/record.json').then(r => r.ok ? r.text() : Promise.reject(new Error('HTTP ' + r.status)))`, gameID))
	rec, err := record.Decode([]byte(raw))
	if err != nil {
		t.Fatalf("record: %v\n%s", err, raw)
	}
	g, err := rec.Replay()
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !g.Finished() || g.Winner() != mafia.RedWins {
		t.Errorf("replay: finished %v, winner %v; want red", g.Finished(), g.Winner())
	}
	if r := string(rec.Extra["rated"]); r != "true" {
		t.Errorf("record says rated %s", r)
	}
	shown := eval[map[string]string](b, `Object.fromEntries([...document.querySelectorAll('#points tbody tr')].map(tr => [tr.dataset.seat, tr.querySelector('.total').textContent.trim()]))`)
	res := g.Result()
	if len(shown) != len(res.Seats) {
		t.Errorf("#points has %d rows, the replay %d seats", len(shown), len(res.Seats))
	}
	for _, sr := range res.Seats {
		if got, want := shown[strconv.Itoa(sr.Seat)], hundredths(sr.Points); got != want {
			t.Errorf("seat %d: page total %q, replay %s (%v)", sr.Seat, got, want, sr.Score)
		}
	}
	if sr := res.Seats[4]; !slices.ContainsFunc(sr.Score, func(it mafia.ScoreItem) bool { return it.Item == mafia.ItemAdjust && it.Points == 30 }) {
		t.Errorf("seat 5 has no +0.30 correction in the replay: %v", sr.Score)
	}
	if w := b.text("#winner"); w != wantWinner {
		t.Errorf("saved game: winner %q, want %q", w, wantWinner)
	}

	// The chronology lists every event of the record, the redone nomination once.
	chrono := eval[[]string](b, `[...document.querySelectorAll('#chronology li')].map(li => li.textContent)`)
	if len(chrono) != len(rec.Events) {
		t.Errorf("chronology has %d lines, the record %d events", len(chrono), len(rec.Events))
	}
	chronoBad := len(chrono) != len(rec.Events)
	for _, w := range []struct {
		text string
		n    int
	}{
		{cat.T(lang, "ev.day"), 3},
		{cat.T(lang, "ev.night"), 2},
		{cat.T(lang, "ev.foul", 6), 1},
		{cat.T(lang, "ev.nominate", 2, 9), 1},
		{cat.T(lang, "ev.shot", 7, 1), 1},
		{cat.T(lang, "ev.shot", 9, 1), 1},
		{cat.T(lang, "ev.check", 7, 5, cat.T(lang, "answer."+mafia.AnswerSheriff.String())), 1},
		{cat.T(lang, "ev.best_move", 1, "#7 #9 #10"), 1},
		{cat.T(lang, "ev.adjust", 5, "+0.30"), 1},
		{cat.T(lang, "ev.vote", 3, 5, "#1 #2 #4 #5 #6"), 1},
		{cat.T(lang, "ev.vote", 7, 5, "#3 #7 #8 #9 #10"), 1}, // the default votes on the last candidate (R26)
		{cat.T(lang, "ev.vote", 7, 4, "#3 #7 #9 #10"), 1},
	} {
		n := 0
		for _, line := range chrono {
			if strings.HasSuffix(line, ", "+w.text) || strings.Contains(line, ", "+w.text+" — ") {
				n++
			}
		}
		if n != w.n {
			t.Errorf("chronology has %q %d times, want %d", w.text, n, w.n)
			chronoBad = true
		}
	}
	if chronoBad {
		t.Logf("chronology:\n%s", strings.Join(chrono, "\n"))
	}
	t.Logf("done in %v", time.Since(began).Round(time.Millisecond))
}

// needBrowser skips a browser test when there is no chromium (on CI it fails instead) and in -short mode.
func needBrowser(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs %s for the browser test: %v", chromiumPath, err)
		}
		t.Skipf("no %s: %v", chromiumPath, err)
	}
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
}

// e2eSite is the site under test, in process, on a temporary SQLite database with the demo club.
type e2eSite struct {
	Site *web.Server
	DB   *sqlstore.DB
	URL  string
	log  lockedBuffer
	reqs *requestLog
	// down, when set, makes the site unreachable: a new request's connection is closed unanswered, as a dead
	// network does (a browser's own network emulation lets a reloaded page's first requests through)
	down atomic.Bool
	// failing, when set, answers every request 502, as the club's proxy does while the server restarts
	failing atomic.Bool
}

// startSite starts the site in the club's time zone; configure, when not nil, adjusts the server before it
// answers anything (a Base mounts it under that prefix, with http.StripPrefix). The server stops when the test ends, after the test's deferred calls (the browser).
func startSite(t *testing.T, zone *time.Location, configure func(*web.Server)) *e2eSite {
	t.Helper()
	ctx := context.Background()
	db, err := sqlstore.Open(ctx, filepath.Join(t.TempDir(), "club.db"))
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
	s := &e2eSite{Site: site, DB: db, reqs: &requestLog{}}
	site.Log = slog.New(slog.NewTextHandler(&s.log, nil))
	if configure != nil {
		configure(site)
	}
	var h http.Handler = site.Handler()
	if site.Base != "" { // mounted as the platform's router mounts a club: under its prefix, the static files at the root
		mux := http.NewServeMux()
		mux.Handle(site.Base+"/", http.StripPrefix(site.Base, h))
		mux.Handle("/static/", h)
		mux.Handle("/", http.NotFoundHandler()) // nothing else outside the club's prefix
		h = mux
	}
	h = s.reqs.wrap(h)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.down.Load() {
			if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		if s.failing.Load() {
			http.Error(w, "bad gateway", http.StatusBadGateway)
			return
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close) // the game page holds an SSE stream: close the browser first
	s.URL = srv.URL
	return s
}

// checkLog fails the test on anything the site logged, and on a server error to a waiting browser; defer it after
// startSite, so that it runs once the browser is gone.
func (s *e2eSite) checkLog(t *testing.T) {
	t.Helper()
	// A page render cut off by the browser (broken pipe) is the page reloading itself, on its own SSE
	// event, while its form's redirect is still loading; that is noted, anything else fails the test.
	// A request the browser gave up on fails inside the store as an internal "database error" (a 500 to
	// nobody); those are noted too, as many as there were 5xx answers to a client already gone.
	var cut, dbGone int
	posts, gets, gone5xx, live5xx := s.reqs.counts()
	for _, line := range strings.Split(strings.TrimSpace(s.log.String()), "\n") {
		switch {
		case line == "":
		case strings.Contains(line, "level=INFO msg=request "): // the log line of every request
		case strings.Contains(line, "msg=render") && (strings.Contains(line, "broken pipe") || strings.Contains(line, "connection reset")):
			cut++
		case strings.Contains(line, `msg="request failed"`) && dbGone < gone5xx:
			dbGone++
			t.Logf("SITE: a request cancelled by the browser was logged as an internal error: %s", line)
		default:
			t.Errorf("the site logged: %s", line)
		}
	}
	if live5xx > 0 {
		t.Errorf("%d server errors (5xx) to a waiting browser", live5xx)
	}
	t.Logf("requests: %d game POSTs, %d game page GETs (the page reloads itself on its own SSE event); %d renders cut off, %d 5xx to a gone client",
		posts, gets, cut, gone5xx)
	if t.Failed() {
		t.Logf("last requests:\n%s", s.reqs.tail(25))
	}
}

// startBrowser starts headless chromium, a phone-sized window, without a deadline; extra options come after the
// defaults and override them. The returned func stops the browser.
func startBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) (context.Context, context.CancelFunc) {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND , EXCLUDE localhost , EXCLUDE 127.0.0.1"),
		chromedp.Flag("lang", "en-US"),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Env("TMPDIR="+t.TempDir()),
		chromedp.WindowSize(412, 915), // a phone, as a judge holds it
	)
	opts = append(opts, extra...)
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	stop := func() { bcancel(); acancel() }
	if err := chromedp.Do(bctx); err != nil { // start the browser without a deadline
		stop()
		t.Fatalf("start chromium: %v", err)
	}
	return bctx, stop
}

// logIn opens path as an anonymous visitor, who is sent to the login form, logs in and checks that the site
// brings him back to path.
func (b *hostBrowser) logIn(path, login, password string) {
	b.t.Helper()
	b.do("open "+path, chromedp.Navigate(b.base+path))
	b.do("login page", chromedp.WaitVisible(chromedp.CSS(`form[action$="/login"]`)))
	b.do("type the login",
		chromedp.SendKeys(chromedp.CSS(`input[name=login]`), login),
		chromedp.SendKeys(chromedp.CSS(`input[name=password]`), password))
	b.submit("log in", "#login-submit")
	if got := eval[string](b, `location.pathname`); got != path {
		b.t.Fatalf("after the login the browser is at %s, want %s", got, path)
	}
}

// hundredths writes points as the page does: a signed decimal with two places.
func hundredths(h int) string {
	sign := ""
	if h < 0 {
		sign, h = "-", -h
	}
	return fmt.Sprintf("%s%d.%02d", sign, h/100, h%100)
}

// hostBrowser drives the host page in one tab.
type hostBrowser struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu         sync.Mutex
	dialogs    []string // the messages of the dialogs accepted
	exceptions []string
	badLoads   []string
	consoleErr []string
	// expected holds parts of failed loads and console errors a test expects (a refused action, a cut network)
	expected []string
}

// watch accepts every confirmation dialog and records script errors and failed loads.
func (b *hostBrowser) watch() {
	dialogs := chromedp.Events(b.ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogs = append(b.dialogs, ev.Message)
			b.mu.Unlock()
			_, _ = chromedp.Call(b.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	exceptions := chromedp.Events(b.ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			text := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil && ex.Description != "" {
				text += " " + ex.Description
			}
			b.mu.Lock()
			b.exceptions = append(b.exceptions, text+" at "+ev.ExceptionDetails.URL)
			b.mu.Unlock()
		}
	}()
	responses := chromedp.Events(b.ctx, network.ResponseReceived)
	go func() {
		for ev, err := range responses {
			if err != nil {
				return
			}
			if ev.Response.Status >= 400 {
				b.mu.Lock()
				b.badLoads = append(b.badLoads, fmt.Sprintf("%d %s", ev.Response.Status, strings.TrimPrefix(ev.Response.URL, b.base)))
				b.mu.Unlock()
			}
		}
	}()
	entries := chromedp.Events(b.ctx, log.EntryAdded)
	go func() {
		for ev, err := range entries {
			if err != nil {
				return
			}
			if ev.Entry.Level == log.EntryLevelError {
				b.mu.Lock()
				b.consoleErr = append(b.consoleErr, ev.Entry.Text+" "+strings.TrimPrefix(ev.Entry.URL, b.base))
				b.mu.Unlock()
			}
		}
	}()
}

func (b *hostBrowser) dialogMessages() []string {
	time.Sleep(10 * time.Millisecond) // the dialog handler runs on its own goroutine
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.dialogs)
}

// report fails the test on a script error or a failed load; the favicon is only noted.
func (b *hostBrowser) report() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, e := range b.exceptions {
		b.t.Errorf("script error in the page: %s", e)
	}
	isExpected := func(s string) bool {
		for _, e := range b.expected {
			if strings.Contains(s, e) {
				return true
			}
		}
		return false
	}
	for _, l := range b.badLoads {
		if isExpected(l) {
			continue
		}
		if strings.HasSuffix(l, "/favicon.ico") {
			b.t.Logf("site: %s", l)
			continue
		}
		b.t.Errorf("failed load: %s", l)
	}
	for _, c := range b.consoleErr {
		if strings.Contains(c, "favicon.ico") || isExpected(c) {
			continue
		}
		b.t.Errorf("console error: %s", c)
	}
}

// hostAtNewGame logs in as the demo host through the form at the new-game page and returns the page's language
// and the catalogue.
func (b *hostBrowser) hostAtNewGame() (string, web.Catalog) {
	b.t.Helper()
	b.logIn("/games/new", club.DemoHostLogin, club.DemoHostPassword)
	return eval[string](b, `document.documentElement.lang`), mustCatalog(b.t)
}

// do runs steps with a deadline, failing the test with what was being done.
func (b *hostBrowser) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v (page %s)", what, err, b.where())
	}
}

func (b *hostBrowser) where() string {
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.pathname + ' v' + ((document.getElementById('game') || {dataset: {}}).dataset.version || '-') + ' ' + ((document.querySelector('[role=alert]') || {}).textContent || '')`))
	if err != nil {
		return "?"
	}
	return s
}

func eval[T any](b *hostBrowser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func evalAsync[T any](b *hostBrowser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

func (b *hostBrowser) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v (page %s)", sel, err, b.where())
	}
	return strings.TrimSpace(s)
}

func (b *hostBrowser) count(sel string) int {
	b.t.Helper()
	return eval[int](b, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

// pageState is what the wait for a new page reads, in one round trip: the game's version (-1 off the game page)
// and the text of an alert, if the site answered with one.
type pageState struct {
	Version int64  `json:"v"`
	Alert   string `json:"alert"`
}

const pageStateJS = `({v: +((document.getElementById('game') || {dataset: {}}).dataset.version ?? -1),
	alert: ((document.querySelector('[role=alert]') || {}).textContent || '').trim()})`

// submitWith runs trigger, which submits a form, and waits for the next page: the old document is marked, and
// the wait ends when a document without the mark has loaded. It returns the version before and the new page's
// state; an alert on the new page fails the test.
func (b *hostBrowser) submitWith(what string, trigger func()) (before int64, after pageState) {
	b.t.Helper()
	before = eval[pageState](b, `(() => { window.__e2eOld = true; return `+pageStateJS+` })()`).Version
	trigger()
	end := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(b.ctx, 2*time.Second)
		st, err := chromedp.Run(ctx, chromedp.Evaluate[*pageState](
			`window.__e2eOld !== true && document.readyState === 'complete' ? `+pageStateJS+` : null`))
		cancel()
		if err == nil && st != nil {
			after = *st
			break
		}
		if time.Now().After(end) || b.ctx.Err() != nil {
			b.t.Fatalf("%s: no new page after 10 s (last error %v; at %s, %s)", what, err, b.where(),
				eval[string](b, `location.href + ' ' + document.readyState + ' ' + window.__e2eOld`))
		}
		time.Sleep(15 * time.Millisecond)
	}
	if after.Alert != "" {
		b.t.Fatalf("%s: the site answered %q (page %s)", what, after.Alert, b.where())
	}
	return before, after
}

func (b *hostBrowser) submit(what, sel string) {
	b.t.Helper()
	b.submitWith(what, func() { b.do(what, chromedp.Click(chromedp.CSS(sel))) })
}

// act clicks a control of the host page and checks that the game moved on by exactly one version.
func (b *hostBrowser) act(what, sel string) {
	b.t.Helper()
	v, st := b.submitWith(what, func() { b.do(what, chromedp.Click(chromedp.CSS(sel))) })
	if st.Version != v+1 {
		b.t.Fatalf("%s: version %d after %d (page %s)", what, st.Version, v, b.where())
	}
}

// speech clicks "next speaker", checking that the page offers seat want (0: any); it returns the speaker.
func (b *hostBrowser) speech(want int) int {
	b.t.Helper()
	got := eval[int](b, `+(document.getElementById('act-speech') || {form: {elements: {seat: {value: 0}}}}).form.elements.seat.value`)
	if got == 0 {
		b.t.Fatalf("no next-speaker button (page %s)", b.where())
	}
	if want != 0 && got != want {
		b.t.Fatalf("next speaker #%d, want #%d", got, want)
	}
	b.act(fmt.Sprintf("speech of #%d", got), "#act-speech")
	return got
}

// nominate taps seat target during the current speech.
func (b *hostBrowser) nominate(target int) {
	b.t.Helper()
	b.act(fmt.Sprintf("nominate #%d", target), fmt.Sprintf("#seat-%d button[name=act][value=nominate]", target))
	if b.count(fmt.Sprintf("#seat-%d .badges .nominated", target)) != 1 {
		b.t.Errorf("seat %d shows no nomination mark", target)
	}
}

// tick taps the seat buttons of a pick list.
func (b *hostBrowser) tick(form, name string, seats ...int) {
	b.t.Helper()
	for _, s := range seats {
		b.do(fmt.Sprintf("tick %d in %s", s, form), chromedp.Click(chromedp.CSS(fmt.Sprintf(`%s input[name=%s][value="%d"] + span`, form, name, s))))
	}
	sel := fmt.Sprintf(`%s input[name=%s]:checked`, form, name)
	if n := b.count(sel); n != len(seats) {
		b.t.Fatalf("%d seats ticked in %s, want %d", n, form, len(seats))
	}
}

// vote records the raised hands against candidate (none: the rest, on the last candidate), after starting the
// vote where the speeches have just ended (the voting's form is folded until then).
func (b *hostBrowser) vote(candidate int, voters ...int) {
	b.t.Helper()
	if eval[bool](b, `(s => !!s && s.checkVisibility())(document.getElementById('act-start-vote'))`) {
		b.do("start the vote", chromedp.Click(chromedp.ID("act-start-vote")))
	}
	if got := eval[string](b, `(document.querySelector('#vote-form input[name=target]') || {}).value || ''`); got != strconv.Itoa(candidate) {
		b.t.Fatalf("the vote form is on %q, want #%d (page %s)", got, candidate, b.where())
	}
	b.tick("#vote-form", "voters", voters...)
	b.act(fmt.Sprintf("vote on #%d", candidate), "#act-vote")
}

func (b *hostBrowser) wantAnswer(want string) {
	b.t.Helper()
	answers := eval[string](b, `[...document.querySelectorAll('.answer')].map(a => a.textContent).join(' | ')`)
	if !strings.Contains(answers, want) {
		b.t.Errorf("check answers %q, want %q", answers, want)
	}
}

// requestLog remembers the requests the site answered, for the counts and for a failure's context.
type requestLog struct {
	mu    sync.Mutex
	lines []string
	posts int // POST /games/{id}/...
	gets  int // GET /games/{id}
	// 5xx answers, to a client that had gone (its request cancelled) or was still waiting
	gone5xx, live5xx int
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		if sw.code == 0 {
			sw.code = http.StatusOK
		}
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
		l.mu.Lock()
		defer l.mu.Unlock()
		l.lines = append(l.lines, fmt.Sprintf("%s %s %d", r.Method, r.URL.RequestURI(), sw.code))
		if sw.code >= 500 {
			if r.Context().Err() != nil {
				l.gone5xx++
			} else {
				l.live5xx++
			}
		}
		if len(parts) >= 2 && parts[0] == "games" && parts[1] != "new" {
			switch {
			case r.Method == http.MethodPost && len(parts) == 3:
				l.posts++
			case r.Method == http.MethodGet && len(parts) == 2:
				l.gets++
			}
		}
	})
}

func (l *requestLog) counts() (posts, gets, gone5xx, live5xx int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.posts, l.gets, l.gone5xx, l.live5xx
}

func (l *requestLog) tail(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines[max(0, len(l.lines)-n):], "\n")
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Len()
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
