package mafia

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// play starts a game and applies events, failing the test on any rejection.
func play(t testing.TB, id string, roles []Role, opt func(*Options), ev ...Event) *Game {
	t.Helper()
	r, ok := RuleSet(id)
	if !ok {
		t.Fatalf("no rule set %s", id)
	}
	o := r.DefaultOptions()
	if opt != nil {
		opt(&o)
	}
	g, err := NewGame(r, o, roles)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range ev {
		if err := g.Apply(e); err != nil {
			t.Fatalf("event %d (%s): %v", i+1, e.Type, err)
		}
	}
	return g
}

// plan renders the plan as "step#seat/limit[mode]" words, "*" marking a step under way.
func plan(g *Game) string {
	n := g.Next()
	var w []string
	for _, p := range n.Plan() {
		s := p.Step.String()
		if p.Seat != 0 {
			s += fmt.Sprintf("#%d", p.Seat)
		}
		if p.Limit != 0 {
			s += fmt.Sprintf("/%d", p.Limit)
		}
		if p.Step == StepSpeech && p.Speech != SpeechFull {
			s += "[" + p.Speech.String() + "]"
		}
		if p.WithBestMove {
			s += "+bm"
		}
		if p.Current {
			s = "*" + s
		}
		w = append(w, s)
	}
	return strings.Join(w, " ")
}

var ten = []Role{Citizen, Citizen, Mafia, Citizen, Sheriff, Citizen, Don, Citizen, Mafia, Citizen}

func speeches(from, to int, skip ...int) []Event {
	var ev []Event
	for s := from; s <= to; s++ {
		if !SeatsOf(skip...).Has(s) {
			ev = append(ev, Speech(s))
		}
	}
	return ev
}

func cat(parts ...any) []Event {
	var ev []Event
	for _, p := range parts {
		switch x := p.(type) {
		case Event:
			ev = append(ev, x)
		case []Event:
			ev = append(ev, x...)
		}
	}
	return ev
}

