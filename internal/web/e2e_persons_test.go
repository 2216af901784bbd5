package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
)

// TestE2EPersonJoinsTwoClubs360: on a 360 px phone, a person signs up at club a, logs in, joins club b (at
// /c/club-b/, the same session), and finds both clubs on his page there, each with his status, the page no wider
// than the screen (issue 29, item 2).
func TestE2EPersonJoinsTwoClubs360(t *testing.T) {
	needBrowser(t)
	pc := newPersonsClubs(t)
	bctx, stop := startBrowser(t, chromedp.WindowSize(360, 780))
	t.Cleanup(stop)
	deadline := time.AfterFunc(90*time.Second, stop)
	t.Cleanup(func() { deadline.Stop() })
	b := &hostBrowser{t: t, ctx: bctx, base: pc.a.srv.URL}
	b.watch()
	t.Cleanup(b.report)

	// a window is never narrower than 500 px: the phone's screen is emulated, as TestE2EPointsAndProtocol360 does
	b.do("a 360 px phone", chromedp.EmulateViewport(360, 780, chromedp.EmulateMobile, chromedp.EmulateTouch))
	b.do("sign-up form", chromedp.Navigate(b.base+"/signup"), chromedp.WaitVisible(`#signup-submit`))
	if w := eval[int](b, `window.innerWidth`); w != 360 {
		t.Fatalf("the window is %d px wide, want 360", w)
	}
	b.do("fill in the sign-up",
		chromedp.SendKeys(`input[name=login]`, "wanderer"),
		chromedp.SendKeys(`input[name=nick]`, "Wanderer"),
		chromedp.SendKeys(`input[name=password]`, "wanderer-password"),
		chromedp.SendKeys(`input[name=password2]`, "wanderer-password"))
	b.submit("sign up", "#signup-submit")
	if b.count(`#signup-done`) != 1 {
		t.Fatalf("no sign-up confirmation (at %s)", b.where())
	}
	b.logIn("/me", "wanderer", "wanderer-password")

	b.do("club b's join page", chromedp.Navigate(b.base+"/c/club-b/me"), chromedp.WaitVisible(`#join-submit`))
	if got := eval[string](b, `location.pathname`); got != "/c/club-b/join" {
		t.Errorf("club b's page of a person who is not its member: at %s, want the join page", got)
	}
	if intro := b.text(`#join-intro`); !strings.Contains(intro, "wanderer") {
		t.Errorf("the join page does not say who joins: %q", intro)
	}
	b.do("the nickname in b", chromedp.SendKeys(`#join-form input[name=nick]`, "Wanderer B"))
	b.submit("join", "#join-submit")
	if got := eval[string](b, `location.pathname`); got != "/c/club-b/me" {
		t.Fatalf("after joining: at %s, want b's /me", got)
	}
	b.do("his clubs", chromedp.WaitVisible(`#my-clubs`))
	if n := b.count(`#my-clubs li`); n != 2 {
		t.Errorf("his page lists %d clubs, want 2", n)
	}
	pending := pc.b.site.Catalog.T(web.Languages[0], "status."+string(club.StatusPending))
	for _, slug := range []string{"", "club-b"} {
		st := eval[string](b, `(document.querySelector('#my-clubs li[data-club="`+slug+`"] .club-status') || {}).textContent || ''`)
		if st == "" {
			t.Errorf("no line of club %q on his page", slug)
		} else if lang := eval[string](b, `document.documentElement.lang`); lang == web.Languages[0] && st != pending {
			t.Errorf("club %q: status %q, want %q", slug, st, pending)
		}
	}
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("his page is %d px wide on a 360 px screen: %s", w, eval[string](b, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12).join('; ')`))
	}
	if !strings.Contains(b.text(`#my-clubs`), "Club B") {
		t.Errorf("club b is not named on his page: %q", b.text(`#my-clubs`))
	}
}
