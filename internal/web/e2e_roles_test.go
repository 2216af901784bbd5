package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/chromedp/chromedp"

	"mafiaclub/internal/club"
	"mafiaclub/internal/i18n"
	"mafiaclub/internal/web"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// TestE2ERolesHidden plays a hand-dealt game in the browser into day 2 and reads the page as the players around
// the table can see it (document.body.innerText): with "show roles" off it names no role and no team item, in each
// of the site's languages, in the morning (the best move due) and during the day; with "show roles" on the roles,
// the points' team items and the night's shots appear. On the way it checks what the host is told to announce
// after the day-1 vote, and that the main action of the morning records the best move.
func TestE2ERolesHidden(t *testing.T) {
	site, b := plainBrowser(t)

	lang, cat := b.hostAtNewGame()
	id := b.startHandGame("fiim-2025-club", tenRoles)

	// Day 1: #1 nominates #3 (mafia), #2 nominates #7 (the don); #3 leaves 6:4.
	b.act("wake the city", "#act-day")
	b.speech(1)
	b.nominate(3)
	b.speech(2)
	b.nominate(7)
	for s := 3; s <= 10; s++ {
		b.speech(s)
	}
	b.vote(3, 1, 2, 4, 5, 6, 8)
	b.vote(7) // #9 and #10 raise no hand: with #3's and #7's own, 4 by default
	want := cat.T(lang, "announce.round", 1, cat.T(lang, "announce.count", 3, 6)+", "+cat.T(lang, "announce.count_default", 7, 4, 4)) +
		" → " + cat.T(lang, "announce.leave", 3)
	if got := b.text("#announce"); !strings.Contains(got, want) {
		t.Errorf("after the vote the page announces %q, want %q", got, want)
	}
	b.act("night", "#act-night")
	b.act("all shoot #1", "#seat-1 button[name=act][value=shoot]")
	b.act("the don checks #5", "#seat-5 button[name=act][value=check]")
	b.act("the sheriff checks #9", "#seat-9 button[name=act][value=check]")
	b.act("morning", "#act-day")

	// The morning of day 2: the best move is due and the roles are hidden.
	if main := eval[string](b, `document.querySelector('[data-key="n"]').id`); main != "act-bm" {
		t.Errorf("the main action of the morning is %q, want the best move's", main)
	}
	if b.count("#act-speech") != 0 {
		t.Error("the next-speaker button is the main action while the best move is due")
	}
	if got, want := b.text("#act-skip-bm"), cat.T(lang, "game.skip_bm", 1, 2); got != want {
		t.Errorf("the skip of the best move says %q, want %q", got, want)
	}
	for _, l := range i18n.Languages {
		b.setLang(id, l)
		b.wantNoRoles(cat, l, "the morning of day 2")
	}
	b.setLang(id, lang)
	b.tick("#bm-form", "targets", 7, 9, 10)
	b.act("best move 7 9 10", "#act-bm")
	b.speech(2)
	b.nominate(9)
	b.speech(4)
	for _, l := range i18n.Languages {
		b.setLang(id, l)
		b.wantNoRoles(cat, l, "day 2, #4 speaking")
	}
	b.setLang(id, lang)

	// Show the roles: the seats' roles, the points with their team items and the night's shots appear.
	b.do("show the roles", chromedp.Click(chromedp.ID("show-roles")))
	shown := b.visible(cat, lang)
	st, err := site.Site.Services().Games.Load(context.Background(), b.user(site, club.DemoHostLogin), id)
	if err != nil {
		t.Fatal(err)
	}
	var wants []string
	for _, r := range []mafia.Role{mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don} {
		wants = append(wants, cat.T(lang, "role."+r.String()))
	}
	team := ""
	for _, sr := range st.Play.Result().Seats {
		for _, it := range sr.Score {
			if strings.HasPrefix(it.Item.String(), "club_") {
				team = cat.T(lang, "item."+it.Item.String())
			}
		}
	}
	if team == "" {
		t.Fatal("the game has no team item to show: the test plays the wrong game")
	}
	wants = append(wants, team, cat.T(lang, "ev.shot", 7, 1), cat.T(lang, "ev.check", 5, 9, cat.T(lang, "answer.black")))
	for _, w := range wants {
		if !strings.Contains(shown, w) {
			t.Errorf("with the roles shown the page lacks %q", w)
		}
	}
	b.do("hide the roles", chromedp.Click(chromedp.ID("show-roles")))
	b.wantNoRoles(cat, lang, "the roles hidden again")
}

