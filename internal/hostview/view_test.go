package hostview

import (
	"encoding/json"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// catalog reads the site's catalogues (internal/web/i18n), as the server and the browser's engine load them.
func catalog(t *testing.T) i18n.Catalog {
	t.Helper()
	c, err := i18n.Load(os.DirFS(filepath.Join("..", "web", "i18n")))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var tenRoles = []mafia.Role{mafia.Citizen, mafia.Citizen, mafia.Mafia, mafia.Citizen, mafia.Sheriff, mafia.Citizen, mafia.Don,
	mafia.Citizen, mafia.Mafia, mafia.Citizen}

// game builds a record of the rule set with the roles and events, and its state as the host page reads it.
func game(t *testing.T, rules string, roles []mafia.Role, events ...mafia.Event) *State {
	t.Helper()
	return gameWith(t, rules, nil, roles, events...)
}

// gameWith is game with options.
func gameWith(t *testing.T, rules string, options map[string]json.RawMessage, roles []mafia.Role, events ...mafia.Event) *State {
	t.Helper()
	seats := make([]record.Seat, len(roles))
	for i, r := range roles {
		seats[i] = record.Seat{Seat: i + 1, Role: r, Name: "P" + strconv.Itoa(i+1)}
	}
	evs := make([]record.Event, len(events))
	for i, e := range events {
		evs[i] = record.Event{Event: e}
	}
	rec, err := record.Build(rules, options, seats, evs)
	if err != nil {
		t.Fatal(err)
	}
	play, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	return &State{In: Input{Game: 1, Live: true, Lang: "en"}, Record: rec, Play: play}
}

func speeches(from, to int) []mafia.Event {
	var out []mafia.Event
	for s := from; s <= to; s++ {
		out = append(out, mafia.Speech(s))
	}
	return out
}

func join(parts ...any) []mafia.Event {
	var out []mafia.Event
	for _, p := range parts {
		switch x := p.(type) {
		case mafia.Event:
			out = append(out, x)
		case []mafia.Event:
			out = append(out, x...)
		}
	}
	return out
}

// hands is a vote as the host's form records it: the hands he ticked, given (an empty list included).
func hands(target int, voters ...int) mafia.Event { return mafia.Vote(target, voters...) }

// TestChronologyCountsAreTheEngines: every vote line of the chronology states the count the engine gave the
// candidate (the protocol's count), including the default votes the last candidate gets (R26) whether the host
// ticked some hands on him or none, and a single candidate's vote, which the engine counts as the whole table.
// Before, the single candidate's line said "Against #9: 0" where the protocol said "#9: 8".
func TestChronologyCountsAreTheEngines(t *testing.T) {
	events := join(
		mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2), mafia.Nominate(2, 7), speeches(3, 10),
		hands(3, 1, 2, 4, 5, 6), hands(7, 8), // 5:5, the rest (3, 7, 9, 10) with #8's hand go to #7
		hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), // 6:4, the rest left out of the record: #3 leaves
		mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Day(),
		speeches(2, 2), mafia.Nominate(2, 9), speeches(4, 10),
		hands(9), // the single candidate, no hand ticked: the whole table, 8
	)
	st := game(t, "fiim-2025-club", tenRoles, events...)
	cat := catalog(t)
	for _, lang := range i18n.Languages {
		var engine []string
		for _, d := range st.Play.Result().Days {
			for _, r := range d.Rounds {
				for _, c := range r.Counts {
					engine = append(engine, fmt.Sprintf("#%d: %d", c.Seat, c.Votes))
				}
			}
		}
		if want := []string{"#3: 5", "#7: 5", "#3: 6", "#7: 4", "#9: 8"}; !slices.Equal(engine, want) {
			t.Fatalf("the engine counts %q, want %q", engine, want)
		}
		// the vote lines of the chronology, read back through the catalogue's own format
		format := regexp.QuoteMeta(cat.T(lang, "ev.vote", 1111, 2222, "@@"))
		format = regexp.MustCompile(`1111|2222|@@`).ReplaceAllStringFunc(format, func(s string) string {
			return map[string]string{"1111": `(\d+)`, "2222": `(\d+)`, "@@": `.*`}[s]
		})
		re := regexp.MustCompile(format + `$`)
		var shown []string
		for _, line := range Chronology(cat, lang, st.Record, nil) {
			if m := re.FindStringSubmatch(line.Text); m != nil {
				shown = append(shown, fmt.Sprintf("#%s: %s", m[1], m[2]))
			}
		}
		if !slices.Equal(shown, engine) {
			t.Errorf("%s: the chronology says %q, the engine (and the protocol) %q", lang, shown, engine)
		}
	}
}

