package web_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
)

// The table app never takes a tap the host did not mean: the vote's tiles, its "nobody" and its record button keep
// their boxes from one candidate to the next, and from one round of a day to the next (the re-vote after a tie, the
// lift vote); a control that has just appeared under the finger ignores the finger's second touch.

// tableGame is one game the tests walk: a rule set, the players, and the screen it is played on.
type tableGame struct {
	rules  string
	n      int  // players
	mafia  int  // the home rule sets' mafia (the server deals the roles)
	doctor bool // home-doctor's doctor
	phone  bool // 360x780, touch; else a laptop's 1280x800 and a mouse
	// the options the rule set leaves to the host, as the record writes them
	options map[string][]byte
}

// doctorOptions are home-doctor's options, decided: the night's order, the default vote, the lift vote in a tie.
var doctorOptions = map[string][]byte{"night_order": []byte(`["mafia", "doctor", "commissar"]`), "default_vote_to_last": []byte(`true`),
	"tie_model": []byte(`"lift"`), "reveal_on_elimination": []byte(`false`), "last_word": []byte(`true`),
	"doctor_self_heal": []byte(`true`), "doctor_repeat_target": []byte(`false`)}

func (g tableGame) String() string {
	screen := "laptop"
	if g.phone {
		screen = "phone"
	}
	return fmt.Sprintf("%s, %d players, %s", g.rules, g.n, screen)
}

// walker plays a game through the host page's own controls, at random.
type walker struct {
	*appBrowser
	g       tableGame
	rnd     *rand.Rand
	last    time.Time // the last tap: a finger's next one on its box waits past the guard
	lastBox *box
	steps   int
}

// startWalker starts a live game g on the site (its roles dealt by the server) and opens its host page in a fresh
// tab of the browser, with the screen g says.
func startWalker(t *testing.T, a *appTest, g tableGame, seed uint64) (*walker, func()) {
	t.Helper()
	ctx := context.Background()
	svc := a.site.Site.Services()
	ng := club.NewGame{Rules: g.rules, Deal: true, Mafia: g.mafia, Doctor: g.doctor, Options: g.options}
	for i := 0; i < g.n; i++ {
		ng.Seats = append(ng.Seats, club.NewSeat{Name: fmt.Sprintf("Guest %d", i+1), Guest: true})
	}
	gm, err := svc.Games.Start(ctx, a.host, ng)
	if err != nil {
		t.Fatalf("%v: %v", g, err)
	}
	tab, cancel := chromedp.NewContext(a.ctx, chromedp.WithNewBrowserContext())
	w, h := int64(1280), int64(800)
	if g.phone {
		w, h = 360, 780
	}
	// the tab's first call makes it, with no deadline of its own (a deadline's end would close the tab)
	if err := chromedp.Do(tab); err != nil {
		cancel()
		t.Fatal(err)
	}
	sctx, scancel := context.WithTimeout(tab, 10*time.Second)
	defer scancel()
	_, err = chromedp.Call(sctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: w, Height: h, DeviceScaleFactor: 1, Mobile: g.phone})
	if err == nil && g.phone {
		_, err = chromedp.Call(sctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 1})
	}
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	at := *a
	at.id = gm.ID
	b := at.openIn(tab)
	eval[bool](b.hostBrowser, `window.confirm = () => true, true`) // a removal asks first: the host says yes
	return &walker{appBrowser: b, g: g, rnd: rand.New(rand.NewPCG(seed, uint64(gm.ID)))}, cancel
}

