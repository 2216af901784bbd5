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

// actAs records events on the app test's game as u, through the club's services, and tells the open pages, as
// the server's handlers do.
func (a *appTest) actAs(u *club.User, events ...mafia.Event) {
	a.t.Helper()
	svc := a.site.Site.Services()
	st, err := svc.Games.Load(context.Background(), u, a.id)
	if err != nil {
		a.t.Fatal(err)
	}
	recs := make([]record.Event, len(events))
	for i, e := range events {
		recs[i] = record.Event{Event: e}
	}
	st, err = svc.Games.Act(context.Background(), u, a.id, st.Game.Version, recs)
	if err != nil {
		a.t.Fatal(err)
	}
	a.site.Site.Live.Publish(a.id, st.Game.Version)
}

// TestE2EHostKeyNobody: on a laptop, Z is "nobody" in a vote once it is started: the vote is recorded with no
// hands, without some twenty Tab presses; before the vote is started the key does nothing.
func TestE2EHostKeyNobody(t *testing.T) {
	a := startAppTest(t)
	// day 1: #1 nominates #8, #2 nominates #6, everyone speaks; the vote is next
	day := []mafia.Event{mafia.Day()}
	for s := 1; s <= 10; s++ {
		day = append(day, mafia.Speech(s))
		if s == 1 {
			day = append(day, mafia.Nominate(1, 8))
		}
		if s == 2 {
			day = append(day, mafia.Nominate(2, 6))
		}
	}
	a.actAs(a.host, day...)
	b := a.open()
	if keys := eval[string](b.hostBrowser, `document.querySelector('.keys').textContent`); !strings.Contains(keys, "Z nobody") {
		t.Errorf("the page's list of keys %q does not name Z", keys)
	}
	v := b.version()
	b.do("key Z before the vote is started", chromedp.KeyEvent("z"))
	time.Sleep(300 * time.Millisecond)
	if got := b.version(); got != v {
		t.Fatalf("Z before the vote is started recorded something: version %d, want %d", got, v)
	}
	b.do("key N starts the vote", chromedp.KeyEvent("n"))
	b.until("the vote is started", `document.querySelector('details.voting').open`, 5*time.Second)
	b.do("key Z", chromedp.KeyEvent("z"))
	b.until("Z recorded the vote", fmt.Sprintf(`+document.getElementById('game').dataset.version === %d`, v+1), 5*time.Second)
	b.until("the vote is saved", `mafiaclubHost.pending() === 0`, 10*time.Second)
	evs := a.server().Record.Events
	last := evs[len(evs)-1]
	if last.Type != mafia.EvVote || last.Target != 8 || !last.VotersGiven || last.Voters != 0 {
		t.Errorf("Z recorded %+v, want the vote on #8 with no hands", last.Event)
	}
}

// TestE2EHostTakenOverNotice: another host takes the game over; the page of the host it was taken from, following
// the game, says who took it over, once: loaded again, it says nothing more.
func TestE2EHostTakenOverNotice(t *testing.T) {
	a := startAppTest(t)
	b := a.open()
	if !eval[bool](b.hostBrowser, `document.getElementById('taken-over').hidden`) {
		t.Fatal("the host's own game says it was taken over")
	}
	hash, _ := club.HashPassword("password-other")
	other := &club.User{Login: "other", Name: "Other host", Role: club.RoleHost, PasswordHash: hash}
	if err := a.site.DB.CreateUser(context.Background(), other); err != nil {
		t.Fatal(err)
	}
	a.actAs(other, mafia.Day())
	b.until("the page says who took the game over", `(() => { const n = document.getElementById('taken-over');
	  return !n.hidden && n.textContent.startsWith('Other host took this game over at '); })()`, 10*time.Second)
	b.do("load the page again", chromedp.Reload())
	b.ready()
	time.Sleep(300 * time.Millisecond)
	if !eval[bool](b.hostBrowser, `document.getElementById('taken-over').hidden`) {
		t.Errorf("the notice is said again: %q", eval[string](b.hostBrowser, `document.getElementById('taken-over').textContent`))
	}
}