// TestAnnounceC36: in X-Craft a disqualification after the last speech began, with a single candidate, is worded
// as the engine settled it (C-36): not known yet, the list proved open (today's vote cancelled), closed (the next
// day's), or the candidate himself left. Before, the view guessed from the record and called an open list's
// cancellation a plain one, and the candidate's leaving "nobody was nominated".
func TestAnnounceC36(t *testing.T) {
	cat := catalog(t)
	T := func(key string, args ...any) string { return cat.T("en", key, args...) }
	day2 := join(mafia.Day(), speeches(1, 10), mafia.Night(), mafia.Shot(3, 1), mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Day())
	single := join(day2, speeches(2, 2), mafia.Nominate(2, 9), speeches(3, 10)) // #9 alone, #10 speaks last
	dq4 := "#4 — " + T("out.disqualified", T("phase.day", 2))
	for _, c := range []struct {
		name   string
		events []mafia.Event
		want   []string
	}{
		{"not known yet", join(single, mafia.Disqualify(4)), []string{T("announce.list_unsure", dq4)}},
		{"the list was open", join(single, mafia.Disqualify(4), mafia.Nominate(10, 5)), []string{T("announce.cancelled_list_open", dq4)}},
		{"the list was closed: the next day", join(single, mafia.Disqualify(4), hands(9), mafia.Night(), mafia.Day()),
			[]string{T("announce.cancelled_list_closed", dq4)}},
		{"the candidate himself left", join(day2, speeches(2, 10), mafia.Nominate(10, 9), mafia.Disqualify(9)),
			[]string{T("announce.candidate_left", 9)}},
	} {
		t.Run(c.name, func(t *testing.T) { wantAnnounce(t, "fiim-xcraft", c.events, c.want) })
	}
	if got := T("announce.cancelled_list_open", dq4); strings.Contains(got, "by a disqualification") || !strings.Contains(got, "before the list of candidates closed") {
		t.Errorf("the open list's cancellation reads %q", got)
	}
}

// build draws the view of a state in English, with the host page's HTML.
func build(t *testing.T, st *State) (*View, string) {
	t.Helper()
	v := Build(st, catalog(t), func() string { return "k" })
	var b strings.Builder
	if err := Render(&b, v); err != nil {
		t.Fatal(err)
	}
	return v, b.String()
}

var day1Tie = join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2), mafia.Nominate(2, 7), speeches(3, 10),
	hands(3, 1, 2, 4, 5, 6), hands(7, 8)) // 5:5, #7's five: #8's hand and the default votes of 3, 7, 9, 10

// TestAnnounce: after every voting round the page says what the host announces: the counts per candidate (with
// the default votes the last one got, and a single candidate's whole table), and what the engine decided; why
// there is no vote today.
func TestAnnounce(t *testing.T) {
	cat := catalog(t)
	T := func(key string, args ...any) string { return cat.T("en", key, args...) }
	round := func(n int, counts, outcome string) string {
		return T("announce.round", n, counts) + " → " + outcome
	}
	tie := T("announce.count", 3, 5) + ", " + T("announce.count_default", 7, 5, 4)
	day2 := join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1),
		mafia.Day(), speeches(2, 2), mafia.Nominate(2, 9), speeches(4, 10))
	lift := gameWith(t, "fiim-2025-club", map[string]json.RawMessage{"day1_lift_only": json.RawMessage("true")}, tenRoles,
		join(day1Tie[:len(day1Tie)-2], hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7))...)
	if v, _ := build(t, lift); !slices.Equal(v.Announce, []string{round(1, T("announce.count", 3, 6)+", "+T("announce.count_default", 7, 4, 4),
		T("announce.lift_one", 3))}) {
		t.Errorf("day1_lift_only, #3 alone ahead: %q", v.Announce)
	}
	for _, c := range []struct {
		name   string
		events []mafia.Event
		want   []string
	}{
		{"a tie: tie speeches and a re-vote", day1Tie,
			[]string{round(1, tie, T("announce.revote", "#3, #7", 30))}},
		{"the re-vote: #3 leaves", join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7)), []string{
			round(1, tie, T("announce.revote", "#3, #7", 30)),
			round(2, T("announce.count", 3, 6)+", "+T("announce.count_default", 7, 4, 4), T("announce.leave", 3))}},
		{"the same tie again, then the lift vote", join(day1Tie, hands(3, 1, 2, 4, 5, 6), mafia.VoteRest(7), mafia.Lift(1, 2)), []string{
			round(1, tie, T("announce.revote", "#3, #7", 30)),
			round(2, T("announce.count", 3, 5)+", "+T("announce.count_default", 7, 5, 5), T("announce.lift_due", "#3, #7")),
			cat.N("en", "announce.lift.n", 2) + " → " + T("announce.stay")}},
		{"a single candidate gets the whole table", join(day2, hands(9)), []string{
			round(1, T("announce.single", 9, 8), T("announce.leave", 9))}},
		{"a disqualification cancels today's vote", join(day2, mafia.Disqualify(4)), []string{
			T("announce.cancelled", "#4 — "+T("out.disqualified", T("phase.day", 2)))}},
		{"nobody nominated", join(mafia.Day(), speeches(1, 10)), []string{T("announce.no_candidates")}},
		{"a single candidate on day 1", join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 10)),
			[]string{T("announce.single_day1")}},
		{"speeches still going", join(mafia.Day(), speeches(1, 3)), nil},
	} {
		t.Run(c.name, func(t *testing.T) { wantAnnounce(t, "fiim-2025-club", c.events, c.want) })
	}
}

