package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
)

// TestE2ESpectator: a host plays on the host page in one browser context while a spectator watches the game's
// live page in another (no login, its own cookies); the spectator's page shows each change without a reload
// (its stream replaces the view), the speaker's timer runs, and the night's shots and checks never show until
// the game ends.
func TestE2ESpectator(t *testing.T) {
	needBrowser(t)
	site := startSite(t, time.UTC, nil)
	defer site.checkLog(t)
	bctx, bcancel := startBrowser(t)
	defer bcancel()
	deadline := time.AfterFunc(90*time.Second, func() { bcancel() })
	defer deadline.Stop()

	_, gameID := site.guestGame(t)

	b := &hostBrowser{t: t, ctx: bctx, base: site.URL}
	b.watch()
	defer b.report()
	b.logIn(fmt.Sprintf("/games/%d", gameID), club.DemoHostLogin, club.DemoHostPassword)

	// the spectator: a second browser context (no cookies of the host's), on the game's live page
	sctx, scancel := chromedp.NewContext(bctx, chromedp.WithNewBrowserContext())
	defer scancel()
	spec := &hostBrowser{t: t, ctx: sctx, base: site.URL}
	spec.watch()
	defer spec.report()
	spec.do("open the live page", chromedp.Navigate(fmt.Sprintf("%s/live/%d", site.URL, gameID)), chromedp.WaitVisible(chromedp.CSS("#live-view .lseats")))
	eval[bool](spec, `window.__loaded = true`)
	// shows waits until the spectator's view holds text (the page itself is never reloaded)
	shows := func(what, text string) {
		t.Helper()
		js := fmt.Sprintf(`window.__loaded === true && document.getElementById('live-view').textContent.includes(%q)`, text)
		wctx, cancel := context.WithTimeout(sctx, 10*time.Second)
		defer cancel()
		if _, err := chromedp.Run(wctx, chromedp.Poll[bool](js)); err != nil {
			t.Fatalf("%s: the spectator's page does not show %q: %v\n%s", what, text, err, eval[string](spec, `document.getElementById('live-view').innerText`))
		}
	}
	shows("the start", "Night 1")

	b.act("wake the city", "#act-day")
	shows("day 1", "Day 1")
	b.speech(1)
	shows("the first speech", "#1 speaks")
	if !eval[bool](spec, `document.querySelector('#lseat-1').classList.contains('speaking') && !!document.querySelector('.ltimer[data-ends]')`) {
		t.Error("the speaker is not marked or the timer does not run")
	}
	b.nominate(3)
	shows("a nomination", "#1 → #3")
	b.act("foul on #6", "#seat-6 button[name=act][value=foul]")
	shows("a foul", "Foul on #6")
	b.speech(2)
	b.nominate(7)
	for s := 3; s <= 10; s++ {
		b.speech(s)
	}
	shows("the last speech", "#10 speaks")
	b.vote(3, 1, 2, 4, 5, 6, 8)
	shows("the vote", "Against #3: 6")
	b.vote(7)
	shows("the last vote", "Against #7: 4")
	if !eval[bool](spec, `document.getElementById('lseat-3').classList.contains('out')`) {
		t.Error("#3 voted out is not shown as out")
	}
	b.act("night", "#act-night")
	shows("the night", "the city sleeps")
	// the night: every page the spectator has stays as it was; nothing names a shot or a check
	before := eval[string](spec, `document.getElementById('live-view').innerHTML`)
	b.act("all shoot #5", "#seat-5 button[name=act][value=shoot]")
	after := eval[string](spec, `document.getElementById('live-view').innerHTML`)
	if before != after || strings.Contains(after, "shot") {
		t.Errorf("a shot changed the spectator's page")
	}
	b.act("wake the city", "#act-day")
	shows("the morning", "#5 was killed")
	if strings.Contains(eval[string](spec, `document.body.innerText`), "shot") {
		t.Error("the spectator's page names a shot before the end")
	}
	// after the first frame, the stream sent only the changed lines, and the page applied them
	if n := eval[int](spec, `+(document.getElementById('live-view').getAttribute('data-deltas') || 0)`); n < 5 {
		t.Errorf("the spectator's page applied %d deltas", n)
	}
}
