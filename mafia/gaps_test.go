package mafia

import (
	"errors"
	"testing"
)

// The gaps mutation testing found (issue 15, item 6; docs/mutation.md): rules a broken engine would get wrong
// with every other test green. Each test names the rule and fails on the mutant that survived.

func itemPoints(g *Game, seat int, item Item) int {
	total := 0
	for _, e := range g.score {
		if int(e.seat) == seat && e.item == item {
			total += int(e.points)
		}
	}
	return total
}

func mustReject(t *testing.T, g *Game, e Event, want error) {
	t.Helper()
	if err := g.Apply(e); !errors.Is(err, want) {
		t.Errorf("%s seat %d target %d points %d: got %v, want %v", e.Type, e.Seat, e.Target, e.Points, err, want)
	}
}

func mustApply(t *testing.T, g *Game, ev ...Event) {
	t.Helper()
	for _, e := range ev {
		if err := g.Apply(e); err != nil {
			t.Fatalf("%s seat %d: %v", e.Type, e.Seat, err)
		}
	}
}

// R89, C-13: the club's decisive vote. Black hands against a black partner who leaves cost -0.5 each when,
// without them, he would not have had strictly the most votes; a tie counts as saved unless
// decisive_vote_tie_counts_as_saved is off.
func TestDecisiveVote(t *testing.T) {
	day1 := cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 4), speeches(3, 10))
	three := cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 4), Speech(3), Nominate(3, 10), speeches(4, 10))
	noTie := func(o *Options) { o.DecisiveTieSaved = false }
	tests := []struct {
		name      string
		opt       func(*Options)
		ev        []Event
		decisive  []int // seats with -0.5
		blackVote []int // seats with -0.1 for voting against a black
	}{
		// #3 (black) 6 votes with #7 and #9's, #4 the other 4: without them 4-4, a tie
		{"a tie without the black hands counts as saved", nil, cat(day1, Vote(3, 1, 2, 5, 6, 7, 9), VoteRest(4)), []int{7, 9}, nil},
		{"not with the option off", noTie, cat(day1, Vote(3, 1, 2, 5, 6, 7, 9), VoteRest(4)), nil, []int{7, 9}},
		// #3 5 votes (#7, #9 among them), #4 4, #10 1: without them 3 < 4
		{"fewer without the black hands: decisive whatever the option", noTie,
			cat(three, Vote(3, 1, 2, 5, 7, 9), Vote(4, 3, 6, 8, 10), VoteRest(10)), []int{7, 9}, nil},
		// #3 6 votes (#9 among them), #4 4: without #9's 5 > 4
		{"still the most without them: not decisive", nil, cat(day1, Vote(3, 1, 2, 5, 6, 8, 9), VoteRest(4)), nil, []int{9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := play(t, "fiim-2025-club", ten, tt.opt, tt.ev...)
			if g.Out(3).How != OutVoted {
				t.Fatalf("#3 did not leave by vote")
			}
			for _, s := range []int{7, 9} {
				wantD, wantB := 0, 0
				if SeatsOf(tt.decisive...).Has(s) {
					wantD = -50
				}
				if SeatsOf(tt.blackVote...).Has(s) {
					wantB = -10
				}
				if d, b := itemPoints(g, s, ItemClubDecisiveVote), itemPoints(g, s, ItemClubBlackVotesBlack); d != wantD || b != wantB {
					t.Errorf("#%d: decisive %d, black votes black %d; want %d, %d", s, d, b, wantD, wantB)
				}
			}
		})
	}
}

// R82, §T6.1: X-Craft's judge's extra points, each limit exactly and one hundredth past it, summed over several
// adjust events: a winner's 0.70, a loser's 0.40, 1.00 in all; any adjustment within ±10.00 (R80, R84).
func TestXCraftExtraLimits(t *testing.T) {
	ended := func() *Game { return play(t, "fiim-xcraft", ten, nil, TeamLoss(3)) } // #3 black: red wins
	g := ended()
	mustApply(t, g, Adjust(1, 30), Adjust(1, 40)) // a winner's 0.70 in two
	mustReject(t, g, Adjust(1, 1), ErrExtraWinner)
	mustApply(t, g, Adjust(2, 20), Adjust(2, 10)) // 1.00 in all
	mustReject(t, g, Adjust(4, 1), ErrExtraTotal)
	if p := itemPoints(g, 1, ItemJudgeExtra); p != 70 {
		t.Errorf("#1's extras %d", p)
	}
	g = ended()
	mustApply(t, g, Adjust(7, 20), Adjust(7, 20)) // a loser's 0.40 in two
	mustReject(t, g, Adjust(7, 1), ErrExtraLoser)
	mustApply(t, g, Adjust(9, 39))
	mustApply(t, g, Adjust(9, 1))
	mustReject(t, g, Adjust(9, 1), ErrExtraLoser)
	g = ended()
	mustApply(t, g, Adjust(5, -1000)) // a penalty of 10.00
	mustReject(t, g, Adjust(5, -1001), ErrAdjustRange)
	mustReject(t, g, Adjust(5, 1001), ErrAdjustRange)
	mustReject(t, g, Adjust(5, 1000), ErrExtraTotal) // within range, past the 1.00 in all
	if p := itemPoints(g, 5, ItemPenalty); p != -1000 {
		t.Errorf("#5's penalty %d", p)
	}
}