// TestRolesSecret: while the game goes on, whatever reveals a role or a team carries the class the page hides
// unless the host shows the roles: the points (every seat's role, items such as "voted against a black"), the
// night's shots and checks in the chronology, the audit. Once the game is over nothing is hidden.
func TestRolesSecret(t *testing.T) {
	cat := catalog(t)
	events := join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1),
		mafia.Check(7, 5), mafia.Check(5, 9), mafia.Day())
	st := game(t, "fiim-2025-club", tenRoles, events...)
	st.In.Audit = []string{"undo: " + cat.T("en", "ev.shot", 7, 2)}
	v, page := build(t, st)
	if !v.Secret {
		t.Fatal("day 2 of a game under way: the view is not secret")
	}
	for _, want := range []string{`<section class="points secret"`, `<div class="secret"><h3>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %s", want)
		}
	}
	secret := 0
	for _, line := range v.Chrono {
		night := strings.Contains(line.Text, " shot #") || strings.Contains(line.Text, " checked #")
		if night != line.Secret {
			t.Errorf("%q: secret %v", line.Text, line.Secret)
		}
		if line.Secret {
			secret++
			if !strings.Contains(page, `<li class="secret">`+template.HTMLEscapeString(line.Text)+`</li>`) {
				t.Errorf("the page shows %q without hiding it", line.Text)
			}
		}
	}
	if secret != 4 { // two shots, two checks
		t.Errorf("%d secret lines in the chronology, want 4", secret)
	}
	// the rest of the day's page names no role and no team item outside the hidden parts
	visible := regexp.MustCompile(`(?s)<(section|div|li|span) class="[^"]*secret[^"]*".*?</(section|div|li|span)>`).ReplaceAllString(page, "")
	visible = regexp.MustCompile(`(?s)<div class="role[^"]*">.*?</div>`).ReplaceAllString(visible, "") // hidden by the seat's CSS
	for _, key := range []string{"role.citizen", "role.sheriff", "role.mafia", "role.don", "item.club_red_votes_black", "item.club_black_votes_black", "answer.black"} {
		if w := cat.T("en", key); regexp.MustCompile(`\b` + w + `\b`).MatchString(visible) {
			t.Errorf("the page shows %q (%s) outside the hidden parts", w, key)
		}
	}
	// the end: everything is shown
	end := game(t, "fiim-2025-club", tenRoles, join(events, mafia.TeamLoss(7))...)
	v, page = build(t, end)
	if v.Secret || strings.Contains(page, "secret") {
		t.Error("a finished game still hides something")
	}
}

