package web_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"mafiaclub/mafia"
)

// The table app never misleads a tap (issue 24): on a phone held by the host, across a tap the control he touched
// and the main action stay where they were; voting begins by its own step once the speeches are over; an action
// that removes a player asks first, saying what will happen.

// phone is the host page on a phone: 360x780 CSS pixels, touch, taps by a finger.
type phone struct {
	*appBrowser
	a     *appTest
	taps  int
	moved []string // what moved under the host's finger, one line a tap
	// the last tap: when, and the box it touched
	lastAt  time.Time
	lastBox *box
}

// startPhone starts the site with a live game and opens its host page on a phone.
func startPhone(t *testing.T) *phone {
	t.Helper()
	needBrowser(t)
	site, host, id := appSite(t)
	t.Cleanup(func() { site.checkLog(t) })
	bctx, bcancel := startBrowser(t, chromedp.WindowSize(360, 780))
	t.Cleanup(bcancel)
	deadline := time.AfterFunc(4*time.Minute, bcancel)
	t.Cleanup(func() { deadline.Stop() })
	a := &appTest{t: t, site: site, host: host, id: id, ctx: bctx}
	ctx, cancel := context.WithTimeout(bctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 360, Height: 780, DeviceScaleFactor: 1, Mobile: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 1}); err != nil {
		t.Fatal(err)
	}
	p := &phone{appBrowser: a.open(), a: a}
	if w := eval[int](p.hostBrowser, `window.innerWidth`); w != 360 {
		t.Fatalf("the phone's page is %d px wide, want 360", w)
	}
	if !eval[bool](p.hostBrowser, `matchMedia('(pointer: coarse)').matches`) {
		t.Fatal("the phone's page has no touch screen")
	}
	eval[bool](p.hostBrowser, tapHelpers)
	p.until("the page's actions drawn ahead", `document.getElementById('host').getAttribute('data-ahead') === 'done'`, 20*time.Second)
	return p
}

// tapHelpers finds the main action (the first shown control with the key N) and reads where things are on the
// screen.
const tapHelpers = `(window.__taps = {
  shown: e => !!e && e.checkVisibility({ visibilityProperty: true }),
  main: () => [...document.querySelectorAll('[data-key="n"]')].find(e => __taps.shown(e)) || null,
  find: sel => sel === 'main' ? __taps.main() : document.querySelector(sel),
  rect: e => { if (!__taps.shown(e)) { return null; } const r = e.getBoundingClientRect(); return { x: r.left, y: r.top, w: r.width, h: r.height }; },
  anchor: e => { const a = e && e.closest('.seat[id], .panel[id], details[id], section[id]:not(#game)'); return a ? a.id : ''; },
  what: e => e ? (e.id ? '#' + e.id : e.tagName.toLowerCase()) + ' "' + e.textContent.trim().replace(/\s+/g, ' ').slice(0, 40) + '"' : 'none',
  engine: e => { const b = e && e.closest('button'); return !!b && b.type === 'submit' && !!b.form && /\/(act|undo)$/.test(b.form.getAttribute('action') || ''); },
}, true)`

// spot is where a tap's control and the main action are on the screen.
type spot struct {
	Found   bool    `json:"found"`
	Engine  bool    `json:"engine"` // the control is an action the engine takes (its page has the next version)
	What    string  `json:"what"`
	Ctl     *box    `json:"ctl"`
	Anchor  string  `json:"anchor"`
	AnchorR *box    `json:"anchorR"`
	Main    *box    `json:"main"`
	MainIs  string  `json:"mainIs"`
	Version int64   `json:"version"`
	ScrollY float64 `json:"scrollY"`
}

type box struct{ X, Y, W, H float64 }

func (b *box) String() string {
	if b == nil {
		return "gone"
	}
	return fmt.Sprintf("(%.0f, %.0f)", b.X, b.Y)
}

// away says how far a box moved (the larger of its moves across and down); a box gone is no move.
func away(a, b *box) float64 {
	if a == nil || b == nil {
		return 0
	}
	return math.Max(math.Abs(a.X-b.X), math.Abs(a.Y-b.Y))
}