// box is where a control is on the screen (nil: not shown).
const guardHelpers = `(window.__g = {
  shown: e => !!e && e.checkVisibility({ visibilityProperty: true }),
  box: e => { if (!__g.shown(e)) { return null; } const r = e.getBoundingClientRect(); return { X: r.left, Y: r.top, W: r.width, H: r.height }; },
  // the vote shown (the vote's or the lift vote's form), its round and where its targets are
  vote: () => {
    const f = [document.getElementById('vote-form'), document.getElementById('lift-form')].find(f => __g.shown(f));
    if (!f) { return null; }
    const lift = f.id === 'lift-form';
    const round = lift ? 'lift-' + document.getElementById('game').dataset.version : f.closest('details').id;
    return { round: round, day: lift ? '' : round.split('-')[1], lift: lift, scrollY: scrollY,
      tiles: [...f.querySelectorAll('.seatpick label')].map(__g.box),
      nobody: __g.box(f.querySelector('#act-nobody, #act-lift-nobody')), record: __g.box(f.querySelector('#act-vote, #act-lift')) };
  },
}, true)`

// voteView is what __g.vote reads.
type voteView struct {
	Round   string  `json:"round"`
	Day     string  `json:"day"`
	Lift    bool    `json:"lift"`
	ScrollY float64 `json:"scrollY"`
	Tiles   []*box  `json:"tiles"`
	Nobody  *box    `json:"nobody"`
	Record  *box    `json:"record"`
}

func (w *walker) vote() *voteView {
	w.t.Helper()
	return evalAsync[*voteView](w.hostBrowser, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(__g.vote()))))`)
}

// at taps the screen at (x, y): a finger's touch on a phone, held 60 ms, or a mouse's click (on a laptop, or where
// the walk only moves the game on: a click is quicker, and the guard leaves it alone).
func (w *walker) at(what string, x, y float64, finger bool) {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
	defer cancel()
	var err error
	if w.g.phone && finger {
		_, err = chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}})
		if err == nil {
			time.Sleep(60 * time.Millisecond)
			_, err = chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
		}
	} else {
		err = chromedp.Do(ctx, chromedp.MouseClickXY(x, y))
	}
	if err != nil {
		w.t.Fatalf("%s: the tap: %v", what, err)
	}
}

// control is a control's box, scrolled into the part of the screen the main action does not cover if it is not
// there (a fixed control is tapped where it is).
func (w *walker) control(sel string) *box {
	w.t.Helper()
	return eval[*box](w.hostBrowser, fmt.Sprintf(`(e => { if (!__g.shown(e)) { return null; }
	  if (getComputedStyle(e).position !== 'fixed') {
	    const r = e.getBoundingClientRect(), m = [...document.querySelectorAll('[data-key="n"]')].find(__g.shown), low = m && m !== e ? m.getBoundingClientRect().top - 8 : innerHeight - 8;
	    if (r.top < 8) { scrollBy(0, r.top - 8); } else if (r.bottom > low) { scrollBy(0, r.bottom - low); }
	  }
	  return __g.box(e); })(document.querySelector(%q))`, sel))
}

// tap taps sel once, by a finger or a click, and waits for the page to take it: the next version drawn for an
// action of the engine.
func (w *walker) tap(what, sel string, finger bool) {
	w.t.Helper()
	b := w.control(sel)
	if finger && w.lastBox != nil && b != nil && overlaps(b, w.lastBox) {
		time.Sleep(time.Until(w.last.Add(500 * time.Millisecond))) // past the guard: a host's deliberate taps
	}
	if b == nil {
		w.t.Fatalf("%v: %s: no %s on the page (page %s)", w.g, what, sel, w.where())
	}
	engine := eval[bool](w.hostBrowser, fmt.Sprintf(`(b => !!b && (b.type === 'submit' || b.nodeName === 'BUTTON') && !!b.form && /\/act$/.test(b.form.getAttribute('action') || ''))(document.querySelector(%q))`, sel))
	v := w.version()
	w.at(what, b.X+b.W/2, b.Y+b.H/2, finger)
	w.last, w.lastBox = time.Now(), b
	if engine {
		w.until(what+" drawn", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d || !!(document.getElementById('game-error') || {}).textContent`, v+1), 5*time.Second)
	}
}