// TestHandout: a game dealt at random on the server starts with the handout, seat by seat, each with his role's
// gesture (000 L69), as steps the host walks through (no event); a game dealt with real cards does not, nor does
// anything after night 1.
func TestHandout(t *testing.T) {
	cat := catalog(t)
	st := game(t, "fiim-2025-club", tenRoles)
	st.In.Dealt = true
	v, page := build(t, st)
	if len(v.Steps) != 10+5 { // the handout, then the acquaintance, the don, the sheriff, free seating, the morning
		t.Fatalf("%d steps, want the 10 handouts and the night's 5", len(v.Steps))
	}
	for i, s := range v.Steps[:10] {
		role := tenRoles[i]
		want := cat.T("en", "step.handout", i+1, cat.T("en", "role."+role.String()), cat.T("en", "gesture."+mafia.RoleGesture(role).String()))
		if s.Label != want || s.Event != "" || s.Limit == 0 || s.Current != (i == 0) {
			t.Errorf("step %d: %+v, want %q, no event, a time limit, current only for the first", i+1, s, want)
		}
	}
	if v.Steps[10].Current || !strings.Contains(page, template.HTMLEscapeString(v.Steps[0].Label)) {
		t.Error("the acquaintance is current, or the first handout is not on the page")
	}
	st.In.Dealt = false
	if v, _ := build(t, st); len(v.Steps) != 5 {
		t.Errorf("dealt with real cards: %d steps, want the night's 5", len(v.Steps))
	}
	day := game(t, "fiim-2025-club", tenRoles, mafia.Day())
	day.In.Dealt = true
	if v, _ := build(t, day); strings.Contains(v.Steps[0].Key, "handout") {
		t.Error("the handout is still shown on day 1")
	}
}

// TestBestMoveNotLostByTap: while the best move is due, the main action (data-key="n", the big button) records it;
// calling the next speaker, which ends the morning and the best move with it, is a separate secondary button that
// asks first. Once the best move is made the next speaker is the main action again.
func TestBestMoveNotLostByTap(t *testing.T) {
	cat := catalog(t)
	morning := join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Day())
	v, page := build(t, game(t, "fiim-2025-club", tenRoles, morning...))
	main := regexp.MustCompile(`<button[^>]*data-key="n"[^>]*>`).FindAllString(page, -1)
	if len(main) != 1 || !strings.Contains(main[0], `id="act-bm"`) {
		t.Errorf("the main actions %q, want only the best move's", main)
	}
	if strings.Contains(page, `id="act-speech"`) {
		t.Error("the next-speaker button is the main action while the best move is due")
	}
	skip := regexp.MustCompile(`<form[^>]*data-confirm="([^"]*)"[^>]*>(?:<input[^>]*>)*<button class="secondary" id="act-skip-bm">([^<]*)</button>`).FindStringSubmatch(page)
	if skip == nil || v.SkipBM != 2 {
		t.Fatalf("no explicit skip of the best move (SkipBM %d)", v.SkipBM)
	}
	if want := cat.T("en", "game.skip_bm", 1, 2); template.HTMLEscapeString(want) != skip[2] {
		t.Errorf("the skip button says %q, want %q", skip[2], want)
	}
	if want := cat.T("en", "game.skip_bm_confirm", 1); template.HTMLEscapeString(want) != skip[1] {
		t.Errorf("the skip asks %q, want %q", skip[1], want)
	}
	_, page = build(t, game(t, "fiim-2025-club", tenRoles, join(morning, mafia.BestMove(1, 7, 9, 10))...))
	if !regexp.MustCompile(`<button class="primary big main" id="act-speech" data-key="n">`).MatchString(page) || strings.Contains(page, "act-skip-bm") {
		t.Error("after the best move the next speaker is not the main action")
	}
	// X-Craft: the best move inside the last word, the same protection
	_, page = build(t, game(t, "fiim-xcraft", tenRoles, morning...))
	if strings.Contains(page, `id="act-speech"`) || !strings.Contains(page, `id="act-bm" data-key="n"`) {
		t.Error("X-Craft: the best move inside the last word is not the main action")
	}
}

