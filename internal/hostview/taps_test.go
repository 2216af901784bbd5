package hostview

import (
	"errors"
	"html"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
)

// TestVotingWaitsForTheSpeeches: while the day's last speech or the tie speeches go on, the vote's form is folded
// behind the step that starts the vote, the main action then (its "record the votes" inside the fold); once the
// vote is the plan's first step the form is open. Each round's fold is its own element, so that a round begun does
// not leave the next one open. Every living seat keeps its hand's tile through a round, greyed where it may not
// vote, so that the tiles stay in their places from one candidate to the next.
func TestVotingWaitsForTheSpeeches(t *testing.T) {
	cat := catalog(t)
	last := join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2), mafia.Nominate(2, 7), speeches(3, 10))
	folded := regexp.MustCompile(`<details class="voting" id="voting-([0-9-]+)">\s*<summary class="primary big main" id="act-start-vote" data-key="n">([^<]*)</summary>`)
	open := regexp.MustCompile(`<details class="voting" id="voting-([0-9-]+)" open>`)
	for _, c := range []struct {
		name   string
		events []mafia.Event
		start  string // the step's label while folded; "" when the vote has begun
		key    string
	}{
		{"the last speech", last, "taps.start_vote", "1-0"},
		{"the first candidate voted", join(last, hands(3, 1, 2)), "", "1-0"},
		{"the tie speeches", day1Tie, "taps.start_revote", "1-1"},
		{"the re-vote begun", join(day1Tie, hands(3, 1)), "", "1-1"},
	} {
		v, page := build(t, game(t, "fiim-2025-club", tenRoles, c.events...))
		if v.Voting == nil || v.Voting.Begun != (c.start == "") || v.Voting.Key != c.key {
			t.Fatalf("%s: %+v, want begun %v, key %s", c.name, v.Voting, c.start == "", c.key)
		}
		if c.start != "" {
			m := folded.FindStringSubmatch(page)
			if m == nil || m[1] != c.key || html.UnescapeString(m[2]) != cat.T("en", c.start) || open.MatchString(page) {
				t.Fatalf("%s: the vote's form is not folded behind %q (key %s)", c.name, cat.T("en", c.start), c.key)
			}
		} else if m := open.FindStringSubmatch(page); m == nil || m[1] != c.key {
			t.Fatalf("%s: the vote's form is not open (key %s)", c.name, c.key)
		}
		// the hands: every living seat, those who may not vote now greyed
		tiles := regexp.MustCompile(`<input type="checkbox" name="voters" value="(\d+)"( disabled)?>`).FindAllStringSubmatch(page, -1)
		if len(tiles) != 10 {
			t.Fatalf("%s: %d hands' tiles, want the ten living seats'", c.name, len(tiles))
		}
		for _, tile := range tiles {
			actor := false
			for _, s := range v.Actors {
				actor = actor || tile[1] == strconv.Itoa(s)
			}
			if actor == (tile[2] != "") {
				t.Errorf("%s: the tile of #%s greyed %v, the engine's voters %v", c.name, tile[1], tile[2] != "", v.Actors)
			}
		}
	}
	// "nobody" for a candidate who may get no hands, never for the last one, who gets the hands not raised yet
	if _, page := build(t, game(t, "fiim-2025-club", tenRoles, last...)); !strings.Contains(page, `id="act-nobody" name="nobody" value="yes"`) {
		t.Error("the first candidate's vote has no \"nobody\"")
	}
	if _, page := build(t, game(t, "fiim-2025-club", tenRoles, join(last, hands(3, 1, 2))...)); strings.Contains(page, `act-nobody`) {
		t.Error("the last candidate's vote offers \"nobody\"")
	}
}

// TestHonestHands: a vote or a lift vote read with no hands ticked is refused unless the host recorded "nobody";
// the last candidate's vote takes the hands not raised yet (R26); "nobody" with hands ticked is refused; a vote
// the engine refuses anyway is left to the engine's answer.
func TestHonestHands(t *testing.T) {
	last := join(mafia.Day(), speeches(1, 1), mafia.Nominate(1, 3), speeches(2, 2), mafia.Nominate(2, 7), speeches(3, 10))
	day := game(t, "fiim-2025-club", tenRoles, last...).Play
	second := game(t, "fiim-2025-club", tenRoles, join(last, hands(3, 1, 2))...).Play
	refused := func(what string, err error, format string) {
		t.Helper()
		var fe *FormError
		if !errors.As(err, &fe) || fe.Format != format {
			t.Errorf("%s: %v, want %q", what, err, format)
		}
	}
	_, err := EventsFromForm(form("type", "vote", "target", "3"), day)
	refused("no hands on the first candidate", err, "tick the raised hands, or record that nobody raised a hand")
	_, err = EventsFromForm(form("type", "vote", "target", "3", "voters", "1", "nobody", "yes"), day)
	refused("hands and nobody", err, "hands are ticked: untick them to record that nobody raised a hand")
	if got, err := EventsFromForm(form("type", "vote", "target", "3", "nobody", "yes"), day); err != nil || len(got) != 1 || got[0].Event != mafia.Vote(3) {
		t.Errorf("nobody on the first candidate: %+v (%v)", got, err)
	}
	if got, err := EventsFromForm(form("type", "vote", "target", "7"), second); err != nil || len(got) != 1 || got[0].Event != mafia.Vote(7) {
		t.Errorf("the last candidate's rest: %+v (%v)", got, err)
	}
	// the wrong candidate: the engine says why
	if _, err := EventsFromForm(form("type", "vote", "target", "7"), day); err != nil {
		t.Errorf("a vote on the wrong candidate is refused by the form: %v", err)
	}
	// the lift vote (home-doctor, the lift after a repeated tie)
	lift := liftGame(t)
	_, err = EventsFromForm(form("type", "lift"), lift)
	refused("no hands in the lift vote", err, "tick the raised hands, or record that nobody raised a hand")
	if got, err := EventsFromForm(form("type", "lift", "nobody", "yes"), lift); err != nil || len(got) != 1 || got[0].Type != mafia.EvLift || got[0].Voters != 0 {
		t.Errorf("nobody in the lift vote: %+v (%v)", got, err)
	}
	for _, lang := range i18n.Languages {
		for _, f := range []string{"tick the raised hands, or record that nobody raised a hand", "hands are ticked: untick them to record that nobody raised a hand"} {
			if _, ok := catalog(t)[lang]["msg:"+f]; !ok {
				t.Errorf("%q has no %s translation", f, lang)
			}
		}
	}
}

// liftGame is a fiim-2025-club day 1 with the lift vote due: #3 and #7 tied twice.
func liftGame(t *testing.T) *mafia.Game {
	t.Helper()
	g := game(t, "fiim-2025-club", tenRoles, join(day1Tie, hands(3, 1, 2, 4, 5, 6), hands(7, 8))...).Play
	if !g.Next().Allowed.Has(mafia.EvLift) {
		t.Fatal("no lift vote after the same tie twice")
	}
	return g
}