// R43, C-41: the shot kills only if every black at the table shot exactly once, all at the same player.
func TestShotMiss(t *testing.T) {
	day1 := cat(Day(), speeches(1, 10), Night())
	for _, c := range []struct {
		name   string
		shots  []Event
		killed bool
	}{
		{"all three at #1", cat(Shot(3, 1), Shot(7, 1), Shot(9, 1)), true},
		{"the lowest-numbered black does not shoot", cat(Shot(7, 1), Shot(9, 1)), false},
		{"the highest-numbered black does not shoot", cat(Shot(3, 1), Shot(7, 1)), false},
		{"a black shoots twice", cat(Shot(3, 1), Shot(3, 1), Shot(7, 1), Shot(9, 1)), false},
		{"the lowest-numbered black shoots elsewhere", cat(Shot(3, 2), Shot(7, 1), Shot(9, 1)), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, "fiim-2025-club", ten, nil, cat(day1, c.shots, Day())...)
			if got := g.Out(1).How == OutKilled; got != c.killed {
				t.Errorf("#1 killed %v, want %v", got, c.killed)
			}
		})
	}
}

// R43: the black who shot more than once is still known in the morning, when the host says why the night missed,
// and forgotten when the next night begins.
func TestShotTwiceKnownInTheMorning(t *testing.T) {
	g := play(t, "fiim-2025-club", ten, nil, cat(Day(), speeches(1, 10), Night(), Shot(3, 1), Shot(3, 2), Shot(7, 1), Shot(9, 1))...)
	if got := g.ShotTwice(); got != Seats(0).Add(3) {
		t.Errorf("at night ShotTwice %v, want #3", got.List())
	}
	mustApply(t, g, Day())
	if g.Out(1).How == OutKilled {
		t.Fatal("#1 was killed though #3 shot twice")
	}
	if got := g.ShotTwice(); got != Seats(0).Add(3) {
		t.Errorf("in the morning ShotTwice %v, want #3", got.List())
	}
	mustApply(t, g, cat(speeches(2, 10), Speech(1), Night())...)
	if got := g.ShotTwice(); got != 0 {
		t.Errorf("the next night ShotTwice %v, want nobody", got.List())
	}
}