// step is the walk's next control and how to tap it: ticks first (the hands, the best move's seats), then the
// action. It is read from the page as the host sees it.
const walkStep = `((r, nom, foul) => {
  const q = s => document.querySelector(s), all = s => [...document.querySelectorAll(s)].filter(__g.shown);
  const sel = e => e.id ? '#' + e.id : '#' + e.closest('.seat').id + ' button[value=' + e.value + ']';
  const tiles = f => [...f.querySelectorAll('.seatpick label:not(.cand)')].filter(l => !l.querySelector('input').disabled);
  const tileSel = (f, l) => '#' + f.id + ' .seatpick input[value="' + l.querySelector('input').value + '"] + span';
  const start = q('#act-start-vote');
  if (__g.shown(start)) { return { action: '#act-start-vote' }; }
  const vote = [q('#vote-form'), q('#lift-form')].find(__g.shown);
  if (vote) {
    const free = tiles(vote), voters = [...vote.querySelectorAll('.seatpick input:not(:disabled)')].length;
    // half the hands, often: a tie, its re-vote, the lift vote
    let k = r() < 0.8 ? Math.min(free.length, Math.floor(voters / 2)) : Math.floor(r() * (free.length + 1));
    const nobody = vote.querySelector('#act-nobody, #act-lift-nobody');
    if (vote.id === 'vote-form' && !nobody) { k = 0; } // the last candidate: the hands not raised yet
    if (k === 0 && nobody) { return { action: '#' + nobody.id }; }
    const picked = free.sort(() => r() - 0.5).slice(0, Math.max(k, 1));
    return { ticks: picked.map(l => tileSel(vote, l)), action: vote.id === 'lift-form' ? '#act-lift' : '#act-vote' };
  }
  const bm = q('#bm-form');
  if (__g.shown(bm)) {
    const picked = tiles(bm).sort(() => r() - 0.5).slice(0, 1 + Math.floor(r() * 3));
    return { ticks: picked.map(l => tileSel(bm, l)), action: '#act-bm' };
  }
  const night = all('.seat-main[value=shoot], .seat-main[value=check], .seat-main[value=heal]');
  if (night.length) { return { action: sel(night[Math.floor(r() * night.length)]) }; }
  const noms = all('.seat-main[value=nominate]:not(:disabled)');
  // two candidates a day, mostly: their votes tie often, and a tie brings the re-vote and the lift vote
  if (noms.length && document.querySelectorAll('.seat .tag.nominated').length < 2 && r() < nom) { return { action: sel(noms[Math.floor(r() * noms.length)]) }; }
  const fouls = all('.seat:not(.out) button[value=foul]');
  if (fouls.length && r() < foul) { return { action: sel(fouls[Math.floor(r() * fouls.length)]) }; }
  const main = all('[data-key="n"]')[0];
  return main ? { action: sel(main) } : {};
})`

type walkPlan struct {
	Ticks  []string `json:"ticks"`
	Action string   `json:"action"`
}

// next reads the walk's next step from the page, with the walker's random numbers.
func (w *walker) next(nom, foul float64) walkPlan {
	w.t.Helper()
	var nums []string
	for i := 0; i < 40; i++ {
		nums = append(nums, fmt.Sprintf("%.4f", w.rnd.Float64()))
	}
	return eval[walkPlan](w.hostBrowser, fmt.Sprintf(`(() => { const n = [%s]; let i = 0; return %s(() => n[i++ %% n.length], %v, %v); })()`,
		strings.Join(nums, ","), walkStep, nom, foul))
}

func overlaps(a, b *box) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

func (w *walker) finished() bool { return w.count("#winner") == 1 }

// scroll puts the page at the top, the middle or the bottom, at random.
func (w *walker) scroll() string {
	w.t.Helper()
	where := []string{"top", "middle", "bottom"}[w.rnd.IntN(3)]
	eval[bool](w.hostBrowser, fmt.Sprintf(`(m => (scrollTo(0, %q === 'top' ? 0 : %q === 'middle' ? m / 2 : m), true))(document.documentElement.scrollHeight - innerHeight)`, where, where))
	return where
}