// TestSecondShot: a black player's second shot in one night is never a silent miss: the single-shot form offers
// only those who have not shot, a second shot is a separate choice that asks first, and once recorded the page
// says the shot is a miss (R43), at night and (hidden with the roles) in the morning.
func TestSecondShot(t *testing.T) {
	cat := catalog(t)
	night := join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1))
	v, page := build(t, game(t, "fiim-2025-club", tenRoles, night...))
	if !slices.Equal(v.Shooters, []int{9}) || len(v.Shots) != 1 || v.Shots[0] != (ShotView{By: 7, Target: 1}) {
		t.Errorf("shooters %v, shots %+v; want #9 left, #7 at #1", v.Shooters, v.Shots)
	}
	if !strings.Contains(page, `<select name="by"><option value="9">9</option></select>`) {
		t.Error("the single-shot form offers a black who has shot")
	}
	if !strings.Contains(page, `data-confirm="`+template.HTMLEscapeString(cat.T("en", "game.shot_again_confirm"))+`"`) {
		t.Error("a second shot does not ask first")
	}
	v, page = build(t, game(t, "fiim-2025-club", tenRoles, join(night, mafia.Shot(9, 1), mafia.Shot(7, 2))...))
	if len(v.Shooters) != 0 || !v.Shots[0].Twice || v.Shots[0].Target != 2 {
		t.Errorf("shooters %v, shots %+v; want nobody left, #7 twice, at #2 last", v.Shooters, v.Shots)
	}
	if !strings.Contains(page, template.HTMLEscapeString(cat.T("en", "game.shot_twice", 7))) {
		t.Error("the night does not say #7's second shot makes a miss")
	}
	if strings.Contains(page, `value="shoot"`) {
		t.Error(`"all at" is offered with nobody left to shoot`)
	}
	v, page = build(t, game(t, "fiim-2025-club", tenRoles, join(night, mafia.Shot(9, 1), mafia.Shot(7, 2), mafia.Day())...))
	if v.Morning != cat.T("en", "game.miss", 2) || v.MorningWhy != cat.T("en", "game.miss_twice", 7) {
		t.Errorf("the morning %q %q", v.Morning, v.MorningWhy)
	}
	if !strings.Contains(page, `<span class="secret">`+template.HTMLEscapeString(v.MorningWhy)+`</span>`) {
		t.Error("the morning names the black who shot twice without hiding it")
	}
}

// TestSummaryAboveTable: once the game is over, its result and the save buttons come before the ten seat cards,
// so that the host reaches them without scrolling past the table.
func TestSummaryAboveTable(t *testing.T) {
	_, page := build(t, game(t, "fiim-2025-club", tenRoles, mafia.Day(), mafia.TeamLoss(3)))
	summary, save, seats := strings.Index(page, `id="summary"`), strings.Index(page, `id="save-rated"`), strings.Index(page, `id="seats"`)
	if summary < 0 || save < 0 || seats < 0 || summary > seats || save > seats {
		t.Errorf("summary at %d, save at %d, the seats at %d: want the summary and the save before the seats", summary, save, seats)
	}
}

// TestUndoBoxSecret: the undo box names the last event; a night action (a shot, a check) is inside an element the
// page hides unless the host shows the roles, and nothing of it is left outside; a public event is shown plainly.
func TestUndoBoxSecret(t *testing.T) {
	cat := catalog(t)
	undoBox := regexp.MustCompile(`(?s)<details class="panel" id="undo">.*?</details>`)
	hidden := regexp.MustCompile(`(?s)<(section|div|li|span) class="[^"]*secret[^"]*".*?</(section|div|li|span)>`)
	night := join(day1Tie, hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 5))
	for _, events := range [][]mafia.Event{night, join(night, mafia.Shot(9, 5), mafia.Check(7, 5))} {
		v, page := build(t, game(t, "fiim-2025-club", tenRoles, events...))
		box := undoBox.FindString(page)
		last := template.HTMLEscapeString(v.LastEvent)
		if !v.LastSecret || !strings.Contains(box, `<span class="secret">`+last+`</span>`) {
			t.Errorf("the undo box shows %q outside a secret element: %s", v.LastEvent, box)
		}
		if strings.Contains(hidden.ReplaceAllString(box, ""), last) {
			t.Errorf("the undo box still shows %q once the secret parts are hidden", v.LastEvent)
		}
		if want := template.HTMLEscapeString(cat.T("en", "game.undo_confirm", "")); !strings.Contains(box, want) {
			t.Errorf("the undo box does not ask %q: %s", want, box)
		}
	}
	v, page := build(t, game(t, "fiim-2025-club", tenRoles, join(night, mafia.Shot(9, 5), mafia.Day())...))
	want := template.HTMLEscapeString(cat.T("en", "game.undo_confirm", v.LastEvent))
	if v.LastSecret || !strings.Contains(undoBox.FindString(page), "<p>"+want+"</p>") {
		t.Errorf("the morning's undo box does not show %q plainly", v.LastEvent)
	}
}