// Speech lengths the plan gives: home-ua's 2nd warning costs the current round's speech, or the next one when it
// comes after his own (004 L47, C-46), the 1st costs nothing; X-Craft §7.8 shortens a muted speech to 30 s at
// exactly 3 or 4 alive, not at 5 (C-10). The plan lists the last words of two players in the order they left and
// drops the night steps already taken or whose actor has left (R44, R53).
func TestPlanGaps(t *testing.T) {
	ua := []Role{Citizen, Citizen, Mafia, Commissar, Citizen, Mafia, Citizen}
	lift := cat(Day(), speeches(1, 1), Nominate(1, 3), speeches(2, 2), Nominate(2, 7), speeches(3, 10),
		Vote(3, 1, 2, 4, 5, 6), VoteRest(7), Vote(3, 1, 2, 4, 5, 6), VoteRest(7))
	night2 := cat(Day(), speeches(1, 10), Night())
	tests := []struct {
		name, rules string
		roles       []Role
		events      []Event
		want        string
	}{
		{"home-ua: one warning costs nothing", "home-ua", ua, cat(Day(), Speech(1), Warning(2)), "*speech#1/60 speech#2/60"},
		{"home-ua: the 2nd warning before his speech costs it (C-46)", "home-ua", ua,
			cat(Day(), Speech(1), Warning(2), Warning(2)), "*speech#1/60 speech#2[lost]"},
		{"home-ua: the 2nd warning after his speech costs the next day's (C-46)", "home-ua", ua,
			cat(Day(), Speech(1), Speech(2), Warning(2), Warning(2), speeches(3, 7), Night(), Day()), "speech#2[lost]"},
		{"xcraft: muted with three alive speaks 30 s (§7.8)", "fiim-xcraft", ten,
			cat(Foul(2), Foul(2), Foul(2), Disqualify(3), Disqualify(9), Disqualify(4), Disqualify(5), Disqualify(6),
				Disqualify(8), Disqualify(10), Day(), Speech(1)), "*speech#1/60 speech#2/30[short]"},
		{"xcraft: muted with five alive loses the speech (§7.8)", "fiim-xcraft", ten,
			cat(Foul(2), Foul(2), Foul(2), Disqualify(3), Disqualify(9), Disqualify(5), Disqualify(8), Disqualify(10),
				Day(), Speech(1)), "*speech#1/60 speech#2[lost]"},
		{"two leave by the lift: both last words, in nomination order (R41, R53)", "fiim-2025-club", ten,
			cat(lift, Lift(1, 2, 4, 5, 6, 8)), "last_word#3/60 last_word#7/60 night"},
		{"night: after the shots and the don's check, the sheriff's (R44)", "fiim-2025-club", ten,
			cat(night2, Shot(3, 1), Shot(7, 1), Shot(9, 1), Check(7, 2)), "sheriff_check#5/10 day"},
		{"night: after the sheriff's check, only the morning", "fiim-2025-club", ten,
			cat(night2, Shot(3, 1), Shot(7, 1), Shot(9, 1), Check(7, 2), Check(5, 9)), "day"},
		{"night: the sheriff disqualified, no sheriff's check", "fiim-2025-club", ten,
			cat(night2, Disqualify(5)), "shooting don_check#7/10 day"},
		{"night: the don disqualified, no don's check", "fiim-2025-club", ten,
			cat(night2, Disqualify(7)), "shooting sheriff_check#5/10 day"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := play(t, tt.rules, tt.roles, nil, tt.events...)
			if got := plan(g); got != tt.want {
				t.Errorf("plan %q, want %q", got, tt.want)
			}
		})
	}
}

// 001 L46, 7.11.5: the FSM lift vote is held for exactly these tied-of-alive combinations (C-49, C-50).
func TestFSMLiftTable(t *testing.T) {
	want := map[[2]int]bool{{5, 10}: true, {2, 8}: true, {4, 8}: true, {2, 6}: true, {3, 6}: true, {2, 4}: true}
	for alive := 2; alive <= 10; alive++ {
		for tied := 2; tied <= alive; tied++ {
			if got := fsmLift(tied, alive); got != want[[2]int{tied, alive}] {
				t.Errorf("%d tied of %d alive: lift %v", tied, alive, got)
			}
		}
	}
}

// C-13, R90: the угайка seat is fixed on a morning with exactly three at the table, one of them black; four at
// the table with one black is not it.
func TestUgaykaSeat(t *testing.T) {
	for _, c := range []struct {
		alive Seats
		want  uint8
	}{{SeatsOf(1, 2, 3), 3}, {SeatsOf(1, 2, 3, 4), 0}, {SeatsOf(1, 2, 4), 0}} {
		r, _ := RuleSet("fiim-2025-club")
		g, err := NewGame(r, r.DefaultOptions(), ten)
		if err != nil {
			t.Fatal(err)
		}
		g.alive = c.alive
		mustApply(t, g, Day())
		if g.ugayka != c.want {
			t.Errorf("alive %v: угайка seat %d, want %d", c.alive.List(), g.ugayka, c.want)
		}
	}
}