// sameTargets compares the vote's targets across a tap: each tile (by its index), "nobody" and the record button
// must be where they were, within 1 px.
func sameTargets(before, after *voteView) []string {
	var out []string
	far := func(a, b *box) bool {
		return a != nil && b != nil && math.Max(math.Abs(a.X-b.X), math.Abs(a.Y-b.Y)) > 1
	}
	if len(before.Tiles) != len(after.Tiles) {
		return []string{fmt.Sprintf("%d tiles, then %d", len(before.Tiles), len(after.Tiles))}
	}
	for i := range before.Tiles {
		if far(before.Tiles[i], after.Tiles[i]) {
			out = append(out, fmt.Sprintf("tile %d %v -> %v", i+1, before.Tiles[i], after.Tiles[i]))
		}
	}
	if far(before.Nobody, after.Nobody) {
		out = append(out, fmt.Sprintf("nobody %v -> %v", before.Nobody, after.Nobody))
	}
	if far(before.Record, after.Record) {
		out = append(out, fmt.Sprintf("the record button %v -> %v", before.Record, after.Record))
	}
	return out
}

// TestE2EHostAppVoteTilesStayInPlace: over random games (every rule set, 7 and 10 players, a phone and a laptop,
// the re-votes after a tie and the lift votes), every tap of a vote (a hand, "nobody", the record button), with the
// page scrolled to the top, the middle or the bottom, leaves the vote's next targets (the same tile, "nobody", the
// record button) where they were, within 1 px; a round of a day has its tiles where the day's first round had them.
func TestE2EHostAppVoteTilesStayInPlace(t *testing.T) {
	a := startGuardTest(t, 9*time.Minute)
	games := []tableGame{
		{rules: "fiim-2025-club", n: 10, phone: true},
		{rules: "fiim-2025-club", n: 7, phone: true},
		{rules: "fsm-2026", n: 10},
		{rules: "fiim-xcraft", n: 10, phone: true},
		{rules: "home-ua", n: 7, mafia: 2},
		{rules: "home-doctor", n: 10, mafia: 3, doctor: true, options: doctorOptions, phone: true},
	}
	votes, rounds, lifts := 0, map[string]bool{}, 0
	var moved []string
	for gi, g := range games {
		w, stop := startWalker(t, a, g, uint64(gi+1))
		eval[bool](w.hostBrowser, guardHelpers)
		dayTiles := map[string][]float64{} // a day's first round: its tiles' places on the page
		for ; w.steps < 140 && !w.finished(); w.steps++ {
			p := w.next(0.5, 0.05)
			if p.Action == "" {
				t.Fatalf("%v: nothing to tap (page %s)", g, w.where())
			}
			v := w.vote()
			if v == nil || p.Action == "#act-start-vote" {
				w.tap(p.Action, p.Action, false)
				continue
			}
			rounds[fmt.Sprintf("%v %s", g, v.Round)] = true
			if v.Lift {
				lifts++
			}
			if v.Day != "" || v.Lift {
				day := v.Day
				if v.Lift {
					day = "lift"
				}
				var ys []float64
				for _, b := range v.Tiles {
					ys = append(ys, b.X, b.Y+v.ScrollY)
				}
				key := fmt.Sprintf("%d %s", len(v.Tiles), eval[string](w.hostBrowser, `document.getElementById('phase').textContent`))
				if first, ok := dayTiles[key]; ok {
					for i := range first {
						if math.Abs(first[i]-ys[i]) > 1 {
							moved = append(moved, fmt.Sprintf("%v, round %s (%s): tile %d is at %.0f, the day's first round had it at %.0f", g, v.Round, day, i/2+1, ys[i], first[i]))
							break
						}
					}
				} else {
					dayTiles[key] = ys
				}
			}
			for _, sel := range append(p.Ticks, p.Action) {
				where := w.scroll()
				w.control(sel) // a tile out of the screen is scrolled to first, as the host does
				before := w.vote()
				if before == nil || before.Round != v.Round {
					break
				}
				w.tap(sel, sel, true)
				votes++
				after := w.vote()
				if after == nil || after.Round != before.Round {
					break // the round is over
				}
				if d := sameTargets(before, after); len(d) > 0 {
					moved = append(moved, fmt.Sprintf("%v, %s, %s, scrolled to the %s (%.0f, then %.0f): %s", g, v.Round, sel, where, before.ScrollY, after.ScrollY, strings.Join(d, "; ")))
				}
			}
		}
		t.Logf("%v: %d steps, finished %v; %d voting rounds so far, %d lift votes", g, w.steps, w.finished(), len(rounds), lifts)
		w.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second) // a tab closed under a request is an error logged
		stop()
	}
	t.Logf("%d vote taps in %d voting rounds (%d of them lift votes): %v", votes, len(rounds), lifts, rounds)
	if len(rounds) < len(games) || lifts == 0 {
		t.Errorf("the walk reached %d voting rounds and %d lift votes: too few to tell", len(rounds), lifts)
	}
	if len(moved) > 0 {
		t.Fatalf("%d vote taps moved the vote's targets:\n%s", len(moved), strings.Join(moved, "\n"))
	}
}