// TestAdjustSecret: a correction of points during the game is hidden in the chronology with the roles, as the
// points table is (points tell the teams apart, and the public view hides it too); once the game is over it shows.
func TestAdjustSecret(t *testing.T) {
	st := game(t, "fiim-2025-club", tenRoles, mafia.Day(), mafia.Speech(1), mafia.Event{Type: mafia.EvAdjust, Seat: 3, Points: -30}, mafia.Speech(2))
	v, page := build(t, st)
	line := v.Chrono[2]
	if !strings.Contains(line.Text, "#3") || !line.Secret {
		t.Fatalf("the adjustment's line %+v is not secret", line)
	}
	if !strings.Contains(page, `<li class="secret">`+template.HTMLEscapeString(line.Text)+`</li>`) {
		t.Errorf("the page shows %q without hiding it", line.Text)
	}
	if v.Chrono[1].Secret || v.Chrono[3].Secret {
		t.Error("a speech is hidden")
	}
	end := game(t, "fiim-2025-club", tenRoles, mafia.Day(), mafia.Speech(1), mafia.Event{Type: mafia.EvAdjust, Seat: 3, Points: -30}, mafia.TeamLoss(7))
	if v, _ := build(t, end); v.Chrono[2].Secret {
		t.Error("the finished game still hides the adjustment")
	}
}

// TestAdjustSteps: the corrections of points the club's rules allow are offered with a sign ("+0.3"), their
// values written as the record writes points, so that the form reads each back to its hundredths; a whole
// number is "1", not "1.".
func TestAdjustSteps(t *testing.T) {
	st := game(t, "fiim-2025-club", tenRoles, mafia.Day(), mafia.Speech(1))
	v, page := build(t, st)
	want := []AdjustStep{{"0.1", "+0.1"}, {"0.3", "+0.3"}, {"0.5", "+0.5"}, {"-0.1", "-0.1"}, {"-0.3", "-0.3"}, {"-0.5", "-0.5"}}
	if !slices.Equal(v.Adjust, want) {
		t.Errorf("the steps %q, want %q", v.Adjust, want)
	}
	for i, h := range st.Play.Rules().AdjustSteps() {
		label := strings.ReplaceAll(want[i].Label, "+", "&#43;") // as html/template writes it
		if !strings.Contains(page, `<option value="`+want[i].Value+`">`+label+`</option>`) {
			t.Errorf("the page does not offer %+v", want[i])
		}
		got, err := EventsFromForm(form("type", "adjust", "seat", "3", "points", v.Adjust[i].Value), st.Play)
		if err != nil || int(got[0].Points) != h {
			t.Errorf("%q reads back as %+v (%v), want %d", v.Adjust[i].Value, got, err, h)
		}
	}
	for h, want := range map[int]AdjustStep{100: {"1", "+1"}, -100: {"-1", "-1"}, 150: {"1.5", "+1.5"}, 5: {"0.05", "+0.05"}} {
		s := adjustStep("en", h)
		if s != want {
			t.Errorf("%d: %+v, want %+v", h, s, want)
		}
		if got, err := EventsFromForm(form("type", "adjust", "seat", "3", "points", s.Value), st.Play); err != nil || int(got[0].Points) != h {
			t.Errorf("%q reads back as %+v (%v), want %d", s.Value, got, err, h)
		}
		// in Ukrainian and Russian the label has the decimal comma, the value (which the server reads) the point
		for _, lang := range []string{"uk", "ru"} {
			if s := adjustStep(lang, h); s.Value != want.Value || s.Label != strings.Replace(want.Label, ".", ",", 1) {
				t.Errorf("%s, %d: %+v, want the value %q and the label with a comma", lang, h, s, want.Value)
			}
		}
	}
}

// wantAnnounce checks what the page tells the host to announce after the events, in the view and on the page.
func wantAnnounce(t *testing.T, rules string, events []mafia.Event, want []string) {
	t.Helper()
	v, page := build(t, game(t, rules, tenRoles, events...))
	if !slices.Equal(v.Announce, want) {
		t.Errorf("announce\n%q\nwant\n%q", v.Announce, want)
	}
	for _, line := range want {
		if !strings.Contains(page, template.HTMLEscapeString(line)) {
			t.Errorf("the page does not show %q", line)
		}
	}
}