// C-22, C-47: where a disqualification does not cancel the vote (home rule sets; FSM without fsm_dq_vote_effect),
// a candidate who leaves during the vote restarts the round without him; FSM with the option cancels it.
func TestDisqualifiedDuringVote(t *testing.T) {
	ua := []Role{Citizen, Citizen, Mafia, Commissar, Citizen, Mafia, Citizen}
	uaDay := cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 5), speeches(3, 7), Vote(3, 1, 2))
	fsmDay := cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 4), Speech(3), Nominate(3, 8), speeches(4, 10),
		Vote(3, 1, 2))
	noEffect := func(o *Options) { o.FSMDQVoteEffect = false }
	for _, c := range []struct {
		name, rules string
		roles       []Role
		opt         func(*Options)
		ev          []Event
		status      VotingStatus
		cands       []int
	}{
		{"home-ua: restarts without him", "home-ua", ua, nil, cat(uaDay, Disqualify(5)), VotingRounds, []int{3}},
		{"fsm without the option: restarts without him", "fsm-2026", ten, noEffect, cat(fsmDay, Disqualify(4)), VotingRounds, []int{3, 8}},
		{"fsm with the option: cancelled", "fsm-2026", ten, nil, cat(fsmDay, Disqualify(4)), VotingCancelled, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, c.rules, c.roles, c.opt, c.ev...)
			n := g.Next()
			var cands []int
			for _, s := range n.Candidates[:n.NCand] {
				cands = append(cands, int(s))
			}
			if g.Voting() != c.status || !equalInts(cands, c.cands) || !n.Voted.Empty() {
				t.Errorf("voting %v, candidates %v, voted %v; want %v, %v, nobody", g.Voting(), cands, n.Voted.List(), c.status, c.cands)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// C-36 applies from day 2 only (002 §7.2 "во второй или последующие дни"): on day 1 a disqualification after the
// last speaker nominated the single candidate cancels that day's vote (R68) and leaves day 2's alone.
func TestC36NotOnDay1(t *testing.T) {
	g := play(t, "fiim-xcraft", ten, nil, cat(Day(), speeches(1, 10), Nominate(10, 3), Disqualify(5), Night(), Day())...)
	r := g.Result()
	if r.Days[0].Voting != VotingCancelled || g.Voting() != VotingPending {
		t.Errorf("day 1 %v, day 2 %v; want cancelled, pending", r.Days[0].Voting, g.Voting())
	}
}

// R55-R59: a best move names one to three other seats, each once.
func TestBestMoveShape(t *testing.T) {
	killed := cat(Day(), speeches(1, 10), Night(), Shot(3, 1), Shot(7, 1), Shot(9, 1), Day())
	g := play(t, "fiim-2025-club", ten, nil, killed...)
	for _, bad := range []Event{BestMove(1), BestMove(1, 1), BestMove(1, 3, 3), BestMove(1, 3, 7, 9, 2), BestMove(1, 3, 1)} {
		mustReject(t, g, bad, ErrBadBestMove)
	}
	mustApply(t, g, BestMove(1, 3))
	if p := g.Points(1); p != 0 {
		t.Errorf("one black named: %d points", p)
	}
	g = play(t, "fiim-2025-club", ten, nil, killed...)
	mustApply(t, g, BestMove(1, 3, 9, 2))
	if p := itemPoints(g, 1, ItemBestMove2); p != 50 {
		t.Errorf("two blacks named: %d", p)
	}
}

// R90, C-13: the угайка extra goes to the black player at the table, or to every black with ugayka_all_blacks.
func TestUgaykaPaid(t *testing.T) {
	for _, all := range []bool{false, true} {
		r, _ := RuleSet("fiim-2025-club")
		o := r.DefaultOptions()
		o.UgaykaAllBlacks = all
		g, err := NewGame(r, o, ten)
		if err != nil {
			t.Fatal(err)
		}
		g.alive = SeatsOf(1, 2, 3) // a morning with three at the table, #3 the only black
		mustApply(t, g, Day(), Speech(1), Nominate(1, 2), Speech(2), Nominate(2, 1), Speech(3), Vote(2, 1, 3), VoteRest(1))
		if g.Winner() != BlackWins {
			t.Fatalf("winner %v", g.Winner())
		}
		for _, s := range []int{3, 7, 9} {
			want := 0
			if s == 3 || all {
				want = 10
			}
			if p := itemPoints(g, s, ItemClubUgayka); p != want {
				t.Errorf("ugayka_all_blacks %v: #%d gets %d, want %d", all, s, p, want)
			}
		}
	}
}

func TestItemNames(t *testing.T) {
	items := Items()
	if len(items) != int(numItems)-1 || items[0] != ItemWin || items[len(items)-1] != ItemClubExtras {
		t.Errorf("Items() = %v", items)
	}
	for i, it := range items {
		if it != Item(i+1) || it.String() == "" || it.String() == "item?" {
			t.Errorf("item %d: %v %q", i, it, it.String())
		}
	}
	if numItems.String() != "item?" {
		t.Errorf("an unknown item is named %q", numItems.String())
	}
}

// day1_lift_only: the lift question is on the day-1 leader alone, and Next says so.
func TestDay1LiftOnlyCandidates(t *testing.T) {
	g := play(t, "fsm-2026", ten, func(o *Options) { o.Day1LiftOnly = true },
		cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 4), speeches(3, 10), Vote(3, 1, 2, 5, 6, 8, 10), VoteRest(4))...)
	n := g.Next()
	if !n.Allowed.Has(EvLift) || n.NCand != 1 || n.Candidates[0] != 3 {
		t.Errorf("lift allowed %v, candidates %v", n.Allowed.Has(EvLift), n.Candidates[:n.NCand])
	}
	mustApply(t, g, Lift(1, 2, 5, 6, 8, 10))
	if g.Out(3).How != OutVoted || g.Out(4).How != NotOut {
		t.Errorf("#3 %v, #4 %v; want #3 voted out, #4 at the table", g.Out(3).How, g.Out(4).How)
	}
}

