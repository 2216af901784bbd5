package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// TestE2EPlayerPage360 opens a player's page in Chromium 360 px wide (the narrowest phone we support): nothing
// scrolls sideways, every figure is on the screen, and his charts are drawn, the Elo chart too after one game; the
// rating page does not scroll sideways either.
func TestE2EPlayerPage360(t *testing.T) {
	needBrowser(t)
	site := startSite(t, time.UTC, nil)
	defer site.checkLog(t)
	ctx := context.Background()
	svc := site.Site.Services()
	host, err := site.DB.UserByLogin(ctx, club.DemoHostLogin)
	if err != nil {
		t.Fatal(err)
	}
	nicks := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"}
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	seats := make([]club.NewSeat, 10)
	for i := range seats {
		seats[i] = club.NewSeat{Name: nicks[i], Role: roles[i], Guest: i == 9}
	}
	g, err := svc.Games.Start(ctx, host, club.NewGame{Rules: club.ClubRules, Seats: seats, Rated: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := svc.Games.Act(ctx, host, g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3)}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Games.Save(ctx, host, g.ID, st.Game.Version, true); err != nil {
		t.Fatal(err)
	}
	joker := g.Seats[0].PlayerID

	bctx, bcancel := startBrowser(t)
	defer bcancel()
	deadline := time.AfterFunc(60*time.Second, func() { bcancel() })
	defer deadline.Stop()
	b := &hostBrowser{t: t, ctx: bctx, base: site.URL}
	b.watch()
	defer b.report()
	// headless Chromium keeps its window at least 500 px wide: the phone's viewport is emulated, as its devtools do
	if _, err := chromedp.Run(bctx, chromedp.EmulateViewport(360, 780)); err != nil {
		t.Fatal(err)
	}
	b.open(fmt.Sprintf("/players/%d", joker))
	if w := eval[int](b, `window.innerWidth`); w != 360 {
		t.Fatalf("the window is %d px wide, want 360", w)
	}
	if sw := eval[int](b, `document.documentElement.scrollWidth`); sw > 360 {
		wide := eval[[]string](b, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361)
			.map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8)`)
		t.Errorf("the page is %d px wide at 360: it scrolls sideways (%v)", sw, wide)
	}
	if n := b.count(`#figures li`); n != 9 {
		t.Errorf("%d figures, want 9", n)
	}
	// every figure and both charts lie within the screen's width
	off := eval[[]string](b, `[...document.querySelectorAll('#figures li, #chart, #elo-chart, h1, #player-totals')]
		.filter(e => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > 360 || r.width === 0 })
		.map(e => e.id || e.dataset.figure || e.tagName)`)
	if len(off) > 0 {
		t.Errorf("off the screen or not drawn at 360 px: %v", off)
	}
	if got := b.text(`#player-totals`); !strings.Contains(got, "Elo") || !strings.Contains(got, "1010") {
		t.Errorf("the totals: %q, want his Elo 1010 after one win", got)
	}
	// one game: the Elo chart goes from the start to 1010, two points
	if pts := eval[string](b, `document.querySelector('#elo-chart polyline').getAttribute('points')`); len(strings.Fields(pts)) != 2 {
		t.Errorf("the Elo chart after one game: points %q, want two", pts)
	}
	if got := b.text(`[data-figure="avg"] b`); got != "1.30" {
		t.Errorf("points per game: %q, want 1.30", got)
	}
	// the rating page, with its filters and the Elo formula, does not scroll sideways either
	b.open("/rating")
	if sw := eval[int](b, `document.documentElement.scrollWidth`); sw > 360 {
		t.Errorf("the rating page is %d px wide at 360", sw)
	}
}