// TestNominationButtonsStay: through the day's speeches, every seat in the game keeps its nomination button;
// once the speaker has nominated they are greyed (disabled, with no idempotency key to send), in the page as the
// server draws it for a browser without script too, and lit again for the next speaker. They are there, greyed,
// from the morning (the first speech is in the plan); at night and in the vote the cards have none.
func TestNominationButtonsStay(t *testing.T) {
	buttons := regexp.MustCompile(`<input type="hidden" name="key" value="([^"]*)"><input type="hidden" name="type" value="nominate">(?:<input[^>]*>)*<button class="seat-main" name="act" value="nominate"( disabled)?>`)
	count := func(page string) (all, grey int) {
		for _, m := range buttons.FindAllStringSubmatch(page, -1) {
			all++
			if m[2] != "" {
				grey++
				if m[1] != "" {
					t.Errorf("a greyed nomination button carries the key %q", m[1])
				}
			} else if m[1] == "" {
				t.Error("a nomination button without a key")
			}
		}
		return all, grey
	}
	for _, c := range []struct {
		what      string
		events    []mafia.Event
		all, grey int
	}{
		{"the night", join(), 0, 0},
		{"the morning, before the first speech", join(mafia.Day()), 10, 10},
		{"#1 speaks", join(mafia.Day(), speeches(1, 1)), 10, 0},
		{"#1 has nominated #3", join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3)), 10, 10},
		{"#2 speaks: all but the nominated #3", join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2)), 10, 1},
		{"#10, the last, speaks", join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2), mafia.Nominate(2, 7), speeches(3, 10)), 10, 2},
		{"the vote", join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2), mafia.Nominate(2, 7), speeches(3, 10), hands(3, 1, 2, 4, 5, 6)), 0, 0},
	} {
		_, page := build(t, game(t, "fiim-2025-club", tenRoles, c.events...))
		if all, grey := count(page); all != c.all || grey != c.grey {
			t.Errorf("%s: %d nomination buttons, %d greyed; want %d and %d", c.what, all, grey, c.all, c.grey)
		}
	}
}

// TestPageDrawnForms: the page the host page's engine draws has the forms of actions and the undo without a key
// or a version (the page sends its own), so that a form the action did not change stays the same node; the
// server's page has both in every one it offers (here no button is greyed), and the forms the page leaves to the
// server (saving) keep the version.
func TestPageDrawnForms(t *testing.T) {
	form := regexp.MustCompile(`<form method="post" action="/games/1/([a-z-]+)"[^>]*>\s*(?:<input type="hidden" name="version" value="([^"]*)"><input type="hidden" name="key" value="([^"]*)">)?`)
	forms := func(page string) (acts, keyed, versioned, saves int) {
		for _, m := range form.FindAllStringSubmatch(page, -1) {
			switch m[1] {
			case "act", "undo":
				acts++
				if m[3] != "" {
					keyed++
				}
				if m[2] != "" {
					versioned++
				}
			case "save":
				if m[2] == "" {
					t.Errorf("a save form without the game's version")
				}
				saves++
			}
		}
		return
	}
	day := join(mafia.Day(), speeches(1, 1))
	end := join(mafia.Day(), speeches(1, 1), mafia.TeamLoss(7)) // the black team loses: the game is over, to be saved
	for _, c := range []struct {
		what   string
		events []mafia.Event
	}{{"a day", day}, {"the end", end}} {
		st := game(t, "fiim-2025-club", tenRoles, c.events...)
		_, server := build(t, st)
		st.In.Page = true
		_, page := build(t, st)
		acts, keyed, versioned, saves := forms(server)
		if acts < 2 || keyed != acts || versioned != acts {
			t.Errorf("%s, the server's page: %d forms of actions, %d with a key, %d with a version", c.what, acts, keyed, versioned)
		}
		pActs, pKeyed, pVersioned, pSaves := forms(page)
		if pActs != acts || pKeyed != 0 || pVersioned != 0 || pSaves != saves {
			t.Errorf("%s, the page's engine: %d forms of actions (server %d), %d with a key, %d with a version, %d saves (server %d)",
				c.what, pActs, acts, pKeyed, pVersioned, pSaves, saves)
		}
		if c.what == "the end" && saves != 2 {
			t.Errorf("the end: %d save forms, want 2 (rated and normal)", saves)
		}
	}
}