func TestNextPlan(t *testing.T) {
	seven := []Role{Citizen, Don, Citizen, Mafia, Citizen, Citizen, Citizen}
	day1 := cat(Day(), speeches(1, 1), Nominate(1, 3), speeches(2, 2), Nominate(2, 7), speeches(3, 10))
	tests := []struct {
		name, rules string
		roles       []Role
		opt         func(*Options)
		events      []Event
		want        string
	}{
		{"club night 1 (R07, R08, R11)", "fiim-2025-club", ten, nil, nil,
			"acquaintance/60 don_wake#7/10 sheriff_wake#5/10 free_seating/40 day"},
		{"club 7 players: no sheriff to wake (C-02)", "fiim-2025-club", seven, nil, nil,
			"acquaintance/60 don_wake#2/10 free_seating/40 day"},
		{"xcraft night 1: no free seating (002 §4.2)", "fiim-xcraft", ten, nil, nil,
			"acquaintance/60 don_wake#7/10 sheriff_wake#5/10 day"},
		{"day 1 opens with seat 1 (R15)", "fiim-2025-club", ten, nil, cat(Day()), "speech#1/60"},
		{"a speech under way, then the next speaker", "fiim-2025-club", ten, nil, cat(Day(), Speech(1)),
			"*speech#1/60 speech#2/60"},
		{"last speaker, then the vote on the first candidate", "fiim-2025-club", ten, nil, day1,
			"*speech#10/60 vote#3"},
		{"club: 3 fouls lose the next speech (R62)", "fiim-2025-club", ten, nil,
			cat(Foul(2), Foul(2), Foul(2), Day(), Speech(1)), "*speech#1/60 speech#2[lost]"},
		{"fsm: 3 fouls shorten the next speech to 30 s (001 L32)", "fsm-2026", ten, nil,
			cat(Foul(2), Foul(2), Foul(2), Day(), Speech(1)), "*speech#1/60 speech#2/30[short]"},
		{"the 3rd foul during his own speech mutes the next day's (C-10)", "fiim-2025-club", ten, nil,
			cat(Day(), Speech(1), Foul(1), Foul(1), Foul(1)), "*speech#1/60 speech#2/60"},
		{"tie: 30 s speeches in nomination order, then the re-vote (R17, R33)", "fiim-2025-club", ten, nil,
			cat(day1, Vote(3, 1, 2, 4, 5, 6), VoteRest(7)), "tie_speech#3/30 tie_speech#7/30 vote#3"},
		{"same pair tied again: the lift vote (R35)", "fiim-2025-club", ten, nil,
			cat(day1, Vote(3, 1, 2, 4, 5, 6), VoteRest(7), Vote(3, 1, 2, 4, 5, 6), VoteRest(7)), "lift"},
		{"after the vote: last word, then night (R53)", "fiim-2025-club", ten, nil,
			cat(day1, Vote(3, 1, 2, 4, 5, 6, 8), VoteRest(7)), "last_word#3/60 night"},
		{"night 2: shooting, don, sheriff (R44)", "fiim-2025-club", ten, nil,
			cat(Day(), speeches(1, 10), Night()), "shooting don_check#7/10 sheriff_check#5/10 day"},
		{"club morning: best move 20 s, last word, first speech (C-34)", "fiim-2025-club", ten, nil,
			cat(Day(), speeches(1, 10), Night(), Shot(3, 4), Shot(7, 4), Shot(9, 4), Day()),
			"best_move#4/20 last_word#4/60 speech#2/60"},
		{"xcraft morning: the best move inside the last word (C-34)", "fiim-xcraft", ten, nil,
			cat(Day(), speeches(1, 10), Night(), Shot(3, 4), Shot(7, 4), Shot(9, 4), Day()),
			"last_word#4/60+bm speech#2/60"},
		{"home-ua: a night victim's last word is 30 s (C-39)", "home-ua",
			[]Role{Mafia, Commissar, Citizen, Citizen, Citizen, Mafia, Citizen}, nil,
			cat(Day(), speeches(1, 7), Night(), Shot(1, 3), Shot(6, 3), Day()), "last_word#3/30 speech#2/60"},
		{"xcraft: muted with four alive speaks 30 s (§7.8)", "fiim-xcraft", ten, nil,
			cat(Foul(2), Foul(2), Foul(2), Disqualify(3), Disqualify(9), Disqualify(4), Disqualify(6), Disqualify(8), Disqualify(10), Day(), Speech(1)),
			"*speech#1/60 speech#2/30[short]"},
		{"club: muted with four alive loses the speech (C-10)", "fiim-2025-club", ten, nil,
			cat(Foul(2), Foul(2), Foul(2), Disqualify(3), Disqualify(9), Disqualify(4), Disqualify(6), Disqualify(8), Disqualify(10), Day(), Speech(1)),
			"*speech#1/60 speech#2[lost]"},
		{"game over", "fiim-2025-club", ten, nil, cat(Disqualify(3), Disqualify(7), Disqualify(9)), "game_over"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := play(t, tt.rules, tt.roles, tt.opt, tt.events...)
			if got := plan(g); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestNextActorsAndAllowed(t *testing.T) {
	g := play(t, "fiim-2025-club", ten, nil, Day(), Speech(1), Speech(2), Speech(3), Nominate(3, 1))
	n := g.Next()
	if n.Actors != SeatsOf(4) {
		t.Errorf("actors: got %v, want [4]", n.Actors.List())
	}
	if n.Allowed.Has(EvNominate) {
		t.Error("the speaker already nominated, but a nomination is still allowed")
	}
	if n.Allowed.Has(EvNight) || n.Allowed.Has(EvVote) {
		t.Error("night or vote allowed before the speeches are over")
	}
}

func TestCheckAnswers(t *testing.T) {
	g := play(t, "fiim-2025-club", ten, nil, cat(Day(), speeches(1, 10), Night(), Shot(3, 1), Shot(7, 1), Shot(9, 1), Check(7, 5), Check(5, 9))...)
	n := g.Next()
	if n.DonAnswer != AnswerSheriff || n.DonAnswer.Gesture() != Okay {
		t.Errorf("don's answer: got %v (%v), want sheriff (okay)", n.DonAnswer, n.DonAnswer.Gesture())
	}
	if n.SheriffAnswer != AnswerBlack || n.SheriffAnswer.Gesture() != ThumbDown {
		t.Errorf("sheriff's answer: got %v (%v), want black (thumb down)", n.SheriffAnswer, n.SheriffAnswer.Gesture())
	}
	cases := []struct {
		checker, target Role
		want            Gesture
	}{
		{Don, Citizen, TwoOkaysCrossed}, {Don, Mafia, TwoOkaysCrossed}, {Sheriff, Don, ThumbDown},
		{Sheriff, Citizen, ThumbUp}, {Commissar, Mafia, ThumbDown},
	}
	for _, c := range cases {
		if got := AnswerOf(c.target, c.checker).Gesture(); got != c.want {
			t.Errorf("%v checks %v: got %v, want %v", c.checker, c.target, got, c.want)
		}
	}
	// 000 L69-L84: the wake-up gestures of night 1
	for role, want := range map[Role]Gesture{Don: ThumbToRing, Sheriff: Okay, Citizen: ThumbUp, Mafia: ThumbDown} {
		if got := RoleGesture(role); got != want {
			t.Errorf("%v: got %v, want %v", role, got, want)
		}
	}
}

func TestSelfVoteByRuleSet(t *testing.T) {
	day1 := cat(Day(), speeches(1, 1), Nominate(1, 3), speeches(2, 2), Nominate(2, 7), speeches(3, 10))
	for _, c := range []struct {
		rules string
		ok    bool
	}{{"fiim-2025-club", false}, {"fsm-2026", true}, {"fiim-xcraft", true}} {
		g := play(t, c.rules, ten, nil, day1...)
		err := g.Apply(Vote(3, 1, 3, 4))
		if (err == nil) != c.ok {
			t.Errorf("%s: a candidate's own hand: %v, want allowed=%v (000 L105 is the club's rule only)", c.rules, err, c.ok)
		}
		n := g.Next()
		if c.ok && err == nil && n.Actors.Has(7) != true {
			t.Errorf("%s: the next candidate may vote against himself", c.rules)
		}
	}
}

// TestWrongVoteByRuleSet: a hand raised against a second candidate is refused in every rule set (R23, C-04); what
// the host then gives for it is the rule set's own (matrix R28, C-54).
func TestWrongVoteByRuleSet(t *testing.T) {
	want := map[string]Sanction{"fiim-2025-club": SanctionDisqualify, "fiim-xcraft": SanctionFoul,
		"fsm-2026": SanctionNone, "home-ua": SanctionNone, "home-doctor": SanctionNone}
	for _, r := range RuleSets() {
		if s, ok := want[r.ID]; !ok || r.WrongVote != s {
			t.Errorf("%s: the sanction for voting against several candidates is %d, the matrix says %d", r.ID, r.WrongVote, s)
		}
	}
	day1 := cat(Day(), speeches(1, 1), Nominate(1, 3), speeches(2, 2), Nominate(2, 7), speeches(3, 10))
	for _, id := range []string{"fiim-2025-club", "fsm-2026", "fiim-xcraft"} {
		g := play(t, id, ten, nil, day1...)
		if err := g.Apply(Vote(3, 1, 2)); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if err := g.Apply(Vote(7, 2, 4)); !errors.Is(err, ErrVotedTwice) {
			t.Errorf("%s: #2 votes against #3 and then #7: %v, want %v", id, err, ErrVotedTwice)
		}
	}
}

func TestNominationsStayClosedAfterCancelledVote(t *testing.T) {
	// R20, C-11: the voting began; a disqualification cancels it; the last speaker cannot nominate again.
	g := play(t, "fiim-xcraft", ten, nil, cat(Day(), speeches(1, 1), Nominate(1, 3), speeches(2, 2), Nominate(2, 7), speeches(3, 10),
		Vote(3, 1, 2), Disqualify(4))...)
	if g.Voting() != VotingCancelled {
		t.Fatalf("voting %v, want cancelled", g.Voting())
	}
	if err := g.Apply(Nominate(10, 1)); err == nil {
		t.Error("a nomination was accepted after the voting had begun")
	}
	if got := plan(g); got != "night" {
		t.Errorf("plan %q, want night", got)
	}
}

func TestHostileRecordsAreBounded(t *testing.T) {
	g := play(t, "fiim-xcraft", ten, nil)
	if err := g.Apply(Adjust(1, -1001)); err == nil {
		t.Error("a penalty of more than 10 points was accepted")
	}
	if err := g.Apply(Adjust(1, -1000)); err != nil {
		t.Errorf("a penalty of 10 points: %v", err)
	}
	// a draw-free rule set can go on for ever; the night counter stops at 250
	h := play(t, "home-ua", []Role{Mafia, Commissar, Citizen, Citizen, Citizen, Citizen, Mafia}, nil, Day())
	var err error
	for i := 0; err == nil && i < 5000; i++ {
		n := h.Next()
		e := Day() // at night: nobody shoots
		for _, p := range n.Plan() {
			if p.Event == EvSpeech {
				e = Speech(p.Seat)
				break
			}
			if p.Event == EvNight {
				e = Night()
				break
			}
		}
		err = h.Apply(e)
	}
	if !errors.Is(err, ErrTooLong) {
		t.Errorf("got %v, want the 250-night limit", err)
	}
	if _, n := h.Phase(); n != 250 {
		t.Errorf("stopped at %d", n)
	}
}

// TestResultWon: a seat has won when his team won; nobody has won a draw or a game still being played.
func TestResultWon(t *testing.T) {
	g := play(t, "fiim-2025-club", ten, nil, Day())
	for _, sr := range g.Result().Seats {
		if sr.Won {
			t.Errorf("#%d has won a game still being played", sr.Seat)
		}
	}
	for _, s := range []int{3, 7, 9} { // the three blacks leave: red wins
		if err := g.Apply(Disqualify(s)); err != nil {
			t.Fatal(err)
		}
	}
	if g.Winner() != RedWins {
		t.Fatalf("winner %v", g.Winner())
	}
	for _, sr := range g.Result().Seats {
		if sr.Won != (sr.Team == Red) {
			t.Errorf("#%d (%v) won=%v after red's win", sr.Seat, sr.Role, sr.Won)
		}
	}
	d := play(t, "fiim-2025-club", ten, nil, Day(), DeclareDraw())
	for _, sr := range d.Result().Seats {
		if sr.Won {
			t.Errorf("#%d has won a draw", sr.Seat)
		}
	}
}

// TestNextRestToLast: the plan says when the hands not raised yet go to the last candidate (R26) and which they
// are; without the default vote (C-43) it never does.
func TestNextRestToLast(t *testing.T) {
	day1 := cat(Day(), speeches(1, 1), Nominate(1, 3), speeches(2, 2), Nominate(2, 7), speeches(3, 10))
	g := play(t, "fiim-2025-club", ten, nil, day1...)
	if n := g.Next(); n.RestToLast {
		t.Error("the rest go to #3, the first of two candidates")
	}
	if err := g.Apply(Vote(3, 1, 2)); err != nil {
		t.Fatal(err)
	}
	n := g.Next()
	if want := SeatsOf(3, 4, 5, 6, 7, 8, 9, 10); !n.RestToLast || n.Rest != want {
		t.Errorf("voting on #7, the last: RestToLast %v, Rest %v, want %v", n.RestToLast, n.Rest, want)
	}
	off := play(t, "fiim-2025-club", ten, func(o *Options) { o.DefaultVoteToLast = false }, append(day1, Vote(3, 1, 2))...)
	if n := off.Next(); n.RestToLast || n.Rest != 0 {
		t.Errorf("without the default vote: RestToLast %v, Rest %v", n.RestToLast, n.Rest)
	}
}

// TestDisciplinable: fouls, warnings and disqualifications go to players at the table (or giving a last word)
// while the game is played, and to anyone after its end (R62, R65).
func TestDisciplinable(t *testing.T) {
	g := play(t, "fiim-2025-club", ten, nil, Day(), Disqualify(4))
	for s, want := range map[int]bool{0: false, 1: true, 4: false, 10: true, 11: false} {
		if g.Disciplinable(s) != want {
			t.Errorf("while played: #%d disciplinable %v, want %v", s, !want, want)
		}
	}
	for _, s := range []int{3, 7, 9} {
		if err := g.Apply(Disqualify(s)); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Disciplinable(4) {
		t.Error("after the end, #4 cannot be disciplined")
	}
	if err := g.Apply(Foul(4)); err != nil {
		t.Errorf("the engine refuses what Disciplinable allows: %v", err)
	}
}

// TestAdjustSteps: the club's 2025 points take manual corrections of ±0.1, ±0.3 and ±0.5 only (000 L198); the
// steps the host page offers are exactly those the engine accepts.
func TestAdjustSteps(t *testing.T) {
	r, _ := RuleSet("fiim-2025-club")
	steps := r.AdjustSteps()
	if len(steps) != 6 {
		t.Fatalf("steps %v", steps)
	}
	steps[0] = 20 // a caller's copy: the rule set keeps its own
	for _, h := range []int{10, 30, 50, -10, -30, -50, 20, 40, -20, 100} {
		g := play(t, "fiim-2025-club", ten, nil, Day())
		err := g.Apply(Adjust(1, h))
		if ok := slices.Contains(r.AdjustSteps(), h); (err == nil) != ok {
			t.Errorf("a correction of %d hundredths: %v, offered %v", h, err, ok)
		}
	}
	if x, _ := RuleSet("fiim-xcraft"); x.AdjustSteps() != nil {
		t.Error("X-Craft's judge gives any amount within the limits, not fixed steps")
	}
}

// TestRolesMatchValidation: every role Roles lists can be dealt, and no other: a home deal of commissar, mafia and
// citizens takes each listed role in a citizen's place and refuses the others (C-44); a sport deal is its table.
func TestRolesMatchValidation(t *testing.T) {
	for _, r := range RuleSets() {
		listed := r.Roles()
		if _, fixed := r.Composition(r.MaxPlayers); fixed {
			if !slices.Equal(listed, []Role{Citizen, Sheriff, Mafia, Don}) {
				t.Errorf("%s: %v, want the sport table's roles", r.ID, listed)
			}
			continue
		}
		base := []Role{Commissar, Mafia, Mafia, Citizen, Citizen, Citizen, Citizen, Citizen}
		if err := r.ValidateRoles(base); err != nil || !slices.Contains(listed, Commissar) || !slices.Contains(listed, Mafia) || !slices.Contains(listed, Citizen) {
			t.Errorf("%s: commissar, mafia and citizens (%v) are not all dealable: %v", r.ID, listed, err)
		}
		for _, role := range []Role{Sheriff, Don, Doctor} {
			deal := append(slices.Clone(base[:len(base)-1]), role)
			err := r.ValidateRoles(deal)
			if ok := slices.Contains(listed, role); (err == nil) != ok {
				t.Errorf("%s: a deal with a %v: %v, but Roles lists it: %v", r.ID, role, err, ok)
			}
		}
	}
}