// startGuardTest starts the site with the engine and a browser; each game opens in a tab of its own.
func startGuardTest(t *testing.T, limit time.Duration) *appTest {
	t.Helper()
	needBrowser(t)
	site, host, id := appSite(t)
	t.Cleanup(func() { site.checkLog(t) })
	bctx, bcancel := startBrowser(t, chromedp.WindowSize(1280, 800))
	t.Cleanup(bcancel)
	deadline := time.AfterFunc(limit, bcancel)
	t.Cleanup(func() { deadline.Stop() })
	return &appTest{t: t, site: site, host: host, id: id, ctx: bctx}
}

// TestE2EHostAppDoubleTapTakesOne: over random games on a phone, every control the host uses (the main action in
// each step, the seats' buttons, the vote's start, its "nobody" and record buttons, the lift vote, the best move) is
// touched twice on one spot, the second touch 0.1, 0.2, 0.3 or 0.5 s after the first. Within 0.3 s the game records
// exactly what one touch records: a control that appeared under the finger ignores the second. At 0.5 s the guard has
// passed and the second touch is the host's: it is taken as a single touch on what the page then shows (recorded, or
// refused with the engine's words), and no touch is ignored.
func TestE2EHostAppDoubleTapTakesOne(t *testing.T) {
	a := startGuardTest(t, 9*time.Minute)
	games := []tableGame{
		{rules: "fiim-2025-club", n: 10, phone: true},
		{rules: "home-doctor", n: 7, mafia: 2, doctor: true, options: doctorOptions, phone: true},
		{rules: "fsm-2026", n: 10, phone: true},
	}
	gaps := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond, 500 * time.Millisecond}
	var wrong []string
	doubles := map[time.Duration]int{}
	for gi, g := range games {
		w, stop := startWalker(t, a, g, uint64(100+gi))
		eval[bool](w.hostBrowser, guardHelpers)
		// what each click that reached the page's handlers was: the guard stops an ignored one before them
		eval[bool](w.hostBrowser, `window.__taken = [], document.addEventListener('click', e => {
		  const c = e.target.closest && e.target.closest('button, summary');
		  if (c) { __taken.push({ engine: c.nodeName === 'BUTTON' && !!c.form && /\/act$/.test(c.form.getAttribute('action') || '') && !c.disabled,
		    what: (c.id || c.value || c.nodeName) + ' ' + c.textContent.trim().slice(0, 30) }); }
		}, true), true`)
		for steps, k := 0, 0; steps < 110 && !w.finished(); steps++ {
			p := w.next(0.3, 0.08)
			if p.Action == "" {
				t.Fatalf("%v: nothing to tap (page %s)", g, w.where())
			}
			for _, sel := range p.Ticks {
				w.tap(sel, sel, true)
			}
			gap := gaps[k%len(gaps)]
			k++
			time.Sleep(time.Until(w.last.Add(500 * time.Millisecond)))
			// the host looks at the page for a moment: its actions are drawn ahead
			for end := time.Now().Add(3 * time.Second); time.Now().Before(end) && !eval[bool](w.hostBrowser, `document.getElementById('host').dataset.ahead === 'done'`); {
				time.Sleep(30 * time.Millisecond)
			}
			b := w.control(p.Action)
			if b == nil {
				t.Fatalf("%v: no %s (page %s)", g, p.Action, w.where())
			}
			engine := eval[bool](w.hostBrowser, fmt.Sprintf(`(b => b.nodeName === 'BUTTON' && /\/act$/.test(b.form.getAttribute('action') || ''))(document.querySelector(%q))`, p.Action))
			eval[bool](w.hostBrowser, `(e => (e && (e.textContent = '', e.hidden = true), window.__taken = [], true))(document.getElementById('game-error'))`)
			v0, ignored0 := w.version(), eval[int](w.hostBrowser, `mafiaclubHost.ignored()`)
			x, y := b.X+b.W/2, b.Y+b.H/2
			w.doubleTouch(p.Action, x, y, gap)
			w.last, w.lastBox = time.Now(), b
			time.Sleep(700 * time.Millisecond)
			w.until("the taps saved", `mafiaclubHost.pending() === 0`, 5*time.Second)
			v1, ignored := w.version(), eval[int](w.hostBrowser, `mafiaclubHost.ignored()`)-ignored0
			type taken struct {
				Engine bool   `json:"engine"`
				What   string `json:"what"`
			}
			got := eval[[]taken](w.hostBrowser, `window.__taken`)
			said := eval[string](w.hostBrowser, `(e => e && !e.hidden ? e.textContent : '')(document.getElementById('game-error'))`)
			one := int64(0)
			if engine {
				one = 1
			}
			doubles[gap]++
			line := fmt.Sprintf("%v, %s twice, %v apart: version %d -> %d, %d touches ignored, taken %v, said %q", g, p.Action, gap, v0, v1, ignored, got, said)
			if gap <= 300*time.Millisecond {
				if v1-v0 != one {
					wrong = append(wrong, line)
				}
				continue
			}
			// past the guard: both touches are the host's
			want := one
			if len(got) == 2 && got[1].Engine && said == "" {
				want++
			}
			if ignored != 0 || len(got) > 2 || v1-v0 != want || len(got) == 2 && got[1].Engine && v1-v0 == one && said == "" {
				wrong = append(wrong, line)
			}
		}
		w.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second) // a tab closed under a request is an error logged
		stop()
	}
	t.Logf("double touches: %v", doubles)
	if len(wrong) > 0 {
		t.Fatalf("%d double touches did not record what the host meant:\n%s", len(wrong), strings.Join(wrong, "\n"))
	}
}