// TestPlanAfterTheEnd: once the game is over the plan shows what is left to do (the best move if it is due, the
// points, the save), never a speech: before, the engine's last word of the player voted out last stayed in the plan,
// the current step, until the save, since nothing records a last word after the end (issue 24).
func TestPlanAfterTheEnd(t *testing.T) {
	cat := catalog(t)
	// day 3: #7, the last black, is voted out: red win, and the engine still lists his last word
	events := join(mafia.Day(), mafia.Speech(1), mafia.Nominate(1, 3), mafia.Speech(2), mafia.Nominate(2, 7), speeches(3, 10),
		hands(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 1), mafia.Shot(9, 1), mafia.Check(7, 5),
		mafia.Check(5, 9), mafia.Day(), mafia.BestMove(1, 7, 9, 10), mafia.Speech(2), mafia.Nominate(2, 9), mafia.Speech(4), mafia.Nominate(4, 7),
		speeches(5, 10), hands(9, 2, 4, 5, 6, 8, 10), mafia.VoteRest(7), mafia.Night(), mafia.Shot(7, 10), mafia.Check(7, 2), mafia.Check(5, 7),
		mafia.Day(), mafia.Speech(4), mafia.Speech(5), mafia.Nominate(5, 7), mafia.Speech(6), mafia.Speech(7), mafia.Speech(8),
		mafia.Speech(2), mafia.VoteRest(7))
	st := game(t, "fiim-2025-club", tenRoles, events...)
	if !st.Play.Finished() {
		t.Fatal("the game is not over")
	}
	engine := st.Play.Next()
	if p := engine.Plan(); len(p) == 0 || p[0].Step != mafia.StepLastWord {
		t.Fatalf("the engine's plan after the end: %+v; the test wants its last word first", p)
	}
	for _, lang := range i18n.Languages {
		in := st.In
		in.Lang = lang
		v := Build(&State{In: in, Record: st.Record, Play: st.Play}, cat, func() string { return "k" })
		var labels []string
		for _, s := range v.Steps {
			labels = append(labels, s.Label)
		}
		// his minute is still his (matrix R73), said as what is left to do once the game is over, not as a speech
		want := []string{cat.T(lang, "step.end_last_word", 7), cat.T(lang, "step.end_points"), cat.T(lang, "step.end_save")}
		if !slices.Equal(labels, want) || !v.Steps[0].Current {
			t.Errorf("%s: the plan after the end is %q (the first current: %v), want %q", lang, labels, len(v.Steps) > 0 && v.Steps[0].Current, want)
		}
		var b strings.Builder
		if err := Render(&b, v); err != nil {
			t.Fatal(err)
		}
		plan := b.String()
		plan = plan[strings.Index(plan, `<ol id="plan">`):]
		plan = plan[:strings.Index(plan, `</ol>`)]
		if last := template.HTMLEscapeString(cat.T(lang, "step.last_word", 7)); strings.Contains(plan, last) {
			t.Errorf("%s: the plan after the end still says %q", lang, last)
		}
	}
	// a game over with the best move due (the first night's victim ends it): the best move comes first, then the rest
	st2 := game(t, "fiim-2025-club", tenRoles, join(mafia.Day(), speeches(1, 10), mafia.Night(), mafia.Shot(3, 1), mafia.Shot(7, 1),
		mafia.Shot(9, 1), mafia.Day(), mafia.TeamLoss(4))...)
	v, _ := build(t, st2)
	var keys []string
	for _, s := range v.Steps {
		keys = append(keys, s.Label)
	}
	if len(v.Steps) < 3 || v.Steps[0].Label != cat.T("en", "step.best_move", 1) || !v.Steps[0].Current ||
		!slices.Equal(keys[1:], []string{cat.T("en", "step.end_last_word", 1), cat.T("en", "step.end_points"), cat.T("en", "step.end_save")}) {
		t.Errorf("the plan after the end with the best move due: %q", keys)
	}
}

// TestProtocolLetters: each language marks the roles with letters nobody misreads: distinct, and none the
// beginning of the other team's word. The Ukrainian "Ч" for a black read as "червоний" (red), since the Ukrainian
// words for red and black both begin with Ч (issue 24); Russian keeps the protocol's own letters (seed 002
// §7.4.1: "К" красный, "Ч" черный, "Ш" шериф, "Д" дон), which Russian reads one way only.
func TestProtocolLetters(t *testing.T) {
	cat := catalog(t)
	roles := []mafia.Role{mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don, mafia.Commissar, mafia.Doctor}
	for _, lang := range i18n.Languages {
		seen := map[string]mafia.Role{}
		for _, r := range roles {
			l := RoleLetter(cat, lang, r)
			if other, ok := seen[l]; ok {
				t.Errorf("%s: %s and %s share the letter %q", lang, r, other, l)
			}
			seen[l] = r
			other := "answer.red"
			if r.Team() == mafia.Red {
				other = "answer.black"
			}
			if word := cat.T(lang, other); strings.HasPrefix(strings.ToLower(word), strings.ToLower(l)) {
				t.Errorf("%s: %s (%s) is marked %q, which reads as %q", lang, r, cat.T(lang, "role."+r.String()), l, word)
			}
		}
	}
	if got := RoleLetter(cat, "ru", mafia.Mafia) + RoleLetter(cat, "ru", mafia.Citizen); got != "ЧК" {
		t.Errorf("Russian marks a black and a red %q, want the protocol's Ч and К", got)
	}
}