// TestE2EHandout: a game dealt at random starts with the handout, one step per seat with his role's gesture and a
// time limit, which the host walks through with "pass" like the other steps that record nothing; then comes the
// acquaintance.
func TestE2EHandout(t *testing.T) {
	site, b := plainBrowser(t)

	lang, cat := b.hostAtNewGame()
	b.chooseTable("fiim-2025-club", 10)
	b.do("deal at random", chromedp.Click(chromedp.CSS(`input[name=deal][value=random]`)))
	for n := 1; n <= 10; n++ {
		b.do(fmt.Sprintf("seat %d", n), chromedp.SendKeys(chromedp.CSS(fmt.Sprintf(`input[name=name%d]`, n)), fmt.Sprintf("Player %d", n)))
	}
	b.submit("start the game", "#start")
	id := eval[int64](b, `+document.getElementById('game').dataset.game`)
	st, err := site.Site.Services().Games.Load(context.Background(), b.user(site, club.DemoHostLogin), id)
	if err != nil {
		t.Fatal(err)
	}
	for s := 1; s <= 10; s++ {
		role := st.Play.Role(s)
		want := cat.T(lang, "step.handout", s, cat.T(lang, "role."+role.String()), cat.T(lang, "gesture."+mafia.RoleGesture(role).String()))
		if got := b.text("#plan .step.active .label"); got != want {
			t.Fatalf("step %d: %q, want %q", s, got, want)
		}
		if c := b.text("#clock"); c != "0:10" {
			t.Errorf("handout of #%d: clock %q, want 0:10", s, c)
		}
		b.do(fmt.Sprintf("pass the handout of #%d", s), chromedp.Click(chromedp.ID("t-pass")))
	}
	if got, want := b.text("#plan .step.active .label"), cat.T(lang, "step.acquaintance"); got != want {
		t.Errorf("after the handout: %q, want %q", got, want)
	}
}

