package web_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// TestE2EPointsAndProtocol360 opens, on a 360x780 phone and in each language, the host page of a finished game and
// of a saved one with the roles shown, and the saved game's protocol (issue 24). The points table fits the screen
// with its last column in view, long nicknames and the items of club extras included. No word of the protocol is
// broken across lines ("голосуванн/ям"): each word (or its part up to a hyphen) of each cell lies on one line box,
// and no cell's style lets a word break anywhere.
func TestE2EPointsAndProtocol360(t *testing.T) {
	site, b := plainBrowser(t, chromedp.WindowSize(360, 780))
	ctx := context.Background()
	host := b.user(site, club.DemoHostLogin)
	games := site.Site.Services().Games
	names := []string{"Joker", "Bohdana Kovalenko", "Cyborg", "Dana", "Emil-Oleksandr", "Fantom", "Halyna", "Iris", "Jarvis", "Zoryana Petrenko"}
	start := func() int64 {
		ng := club.NewGame{Rules: "fiim-2025-club", Rated: true}
		for i, n := range names {
			ng.Seats = append(ng.Seats, club.NewSeat{Name: n, Role: tenRoles[i], Guest: true})
		}
		g, err := games.Start(ctx, host, ng)
		if err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	act := func(id int64, events ...mafia.Event) {
		st, err := games.Load(ctx, host, id)
		if err != nil {
			t.Fatal(err)
		}
		recs := make([]record.Event, len(events))
		for i, e := range events {
			recs[i] = record.Event{Event: e}
			if e.Type == mafia.EvAdjust {
				recs[i].Reason = "clear sheriff play through the whole game"
			}
		}
		if _, err := games.Act(ctx, host, id, st.Game.Version, recs); err != nil {
			t.Fatal(err)
		}
	}
	// a whole game: #3 voted out on day 1, #1 shot, #9 voted out on day 2, #10 shot, #7 voted out on day 3: red win,
	// with club extras and a correction, so that the points' items are long
	var events []mafia.Event
	speeches := func(seats ...int) {
		for _, s := range seats {
			events = append(events, mafia.Speech(s))
		}
	}
	events = append(events, mafia.Day(), mafia.Speech(1), mafia.Nominate(1, 3), mafia.Speech(2), mafia.Nominate(2, 7))
	speeches(3, 4, 5, 6, 7, 8, 9, 10)
	events = append(events, mafia.Vote(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1),
		mafia.Check(7, 5), mafia.Check(5, 9), mafia.Day(), mafia.BestMove(1, 7, 9, 10), mafia.Speech(2), mafia.Nominate(2, 9),
		mafia.Foul(4), mafia.Foul(4), mafia.Speech(4), mafia.Nominate(4, 7))
	speeches(5, 6, 7, 8, 9, 10)
	events = append(events, mafia.Vote(9, 2, 4, 5, 6, 8, 10), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 10), mafia.Check(7, 2),
		mafia.Check(5, 7), mafia.Day(), mafia.Speech(4), mafia.Speech(5), mafia.Nominate(5, 7), mafia.Speech(6), mafia.Speech(7),
		mafia.Speech(8), mafia.Speech(2), mafia.VoteRest(7), mafia.Adjust(5, 30))
	finished := start()
	act(finished, events...)
	saved := start()
	act(saved, events...)
	st, err := games.Load(ctx, host, saved)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Play.Finished() {
		t.Fatal("the game is not over")
	}
	if _, err := games.Save(ctx, host, saved, st.Game.Version, true); err != nil {
		t.Fatal(err)
	}

	b.logIn("/games/new", club.DemoHostLogin, club.DemoHostPassword)
	if _, err := chromedp.Run(b.ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	for _, l := range i18n.Languages {
		b.useLang(l)
		for _, id := range []int64{finished, saved} {
			path := fmt.Sprintf("/games/%d", id)
			b.do("open "+path, chromedp.Navigate(b.base+path), chromedp.WaitReady("#points"))
			if w := eval[int](b, `window.innerWidth`); w != 360 {
				t.Fatalf("the window is %d px wide, want 360", w)
			}
			b.do("show the roles", chromedp.Click(chromedp.ID("show-roles")))
			// The table's box lies on the screen, and the last column lies inside it as the page opens: a table that
			// scrolls sideways inside its box hides its last column from a host who does not know to swipe it (a
			// phone shows no scroll bar), which is what the host met (issue 24).
			got := eval[map[string]float64](b, `(() => {
				const t = document.getElementById('points'), box = t.getBoundingClientRect();
				const last = [...document.querySelectorAll('#points tr > :last-child')].map(c => c.getBoundingClientRect());
				return {boxLeft: box.left, boxRight: box.right, boxWidth: box.width,
					lastLeft: Math.min(...last.map(r => r.left)), lastRight: Math.max(...last.map(r => r.right)),
					lastWidth: Math.min(...last.map(r => r.width)), screen: window.innerWidth,
					page: document.documentElement.scrollWidth, scrollWidth: t.scrollWidth, clientWidth: t.clientWidth};
			})()`)
			switch {
			case got["boxWidth"] == 0:
				t.Errorf("%s in %s: the points table is not drawn with the roles shown", path, l)
			case got["boxLeft"] < -1 || got["boxRight"] > got["screen"]+1:
				t.Errorf("%s in %s: the points table's box spans %.0f-%.0f px on a %.0f px screen", path, l, got["boxLeft"], got["boxRight"], got["screen"])
			case got["scrollWidth"] > got["clientWidth"]+1 || got["lastWidth"] < 20 || got["lastRight"] > got["boxRight"]+1 || got["lastRight"] > got["screen"]+1:
				t.Errorf("%s in %s: the points table is %.0f px wide in a box of %.0f px: its last column spans %.0f-%.0f px (at least %.0f wide), the box %.0f-%.0f px",
					path, l, got["scrollWidth"], got["clientWidth"], got["lastLeft"], got["lastRight"], got["lastWidth"], got["boxLeft"], got["boxRight"])
			}
			if got["page"] > got["screen"] {
				t.Errorf("%s in %s: the page is %.0f px wide on a %.0f px screen", path, l, got["page"], got["screen"])
			}
		}
		path := fmt.Sprintf("/history/%d?view=protocol", saved)
		b.do("open "+path, chromedp.Navigate(b.base+path), chromedp.WaitReady("#protocol"))
		// every word of every cell of the protocol on one line box; the cells' styles allow no break inside a word
		broken := eval[[]string](b, `(() => {
			const out = [];
			for (const cell of document.querySelectorAll('#protocol td, #protocol th, #protocol p')) {
				const cs = getComputedStyle(cell);
				if (cs.overflowWrap === 'anywhere' || cs.overflowWrap === 'break-word' || cs.wordBreak === 'break-all' || cs.wordBreak === 'break-word') {
					out.push(cell.tagName + ' ' + JSON.stringify(cell.textContent.slice(0, 30)) + ': overflow-wrap ' + cs.overflowWrap + ', word-break ' + cs.wordBreak);
				}
				const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
				for (let n = walker.nextNode(); n; n = walker.nextNode()) {
					const re = /[^\s-]+-?/g; // a word, or the part of one up to its hyphen, where it may break
					for (let m = re.exec(n.data); m; m = re.exec(n.data)) {
						const r = document.createRange();
						r.setStart(n, m.index);
						r.setEnd(n, m.index + m[0].length);
						const tops = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
						if (tops.size > 1) out.push(JSON.stringify(m[0]) + ' is broken over ' + tops.size + ' lines');
					}
				}
			}
			return out.slice(0, 10);
		})()`)
		for _, s := range broken {
			t.Errorf("the protocol in %s: %s", l, s)
		}
	}
}
