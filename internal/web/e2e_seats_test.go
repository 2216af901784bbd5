package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/mafia/record"
)

// TestE2ECorrectDeal corrects a hand-entered deal through the page, in the browser (issue 24, item 5): a
// correction that makes the sheriff's night check impossible is refused naming that event, and nothing changes;
// the right one is checked, confirmed and applied, and the chronology shows it with its reason.
func TestE2ECorrectDeal(t *testing.T) {
	site, b := plainBrowser(t)
	host, id := site.guestGame(t)
	b.expected = append(b.expected, fmt.Sprintf("422 /games/%d/seats", id), "422 (Unprocessable Entity)") // the refusal
	ctx := context.Background()
	var events []string
	events = append(events, `{"type": "day"}`)
	for s := 1; s <= 10; s++ {
		events = append(events, fmt.Sprintf(`{"type": "speech", "seat": %d}`, s))
		if s == 1 {
			events = append(events, `{"type": "nominate", "by": 1, "target": 8}`)
		}
		if s == 2 {
			events = append(events, `{"type": "nominate", "by": 2, "target": 6}`)
		}
	}
	events = append(events, `{"type": "vote", "target": 8, "voters": [1, 2, 3, 4, 5, 6]}`, `{"type": "vote", "target": 6}`, `{"type": "night"}`,
		`{"type": "shot", "by": 7, "target": 1}`, `{"type": "shot", "by": 9, "target": 1}`,
		`{"type": "check", "by": 7, "target": 5}`, `{"type": "check", "by": 5, "target": 4}`, `{"type": "day"}`)
	for _, js := range events {
		e, err := record.DecodeEvent([]byte(js), 10)
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		st, err := site.Site.Services().Games.Load(ctx, host, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := site.Site.Services().Games.Act(ctx, host, id, st.Game.Version, []record.Event{e}); err != nil {
			t.Fatalf("%s: %v", js, err)
		}
	}
	check := len(events) - 1 // the sheriff's check, the event before the morning
	before, _ := site.DB.Game(ctx, id)

	b.logIn(fmt.Sprintf("/games/%d", id), club.DemoHostLogin, club.DemoHostPassword)
	cat := mustCatalog(t)
	lang := eval[string](b, `document.documentElement.lang`)
	b.do("open the correction", chromedp.Click(chromedp.ID("correct-seats")), chromedp.WaitVisible(chromedp.ID("seats-form")))
	// #5, who checked #4 as the sheriff, a citizen, and #6 the sheriff: refused, naming the check
	b.do("swap the sheriff's card",
		chromedp.SetValue(chromedp.CSS(`select[name=role5]`), "citizen"),
		chromedp.SetValue(chromedp.CSS(`select[name=role6]`), "sheriff"),
		chromedp.SendKeys(chromedp.ID("seats-reason"), "cards typed wrong"))
	b.do("check it", chromedp.Click(chromedp.ID("seats-check")), chromedp.WaitVisible(chromedp.ID("seats-error")))
	msg := b.text("#seats-error")
	if !strings.Contains(msg, fmt.Sprintf("%d", check)) || !strings.Contains(msg, cat.T(lang, "ev.check", 5, 4, cat.T(lang, "answer.red"))) {
		t.Errorf("the refusal says %q, want event %d, the sheriff's check of #4, named", msg, check)
	}
	if g, _ := site.DB.Game(ctx, id); g.Version != before.Version || g.Seats[4].Role != "sheriff" {
		t.Errorf("the refused correction changed the game: %+v", g)
	}
	// the form kept what was typed: put #5 and #6 back, swap #3 and #4
	if got := eval[string](b, `document.querySelector('select[name=role5]').value + ' ' + document.getElementById('seats-reason').value`); got != "citizen cards typed wrong" {
		t.Errorf("the refused form shows %q", got)
	}
	b.do("the right correction",
		chromedp.SetValue(chromedp.CSS(`select[name=role5]`), "sheriff"),
		chromedp.SetValue(chromedp.CSS(`select[name=role6]`), "citizen"),
		chromedp.SetValue(chromedp.CSS(`select[name=role3]`), "citizen"),
		chromedp.SetValue(chromedp.CSS(`select[name=role4]`), "mafia"))
	b.do("check it", chromedp.Click(chromedp.ID("seats-check")), chromedp.WaitVisible(chromedp.ID("seats-confirm")))
	if got, want := b.text("#seats-confirm-cards"), cat.T(lang, "seats.confirm_cards", "#3, #4"); got != want {
		t.Errorf("the confirmation says %q, want %q", got, want)
	}
	if g, _ := site.DB.Game(ctx, id); g.Version != before.Version {
		t.Error("the check step changed the game")
	}
	b.do("apply it", chromedp.Click(chromedp.ID("seats-apply")), chromedp.WaitReady("#game"))
	if got := eval[string](b, `location.pathname`); got != fmt.Sprintf("/games/%d", id) {
		t.Errorf("after the correction the browser is at %s", got)
	}
	g, _ := site.DB.Game(ctx, id)
	if g.Version != before.Version+1 || g.Seats[2].Role != "citizen" || g.Seats[3].Role != "mafia" {
		t.Errorf("after the correction: version %d, seats %+v", g.Version, g.Seats)
	}
	want := cat.T(lang, "audit.correct_seats",
		cat.T(lang, "seats.change_card", 3, cat.T(lang, "role.mafia"), cat.T(lang, "role.citizen"))+"; "+
			cat.T(lang, "seats.change_card", 4, cat.T(lang, "role.citizen"), cat.T(lang, "role.mafia")), "cards typed wrong")
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(eval[string](b, `(document.getElementById('audit') || {}).textContent || ''`), want) {
		if time.Now().After(deadline) {
			t.Fatalf("the chronology does not show %q", want)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