// TestE2ENoOverflow360 opens the new-game form, a host page in the middle of day 2, the protocol of a saved game
// and its host page on a 360x780 touch phone, in each language: none is wider than the screen (nothing cut off, no
// sideways scrolling), and the host page shows no keyboard hints.
func TestE2ENoOverflow360(t *testing.T) {
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
	speeches := func(seats ...int) []mafia.Event {
		var out []mafia.Event
		for _, s := range seats {
			out = append(out, mafia.Speech(s))
		}
		return out
	}
	var day12 []mafia.Event
	day12 = append(day12, mafia.Day(), mafia.Speech(1), mafia.Nominate(1, 3), mafia.Speech(2), mafia.Nominate(2, 7))
	day12 = append(day12, speeches(3, 4, 5, 6, 7, 8, 9, 10)...)
	day12 = append(day12, mafia.Vote(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1),
		mafia.Check(7, 5), mafia.Check(5, 9), mafia.Day(), mafia.BestMove(1, 7, 9, 10), mafia.Speech(2), mafia.Nominate(2, 9),
		mafia.Foul(4), mafia.Foul(4), mafia.Speech(4), mafia.Nominate(4, 7))
	live := start()
	act(live, day12...)
	saved := start()
	act(saved, day12...)
	act(saved, speeches(5, 6, 7, 8, 9, 10)...)
	act(saved, mafia.Vote(9, 2, 4, 5, 6, 8, 10), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 10), mafia.Check(7, 2),
		mafia.Check(5, 7), mafia.Day())
	// day 3: #5 nominates #7, the single candidate, whom the whole table votes out: red win
	act(saved, mafia.Speech(4), mafia.Speech(5), mafia.Nominate(5, 7), mafia.Speech(6), mafia.Speech(7), mafia.Speech(8), mafia.Speech(2))
	act(saved, mafia.VoteRest(7), mafia.Adjust(5, 30))
	st, err := games.Load(ctx, host, saved)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Play.Finished() {
		t.Fatal("the saved game is not over")
	}
	if _, err := games.Save(ctx, host, saved, st.Game.Version, true); err != nil {
		t.Fatal(err)
	}

	b.logIn("/games/new", club.DemoHostLogin, club.DemoHostPassword)
	// a phone: 360 px, touch. Its keyboard's hints are for a keyboard, which it has not. (Headless Chromium
	// cannot be given a mouse's media features, so the laptop's side of the rule is not tested here.)
	keys := `getComputedStyle(document.querySelector('.plan .keys')).display`
	if _, err := chromedp.Run(b.ctx, chromedp.EmulateViewport(360, 780, chromedp.EmulateMobile, chromedp.EmulateTouch)); err != nil {
		t.Fatal(err)
	}
	b.do("a phone", chromedp.Navigate(fmt.Sprintf("%s/games/%d", b.base, live)), chromedp.WaitReady("#game"))
	if w := eval[int](b, `window.innerWidth`); w != 360 {
		t.Fatalf("the window is %d px wide, want 360", w)
	}
	if d := eval[string](b, keys); d != "none" {
		t.Errorf("on a touch screen the keyboard's hints are shown (display %s)", d)
	}
	for _, l := range i18n.Languages {
		b.useLang(l)
		for _, path := range []string{"/games/new", fmt.Sprintf("/games/%d", live), fmt.Sprintf("/history/%d?view=protocol", saved), fmt.Sprintf("/games/%d", saved)} {
			b.do("open "+path, chromedp.Navigate(b.base+path), chromedp.WaitReady("body"))
			if got := eval[string](b, `document.documentElement.lang`); got != l {
				t.Fatalf("%s in %s: the page is in %s", path, l, got)
			}
			sizes := eval[[]int](b, `[document.documentElement.scrollWidth, window.innerWidth]`)
			if sizes[0] > sizes[1] {
				wide := eval[[]string](b, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
					.slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + String(e.className).replace(/ /g, '.') : '') + ' ' + Math.round(e.getBoundingClientRect().right))`)
				t.Errorf("%s in %s: %d px wide on a %d px screen; past the edge: %v", path, l, sizes[0], sizes[1], wide)
			}
		}
	}
}

// chooseTable picks the rule set and the player count on the new-game page (the form reloads itself on each).
func (b *hostBrowser) chooseTable(rules string, n int) {
	b.t.Helper()
	b.submitWith("choose the rule set", func() {
		b.do("choose the rule set", chromedp.SetValue(chromedp.CSS(`select[name=rules]`), rules))
	})
	b.submitWith("choose the player count", func() {
		b.do("choose the player count", chromedp.SetValue(chromedp.CSS(`select[name=n]`), fmt.Sprint(n)))
	})
}

// plainBrowser starts the site (without the engine in the browser: the pages work by plain form posts) and a
// browser with one tab watched for errors, stopped after 90 s at most; the checks run when the test ends.
func plainBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) (*e2eSite, *hostBrowser) {
	t.Helper()
	needBrowser(t)
	site := startSite(t, time.UTC, nil)
	t.Cleanup(func() { site.checkLog(t) })
	bctx, bcancel := startBrowser(t, extra...)
	t.Cleanup(bcancel)
	deadline := time.AfterFunc(90*time.Second, bcancel)
	t.Cleanup(func() { deadline.Stop() })
	b := &hostBrowser{t: t, ctx: bctx, base: site.URL}
	b.watch()
	t.Cleanup(b.report)
	return site, b
}

// startHandGame fills in the new-game form: the rule set, ten players, the roles entered by hand; it returns the
// game's id.
func (b *hostBrowser) startHandGame(rules string, roles []string) int64 {
	b.t.Helper()
	b.chooseTable(rules, len(roles))
	b.do("deal by hand", chromedp.Click(chromedp.CSS(`input[name=deal][value=hand]`)))
	for i, r := range roles {
		n := i + 1
		b.do(fmt.Sprintf("seat %d", n),
			chromedp.SendKeys(chromedp.CSS(fmt.Sprintf(`input[name=name%d]`, n)), fmt.Sprintf("Player %d", n)),
			chromedp.SetValue(chromedp.CSS(fmt.Sprintf(`select[name=role%d]`, n)), r))
	}
	b.submit("start the game", "#start")
	id := eval[int64](b, `+document.getElementById('game').dataset.game`)
	if id <= 0 {
		b.t.Fatalf("no game page after the start (at %s)", eval[string](b, `location.pathname`))
	}
	return id
}

// setLang chooses the site's language (as the menu's language buttons do) and shows the game's page in it.
func (b *hostBrowser) setLang(id int64, lang string) {
	b.t.Helper()
	b.useLang(lang)
	b.do("the page in "+lang, chromedp.Navigate(fmt.Sprintf("%s/games/%d", b.base, id)), chromedp.WaitReady("#game"))
	if got := eval[string](b, `document.documentElement.lang`); got != lang {
		b.t.Fatalf("the page is in %s, want %s", got, lang)
	}
}

// useLang chooses the site's language, as the menu's language buttons do.
func (b *hostBrowser) useLang(lang string) {
	b.t.Helper()
	status := evalAsync[int](b, fmt.Sprintf(`fetch('/lang', {method: 'POST', headers: {'Content-Type': 'application/x-www-form-urlencoded'},
		body: 'lang=%s&next=/', redirect: 'manual'}).then(r => r.status)`, lang))
	if status != 0 && status != 303 && status != 200 {
		b.t.Fatalf("choosing %s: HTTP %d", lang, status)
	}
}

// visible is the page's text as the eye sees it (hidden elements left out), without the site's name in the header
// (the brand, "Mafia club", is no role).
func (b *hostBrowser) visible(cat web.Catalog, lang string) string {
	b.t.Helper()
	return strings.ReplaceAll(eval[string](b, `document.body.innerText`), cat.T(lang, "site.name"), "")
}

// wantNoRoles fails the test if the page's visible text names a role or a team (as a word) or a team item.
func (b *hostBrowser) wantNoRoles(cat web.Catalog, lang, when string) {
	b.t.Helper()
	text := b.visible(cat, lang)
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) {
		words[w] = true
	}
	for _, r := range []mafia.Role{mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don, mafia.Commissar, mafia.Doctor} {
		if w := strings.ToLower(cat.T(lang, "role."+r.String())); words[w] {
			b.t.Errorf("%s (%s): the page shows the role %q with the roles hidden", when, lang, w)
		}
	}
	for _, a := range []mafia.Answer{mafia.AnswerRed, mafia.AnswerBlack} {
		if w := strings.ToLower(cat.T(lang, "answer."+a.String())); words[w] {
			b.t.Errorf("%s (%s): the page shows the team word %q with the roles hidden", when, lang, w)
		}
	}
	for _, it := range mafia.Items() {
		if s := cat.T(lang, "item."+it.String()); strings.Contains(it.String(), "club_") || strings.Contains(it.String(), "best_move") ||
			strings.Contains(it.String(), "don_found") {
			if strings.Contains(text, s) {
				b.t.Errorf("%s (%s): the page shows the team item %q with the roles hidden", when, lang, s)
			}
		}
	}
	if b.t.Failed() {
		b.t.Logf("the visible text:\n%s", text)
	}
}

// user returns the account with the login.
func (b *hostBrowser) user(site *e2eSite, login string) *club.User {
	b.t.Helper()
	u, err := site.DB.UserByLogin(context.Background(), login)
	if err != nil {
		b.t.Fatal(err)
	}
	return u
}