// Current is the plan's first step, and the zero step of an empty plan.
func TestCurrentOfEmptyPlan(t *testing.T) {
	var n Next
	if c := n.Current(); c != (PlanStep{}) {
		t.Errorf("an empty plan's current step: %+v", c)
	}
	g := play(t, "fiim-2025-club", ten, nil, Day())
	n = g.Next()
	if c := n.Current(); c.Step != StepSpeech || c.Seat != 1 {
		t.Errorf("current step %+v, want #1's speech", c)
	}
}

// A plan longer than eight steps: all ten tied, each with one vote, speak 30 s each before the re-vote (R17, R33).
func TestLongPlan(t *testing.T) {
	ev := []Event{Day()}
	for s := 1; s <= 10; s++ {
		ev = append(ev, Speech(s), Nominate(s, s%10+1))
	}
	for c := 2; c <= 10; c++ {
		ev = append(ev, Vote(c, c-1))
	}
	ev = append(ev, VoteRest(1))
	g := play(t, "fiim-2025-club", ten, nil, ev...)
	want := "tie_speech#2/30 tie_speech#3/30 tie_speech#4/30 tie_speech#5/30 tie_speech#6/30 tie_speech#7/30 " +
		"tie_speech#8/30 tie_speech#9/30 tie_speech#10/30 tie_speech#1/30 vote#2"
	if got := plan(g); got != want {
		t.Errorf("plan %q, want %q", got, want)
	}
}

// R52, C-47, C-61: a player's card is open once he leaves where the rule set shows cards (home-ua), and in every
// rule set once the game is over; never for a player still at the table before the end.
func TestRevealed(t *testing.T) {
	ua := []Role{Citizen, Citizen, Mafia, Commissar, Citizen, Mafia, Citizen}
	g := play(t, "home-ua", ua, nil, Day(), Warning(2), Warning(2), Warning(2))
	if !g.Revealed(2) || g.Revealed(1) {
		t.Errorf("home-ua: #2 (out) revealed %v, #1 (at the table) revealed %v", g.Revealed(2), g.Revealed(1))
	}
	g = play(t, "fiim-2025-club", ten, nil, Day(), Disqualify(2))
	if g.Revealed(2) {
		t.Errorf("club: a player out is revealed before the end")
	}
	mustApply(t, g, TeamLoss(3))
	if !g.Revealed(1) || !g.Revealed(2) {
		t.Errorf("club: cards are not open after the end")
	}
}

// The largest table (MaxSeats, 001 L57 "six or more"): every per-seat array reaches seat 63.
func TestLargestTable(t *testing.T) {
	roles := make([]Role, MaxSeats)
	for i := range roles {
		roles[i] = Citizen
	}
	roles[0], roles[60], roles[61], roles[62] = Commissar, Mafia, Mafia, Mafia
	ev := cat(Day(), speeches(1, MaxSeats), Night(), Shot(61, 63), Shot(62, 63), Shot(63, 63), Day())
	g := play(t, "home-ua", roles, nil, ev...)
	if o := g.Out(63); o.How != OutKilled || g.Role(63) != Mafia {
		t.Errorf("#63: out %+v, role %v", o, g.Role(63))
	}
	mustApply(t, g, Warning(62), Warning(62), Warning(62))
	if g.Warnings(62) != 3 || g.Out(62).How != OutFouls || g.Alive().Len() != MaxSeats-2 {
		t.Errorf("#62: %d warnings, out %+v; %d at the table", g.Warnings(62), g.Out(62), g.Alive().Len())
	}
	doc := append([]Role{Doctor}, roles[1:]...)
	doc[1] = Commissar
	o, _ := RuleSet("home-doctor")
	opt := o.DefaultOptions()
	for k, v := range map[string]OptionValue{"night_order": {List: []string{"mafia", "doctor", "commissar"}},
		"default_vote_to_last": {}, "tie_model": {Choice: "lift"}, "reveal_on_elimination": {}, "last_word": {Bool: true},
		"doctor_self_heal": {}, "doctor_repeat_target": {}} {
		if err := opt.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	h, err := NewGame(o, opt, doc)
	if err != nil {
		t.Fatal(err)
	}
	mustApply(t, h, Foul(63), Foul(63))
	if h.Fouls(63) != 2 {
		t.Errorf("#63's fouls %d", h.Fouls(63))
	}
}