// where reads where sel (or the main action: "main") and the main action are; anchor, when given, is the id of the
// box that holds the control before the tap.
func (p *phone) where(sel, anchor string) spot {
	p.t.Helper()
	return evalAsync[spot](p.hostBrowser, fmt.Sprintf(`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => {
	  const e = __taps.find(%q), m = __taps.main(), a = %q ? document.getElementById(%q) : (e && e.closest('.seat[id], .panel[id], details[id], section[id]:not(#game)'));
	  r({ found: __taps.shown(e), engine: __taps.engine(e), what: __taps.what(e), ctl: __taps.rect(e), anchor: a ? a.id : '', anchorR: __taps.rect(a),
	    main: __taps.rect(m), mainIs: __taps.what(m), version: +document.getElementById('game').dataset.version, scrollY: window.scrollY });
	})))`, sel, anchor, anchor))
}

// touch taps sel (or the main action: "main") with a finger, after the host has scrolled it into his view if it
// was not, and notes whether it or the main action moved across the tap: the control, or the box that held it when
// the tap took it away (a seat's card), and the main action must stay within 3 px; the step the main action brings
// (the seats of the best move, the hands of the vote) must be in view.
func (p *phone) touch(what, sel string) {
	p.t.Helper()
	if !eval[bool](p.hostBrowser, fmt.Sprintf(`__taps.shown(__taps.find(%q))`, sel)) {
		p.t.Fatalf("%s: no %s on the page (page %s):\n%s", what, sel, p.appBrowser.where(), eval[string](p.hostBrowser, `document.getElementById('game').innerText.slice(0, 1200)`))
	}
	// the host scrolls what he will touch into the part of the screen the fixed bottom bar does not cover
	eval[bool](p.hostBrowser, fmt.Sprintf(`(() => { const e = __taps.find(%q); if (getComputedStyle(e).position === 'fixed' || e.closest('.mainbar')) { return true; }
	  const r = e.getBoundingClientRect(), m = __taps.main(), low = m && m !== e && getComputedStyle(m).position === 'fixed' ? m.getBoundingClientRect().top - 8 : innerHeight - 60;
	  if (r.top < 8 || r.bottom > low) { window.scrollBy(0, r.top - innerHeight / 3); } return true; })()`, sel))
	// the step's panel shown before the tap (the vote's round): a tap that keeps it brings nothing into view
	stepBefore := eval[string](p.hostBrowser, stepShown)
	before := p.where(sel, "")
	p.taps++
	at := before.Ctl
	// a host's deliberate next tap on the spot of the last one comes after the page's guard (host.js), which
	// ignores a second touch there meant for the control before
	if p.lastBox != nil && overlaps(at, p.lastBox) {
		time.Sleep(time.Until(p.lastAt.Add(500 * time.Millisecond)))
	}
	p.finger(what, at.X+at.W/2, at.Y+at.H/2)
	p.lastAt, p.lastBox = time.Now(), at
	if before.Engine {
		p.until(what+" drawn", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d`, before.Version+1), 5*time.Second)
	} else {
		time.Sleep(50 * time.Millisecond)
	}
	after := p.where(sel, before.Anchor)
	if sel != "main" && after.Found && after.What != before.What && !strings.Contains(sel, "seatpick") {
		after.Ctl = nil // another control in the place of the one touched: the box that held it says
	}
	var moved []string
	if d := away(before.Ctl, after.Ctl); d > 3 {
		moved = append(moved, fmt.Sprintf("the control %s moved %.0f px: %v -> %v", before.What, d, before.Ctl, after.Ctl))
	} else if after.Ctl == nil {
		if d := away(before.AnchorR, after.AnchorR); d > 3 && before.Anchor != "" {
			moved = append(moved, fmt.Sprintf("the control %s went, and its #%s moved %.0f px: %v -> %v", before.What, before.Anchor, d, before.AnchorR, after.AnchorR))
		}
	}
	if d := away(before.Main, after.Main); d > 3 || before.Main != nil && after.Main != nil && math.Abs(before.Main.H-after.Main.H) > 3 {
		moved = append(moved, fmt.Sprintf("the main action %s moved %.0f px: %v, %.0f px high -> %s %v, %.0f px high", before.MainIs, d, before.Main, before.Main.H, after.MainIs, after.Main, after.Main.H))
	}
	// the step the main action brought (the best move's seats, the vote's hands) is where the host sees it
	if sel == "main" && (stepBefore == "" || stepBefore != eval[string](p.hostBrowser, stepShown)) {
		if out := eval[string](p.hostBrowser, `(pick => { if (!pick || !__taps.shown(pick)) { return ''; }
		  const r = pick.closest('form').getBoundingClientRect(), m = __taps.main(), low = m ? m.getBoundingClientRect().top : innerHeight;
		  return r.top >= -1 && r.bottom <= low + 1 ? '' : 'the step brought is out of view: ' + Math.round(r.top) + '-' + Math.round(r.bottom) + ', the screen to ' + Math.round(low); })(document.querySelector('#stage .seatpick'))`); out != "" {
			moved = append(moved, out)
		}
	}
	if len(moved) > 0 {
		p.moved = append(p.moved, fmt.Sprintf("tap %d, %s (scrolled to %.0f, then %.0f): %s", p.taps, what, before.ScrollY, after.ScrollY, strings.Join(moved, "; ")))
	}
}

// stepShown names the step's panel of seats to pick that is shown (its form and, for a vote, its round), or "".
const stepShown = `(pick => { if (!pick || !__taps.shown(pick)) { return ''; } const f = pick.closest('form'), d = f.closest('details'); return f.id + (d ? ' ' + d.id : ''); })(document.querySelector('#stage .seatpick'))`

// finger touches the screen at (x, y) and is lifted 80 ms later: the browser's tap (pointer events, touch
// events, the click).
func (p *phone) finger(what string, x, y float64) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	_, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchStart, TouchPoints: []*input.TouchPoint{{X: x, Y: y}}})
	if err == nil {
		time.Sleep(80 * time.Millisecond)
		_, err = chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: input.DispatchTouchEventTypeTouchEnd, TouchPoints: []*input.TouchPoint{}})
	}
	if err != nil {
		p.t.Fatalf("%s: the tap: %v", what, err)
	}
}

// mainIs is the main action's id ("" when there is none, or it has none).
func (p *phone) mainIs() string {
	p.t.Helper()
	return eval[string](p.hostBrowser, `(m => m ? m.id || m.tagName.toLowerCase() : '')(__taps.main())`)
}

// speeches calls the day's speakers, each by the main action, until the main action is no longer "next speaker":
// noms[speaker] is the seat he nominates, fouls[speaker] the seat that gets a foul in his speech.
func (p *phone) speeches(noms, fouls map[int]int) {
	p.t.Helper()
	for i := 0; p.mainIs() == "act-speech"; i++ {
		if i > 12 {
			p.t.Fatal("the day's speeches do not end")
		}
		p.touch("next speaker", "main")
		speaker := eval[int](p.hostBrowser, `+document.getElementById('game').dataset.speaker`)
		if n := noms[speaker]; n != 0 {
			p.touch(fmt.Sprintf("#%d nominates #%d", speaker, n), fmt.Sprintf("#seat-%d .seat-main[value=nominate]", n))
		}
		if f := fouls[speaker]; f != 0 {
			p.touch(fmt.Sprintf("a foul on #%d", f), fmt.Sprintf("#seat-%d button[value=foul]", f))
		}
	}
}

// startVoting is the host's step from the speeches to the vote, where the page has one: the main action that
// records nothing.
func (p *phone) startVoting(what string) {
	p.t.Helper()
	if !eval[bool](p.hostBrowser, `__taps.engine(__taps.main())`) {
		p.touch(what, "main")
	}
}

// vote records the hands raised against candidate: each ticked by a tap, then the main action; none (and not the
// rest) is recorded with the page's "nobody" where it has one.
func (p *phone) vote(candidate int, nobody bool, voters ...int) {
	p.t.Helper()
	if got := eval[string](p.hostBrowser, `(document.querySelector('#vote-form input[name=target]') || {}).value || ''`); got != fmt.Sprint(candidate) {
		p.t.Fatalf("the vote is on %q, want #%d (page %s)", got, candidate, p.appBrowser.where())
	}
	for _, v := range voters {
		p.touch(fmt.Sprintf("a hand against #%d: #%d", candidate, v), fmt.Sprintf(`#vote-form .seatpick input[value="%d"] + span`, v))
	}
	if nobody && p.count("#act-nobody") == 1 {
		p.touch(fmt.Sprintf("nobody against #%d", candidate), "#act-nobody")
		return
	}
	p.touch(fmt.Sprintf("record the votes against #%d", candidate), "main")
}

// passSteps walks the plan's timed steps with the timer's "pass" until its active step is one that records event.
func (p *phone) passSteps(event string) {
	p.t.Helper()
	for i := 0; eval[string](p.hostBrowser, `(document.querySelector('#plan .step.active') || {dataset: {}}).dataset.event || ''`) != event; i++ {
		if i > 12 {
			p.t.Fatalf("the plan has no step of %s to pass to", event)
		}
		p.touch("pass", "#t-pass")
	}
}

// seatTap taps a seat's own button (nominate, shoot, check, heal) or its foul button.
func (p *phone) seatTap(what string, seat int, value string) {
	p.t.Helper()
	p.touch(what, fmt.Sprintf("#seat-%d button[value=%s]", seat, value))
}

// TestE2EHostAppTapsStayInPlace: a whole game on a phone (360x780, touch), played through the page's own
// buttons; before and after every tap the test reads where the control the host touched and the main action are
// on the screen, and fails if either moved more than 3 px across the tap (a control the tap took away: the seat's
// card or panel that held it). A change of phase keeps the main action where it was.
func TestE2EHostAppTapsStayInPlace(t *testing.T) {
	p := startPhone(t)
	// night 1: the host walks the timed steps, then wakes the city
	p.passSteps("day")
	p.touch("wake the city", "main")
	// day 1: two nominations and a foul, a tie, its speeches, the re-vote: #3 leaves
	p.speeches(map[int]int{1: 3, 4: 7}, map[int]int{4: 6})
	p.startVoting("start the voting")
	p.vote(3, false, 1, 2, 4, 5, 6)
	p.vote(7, false) // the rest: 5, a tie
	p.passSteps("vote")
	p.startVoting("start the re-vote")
	p.vote(3, false, 1, 2, 4, 5, 6, 8)
	p.vote(7, false)
	p.touch("night", "main")
	// night 2: all at #1, the don's check, the sheriff's check
	p.seatTap("all at #1", 1, "shoot")
	p.seatTap("the don checks #5", 5, "check")
	p.seatTap("the sheriff checks #9", 9, "check")
	p.touch("morning", "main")
	// day 2: #1's best move, three candidates, one with no hands: #9 leaves
	for _, s := range []int{7, 9, 10} {
		p.touch(fmt.Sprintf("#1 names #%d", s), fmt.Sprintf(`#bm-form .seatpick input[value="%d"] + span`, s))
	}
	p.touch("the best move", "main")
	p.speeches(map[int]int{2: 9, 4: 6, 5: 8}, nil)
	p.startVoting("start the voting")
	p.vote(9, false, 2, 4, 5, 6, 7)
	p.vote(6, true)
	p.vote(8, false)
	p.touch("night", "main")
	// night 3: all at #10, the checks
	p.seatTap("all at #10", 10, "shoot")
	p.seatTap("the don checks #2", 2, "check")
	p.seatTap("the sheriff checks #7", 7, "check")
	p.touch("morning", "main")
	// day 3: #7, the single candidate, leaves: the red team wins
	noms := map[int]int{}
	for _, s := range []int{2, 4, 5, 6, 8} {
		noms[s] = 7
	}
	for p.mainIs() == "act-speech" {
		p.touch("next speaker", "main")
		if sp := eval[int](p.hostBrowser, `+document.getElementById('game').dataset.speaker`); noms[sp] != 0 && p.count(".seat-main[value=nominate]:not(:disabled)") > 0 {
			p.touch(fmt.Sprintf("#%d nominates #7", sp), "#seat-7 .seat-main[value=nominate]")
			noms = nil
		}
	}
	p.startVoting("start the voting")
	p.vote(7, false, 2, 4, 5, 6, 8)
	if p.count("#winner") != 1 {
		t.Fatalf("the game has no result after %d taps (page %s)", p.taps, p.appBrowser.where())
	}
	p.until("saved", `mafiaclubHost.pending() === 0`, 20*time.Second)
	if len(p.moved) > 0 {
		t.Fatalf("%d of %d taps moved what the host touched or the main action:\n%s", len(p.moved), p.taps, strings.Join(p.moved, "\n"))
	}
	t.Logf("%d taps, none moved the control touched or the main action more than 3 px", p.taps)
}

// mainAction is the page's main action as the host sees it: its id and words ("" when none is shown).
func (b *appBrowser) mainAction() (id, text string) {
	b.t.Helper()
	got := eval[[]string](b.hostBrowser, `(m => m ? [m.id, m.textContent.trim()] : ['', ''])([...document.querySelectorAll('[data-key="n"]')].find(e => e.checkVisibility()))`)
	return got[0], got[1]
}

// TestE2EHostAppVotingWaitsForTheSpeeches: during the day's last speech and the tie speeches the main action starts
// the vote and records nothing; the vote's form is folded until then. A vote with no hands ticked is refused unless
// the host records "nobody" (the last candidate's, which takes the hands not raised yet, excepted), and the record
// holds exactly the votes the host meant.
func TestE2EHostAppVotingWaitsForTheSpeeches(t *testing.T) {
	a := startAppTest(t)
	b := a.open()
	cat := mustCatalog(t)
	lang := eval[string](b.hostBrowser, `document.documentElement.lang`)
	events := func() []string {
		t.Helper()
		b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
		var out []string
		for _, e := range a.server().Record.Events {
			out = append(out, e.Type.String())
		}
		return out
	}
	noVote := func(when string) {
		t.Helper()
		for _, e := range events() {
			if e == "vote" {
				t.Fatalf("%s: the record has a vote: %v", when, events())
			}
		}
		if b.count("#vote-form input[name=voters]:checked") != 0 {
			t.Fatalf("%s: hands ticked", when)
		}
	}
	// startsTheVote checks that the main action starts the vote, that a tap on it records nothing, and that the
	// vote's form is there after it
	startsTheVote := func(when, label string) {
		t.Helper()
		id, text := b.mainAction()
		if id != "act-start-vote" || text != cat.T(lang, label) || text == cat.T(lang, "game.record_votes") {
			t.Fatalf("%s: the main action is %s %q, want %q", when, id, text, cat.T(lang, label))
		}
		if eval[bool](b.hostBrowser, `document.getElementById('act-vote').checkVisibility()`) {
			t.Fatalf("%s: the vote's form is shown before the vote starts", when)
		}
		v, had := b.version(), len(events())
		b.do(when+": the main action", chromedp.Click(chromedp.CSS("#act-start-vote")))
		time.Sleep(300 * time.Millisecond)
		if b.version() != v || b.pending() != 0 || len(events()) != had {
			t.Fatalf("%s: a tap on the main action moved the game from version %d to %d (%d waiting): %v", when, v, b.version(), b.pending(), events())
		}
		if id, _ := b.mainAction(); id != "act-vote" {
			t.Fatalf("%s: after the vote's start the main action is %s, want the vote's", when, id)
		}
	}
	b.tap("wake the city", "#act-day")
	for s := 1; s <= 10; s++ {
		b.tap(fmt.Sprintf("speech of #%d", s), "#act-speech")
		switch s {
		case 1:
			b.tap("#1 nominates #3", "#seat-3 .seat-main[value=nominate]")
		case 2:
			b.tap("#2 nominates #7", "#seat-7 .seat-main[value=nominate]")
		}
	}
	// #10 speaks, the day's last speech: no vote yet
	noVote("the last speech")
	startsTheVote("the last speech", "taps.start_vote")
	// the first candidate, no hand ticked: refused, nothing recorded, the page says why
	v := b.version()
	b.do("record no hands", chromedp.Click(chromedp.CSS("#act-vote")))
	b.until("the refusal said", fmt.Sprintf(`(document.getElementById('game-error') || {}).textContent === %q`,
		cat.T(lang, "error.invalid", cat.T(lang, "msg:tick the raised hands, or record that nobody raised a hand"))), 5*time.Second)
	if b.version() != v {
		t.Fatal("a vote with no hands and no \"nobody\" was recorded")
	}
	noVote("no hands ticked")
	for _, s := range []int{1, 2, 4, 5, 6} {
		b.do(fmt.Sprintf("the hand of #%d", s), chromedp.Click(chromedp.CSS(fmt.Sprintf(`#vote-form input[value="%d"] + span`, s))))
	}
	b.tap("five hands against #3", "#act-vote")
	b.tap("the rest against #7", "#act-vote") // 5:5, a tie
	// the tie speeches: again no vote until the host starts it
	if got := eval[string](b.hostBrowser, `[...document.querySelectorAll('#plan .step')].map(s => s.dataset.event || '-').join(' ')`); got != "- - vote" {
		t.Fatalf("after the tie the plan is %q, want the two tie speeches and the vote", got)
	}
	startsTheVote("the tie speeches", "taps.start_revote")
	b.tap("nobody against #3", "#act-nobody")
	b.tap("the rest against #7", "#act-vote")
	b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	st := a.server()
	var votes []string
	for _, e := range st.Record.Events {
		if e.Type == mafia.EvVote {
			votes = append(votes, fmt.Sprintf("#%d %v %v", e.Target, e.VotersGiven, e.Voters.List()))
		}
	}
	if want := []string{"#3 true [1 2 4 5 6]", "#7 true []", "#3 true []", "#7 true []"}; !slices.Equal(votes, want) {
		t.Fatalf("the record's votes are %q, want %q", votes, want)
	}
	if out := st.Play.Out(7); out.How != mafia.OutVoted {
		t.Fatalf("#7 is %v, want voted out", out.How)
	}
}

// TestE2EHostAppRemovalsAskFirst: a 4th foul, a disqualification and a team's loss each ask first, saying what will
// happen as the engine says it (who leaves, without a last word; today's vote cancelled; the game's end), in the
// host's language; a "no" records nothing. A foul that removes nobody asks nothing.
func TestE2EHostAppRemovalsAskFirst(t *testing.T) {
	a := startAppTest(t)
	b := a.open()
	cat := mustCatalog(t)
	lang := eval[string](b.hostBrowser, `document.documentElement.lang`)
	eval[bool](b.hostBrowser, `window.__asked = [], window.__answer = false, window.confirm = m => (window.__asked.push(m), window.__answer), true`)
	b.tap("wake the city", "#act-day")
	b.tap("speech of #1", "#act-speech")
	b.tap("#1 nominates #3", "#seat-3 .seat-main[value=nominate]")
	b.tap("speech of #2", "#act-speech")
	for i := 1; i <= 3; i++ {
		b.tap(fmt.Sprintf("foul %d of #6", i), "#seat-6 button[value=foul]")
	}
	if asked := eval[[]string](b.hostBrowser, `window.__asked`); len(asked) != 0 {
		t.Fatalf("fouls that remove nobody asked %q", asked)
	}
	// declined asks that change nothing
	declined := func(what string, do func(), want ...string) {
		t.Helper()
		b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
		v, events := b.version(), len(a.server().Record.Events)
		eval[bool](b.hostBrowser, `window.__asked = [], true`)
		do()
		b.until(what+": asked", `window.__asked.length === 1`, 5*time.Second)
		time.Sleep(200 * time.Millisecond)
		asked := eval[[]string](b.hostBrowser, `window.__asked`)
		for _, w := range want {
			if !strings.Contains(asked[0], w) {
				t.Errorf("%s asks %q: it does not say %q", what, asked[0], w)
			}
		}
		if b.version() != v || b.pending() != 0 || len(a.server().Record.Events) != events {
			t.Fatalf("%s, declined: version %d -> %d, %d waiting", what, v, b.version(), b.pending())
		}
	}
	leaves := func(s int) string { return cat.T(lang, "taps.leaves", s) }
	cancelled := cat.T(lang, "taps.vote_cancelled")
	declined("the 4th foul of #6", func() { b.do("4th foul", chromedp.Click(chromedp.CSS("#seat-6 button[value=foul]"))) },
		leaves(6), cancelled, cat.T(lang, "taps.ask.foul", 6))
	form := func(typ string, seat int) func() {
		return func() {
			eval[bool](b.hostBrowser, fmt.Sprintf(`(f => (document.getElementById('discipline').open = true, f.elements.seat.value = '%d',
			  f.elements.reason.value = 'the rules', f.requestSubmit(), true))(document.querySelector('#discipline input[name=type][value=%s]').form)`, seat, typ))
		}
	}
	declined("the disqualification of #4", form("disqualify", 4), leaves(4), cancelled, cat.T(lang, "taps.ask.disqualify", 4))
	declined("the loss of #7's team", form("team_loss", 7), capital(cat.T(lang, "taps.team_loses", 7)), leaves(7),
		cat.T(lang, "taps.game_ends"), cat.T(lang, "taps.ask.team_loss", 7))
	// a "yes" takes the 4th foul: #6 leaves, today's vote is cancelled; a disqualification then says no more
	eval[bool](b.hostBrowser, `window.__answer = true, true`)
	b.tap("the 4th foul of #6, confirmed", "#seat-6 button[value=foul]")
	b.until("saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	if st := a.server(); st.Play.Out(6).How != mafia.OutFouls || st.Play.Voting() != mafia.VotingCancelled {
		t.Fatalf("after the 4th foul #6 is %v and the vote %v", st.Play.Out(6).How, st.Play.Voting())
	}
	eval[bool](b.hostBrowser, `window.__answer = false, true`)
	declined("the disqualification of #4 after the vote's cancellation", form("disqualify", 4), leaves(4))
	if asked := eval[[]string](b.hostBrowser, `window.__asked`); strings.Contains(asked[0], cancelled) {
		t.Errorf("a disqualification after the vote's cancellation says %q", asked[0])
	}
}

// capital writes a sentence's first letter as a capital, as the page's question opens.
func capital(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = []rune(strings.ToUpper(string(r[0])))[0]
	}
	return string(r)
}