// doubleTouch touches (x, y) twice, the second touch gap after the first, each held 60 ms. Each touch is stamped
// with its time: the browser sends the next one only once the page has handled the one before, which on a busy
// page is later than a finger would touch, and the page reads a touch's time from its stamp.
func (w *walker) doubleTouch(what string, x, y float64, gap time.Duration) {
	w.t.Helper()
	t0 := time.Now().Add(20 * time.Millisecond)
	events := []struct {
		at    time.Duration
		typ   input.DispatchTouchEventType
		point []*input.TouchPoint
	}{
		{0, input.DispatchTouchEventTypeTouchStart, []*input.TouchPoint{{X: x, Y: y}}},
		{60 * time.Millisecond, input.DispatchTouchEventTypeTouchEnd, []*input.TouchPoint{}},
		{gap, input.DispatchTouchEventTypeTouchStart, []*input.TouchPoint{{X: x, Y: y}}},
		{gap + 60*time.Millisecond, input.DispatchTouchEventTypeTouchEnd, []*input.TouchPoint{}},
	}
	for _, ev := range events {
		time.Sleep(time.Until(t0.Add(ev.at)))
		at := t0.Add(ev.at)
		ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
		_, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: ev.typ, TouchPoints: ev.point,
			Timestamp: input.TimeSinceEpoch(float64(at.UnixMicro()) / 1e6)})
		cancel()
		if err != nil {
			w.t.Fatalf("%s: the touches: %v", what, err)
		}
	}
}
