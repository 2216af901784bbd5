package mafia

import (
	"fmt"
	"slices"
	"testing"
)

// roundsOf writes a day's rounds as "counts→outcome[seats]" words: "3:5 7:5→revote[3 7]", "lift 6→leave[3 7]".
func roundsOf(g *Game, day int) []string {
	var out []string
	for _, d := range g.Result().Days {
		if d.Day != day {
			continue
		}
		for _, r := range d.Rounds {
			s := ""
			if r.Lift {
				s = fmt.Sprintf("lift %d", r.Yes)
			}
			for i, c := range r.Counts {
				if i > 0 {
					s += " "
				}
				s += fmt.Sprintf("%d:%d", c.Seat, c.Votes)
			}
			out = append(out, fmt.Sprintf("%s→%s%v", s, r.Outcome, r.Seats))
		}
	}
	return out
}

// TestRoundOutcomes: each voting round says what it decided and for whom, as the engine applied it (R31-R40,
// C-21, C-33, C-43), so that the host page announces the engine's decision instead of working it out again.
func TestRoundOutcomes(t *testing.T) {
	noms := cat(Day(), speeches(1, 1), Nominate(1, 3), speeches(2, 2), Nominate(2, 7), speeches(3, 10))
	tie := cat(Vote(3, 1, 2, 4, 5, 6), VoteRest(7)) // 5:5 with the default votes of 3, 7, 8, 9, 10 (R26)
	fsmNoms := cat(Day(), Speech(1), Nominate(1, 2), Speech(2), Nominate(2, 4), Speech(3), Nominate(3, 6), Speech(4),
		Nominate(4, 8), speeches(5, 10))
	for _, c := range []struct {
		name, rules string
		events      []Event
		want        []string
	}{
		{"one leader leaves", "fiim-2025-club", cat(noms, Vote(3, 1, 2, 4, 5, 6, 8), VoteRest(7)),
			[]string{"3:6 7:4→leave[3]"}},
		{"a tie: speeches and a re-vote", "fiim-2025-club", cat(noms, tie), []string{"3:5 7:5→revote[3 7]"}},
		{"the same tie again: the lift vote, which removes both", "fiim-2025-club", cat(noms, tie, tie, Lift(1, 2, 4, 5, 6, 8)),
			[]string{"3:5 7:5→revote[3 7]", "3:5 7:5→lift[3 7]", "lift 6→leave[3 7]"}},
		{"the lift vote without a majority: they stay", "fiim-2025-club", cat(noms, tie, tie, Lift(1, 2, 4, 5, 6)),
			[]string{"3:5 7:5→revote[3 7]", "3:5 7:5→lift[3 7]", "lift 5→stay[3 7]"}},
		{"FSM day 1, three tied: night at once (C-21)", "fsm-2026",
			cat(fsmNoms, Vote(2, 1, 3, 5), Vote(4, 7, 9, 10), Vote(6, 2, 4, 8), VoteRest(8)),
			[]string{"2:3 4:3 6:3 8:1→stay[2 4 6]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, c.rules, ten, nil, c.events...)
			if got := roundsOf(g, 1); !slices.Equal(got, c.want) {
				t.Errorf("rounds %q, want %q", got, c.want)
			}
		})
	}
	// home-ua without the default vote: a single candidate needs more than half of the table (C-43)
	ua := []Role{Citizen, Citizen, Mafia, Commissar, Citizen, Mafia, Citizen}
	day2 := cat(Day(), speeches(1, 7), Night(), Day(), speeches(2, 2), Nominate(2, 6), speeches(3, 7), speeches(1, 1))
	g := play(t, "home-ua", ua, nil, cat(day2, Vote(6, 1, 2, 3))...)
	if got, want := roundsOf(g, 2), []string{"6:3→stay[6]"}; !slices.Equal(got, want) {
		t.Errorf("home-ua, 3 of 7 against the single candidate: %q, want %q", got, want)
	}
	g = play(t, "home-ua", ua, nil, cat(day2, Vote(6, 1, 2, 3, 4))...)
	if got, want := roundsOf(g, 2), []string{"6:4→leave[6]"}; !slices.Equal(got, want) {
		t.Errorf("home-ua, 4 of 7 against the single candidate: %q, want %q", got, want)
	}
}

// TestNextRestSingleCandidate: before the vote on a single candidate (day 2 or later) the plan already says every
// hand goes to him, his own included (R26, C-03): he is the last candidate too. Without the default vote it never
// does (C-43).
func TestNextRestSingleCandidate(t *testing.T) {
	day2 := cat(Day(), speeches(1, 10), Night(), Day(), speeches(2, 2), Nominate(2, 9), speeches(3, 10), speeches(1, 1))
	g := play(t, "fiim-2025-club", ten, nil, day2...)
	n := g.Next()
	if n.NCand != 1 || !n.RestToLast || n.Rest != allSeats(10) {
		t.Fatalf("a single candidate #9: NCand %d, RestToLast %v, Rest %v; want every seat", n.NCand, n.RestToLast, n.Rest)
	}
	if err := g.Apply(VoteRest(9)); err != nil {
		t.Fatal(err)
	}
	if got, want := roundsOf(g, 2), []string{"9:10→leave[9]"}; !slices.Equal(got, want) {
		t.Errorf("the single candidate's round %q, want %q", got, want)
	}
	off := play(t, "fiim-2025-club", ten, func(o *Options) { o.DefaultVoteToLast = false }, day2...)
	if n := off.Next(); n.RestToLast || n.Rest != 0 {
		t.Errorf("without the default vote: RestToLast %v, Rest %v", n.RestToLast, n.Rest)
	}
}
