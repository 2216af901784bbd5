package mafia

import (
	"fmt"
	"testing"
)

// TestEffect: the engine says what an event would do before it is taken (issue 24: the host page asks first with
// it): a 4th foul removes the player without a last word and cancels today's vote (R64, R68), a 3rd does nothing
// of the kind; a disqualification at night or after the day's result cancels the next day's vote (C-11, R69); the
// last black player's removal ends the game; a team's loss ends it; a vote's leader leaves with a last word (R53);
// X-Craft's single candidate makes the vote unsure (C-36); in a home rule set the round starts again (C-47). The
// game asked is unchanged.
func TestEffect(t *testing.T) {
	day1 := cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 7))
	voted := cat(day1, speeches(3, 10), Vote(3, 1, 2, 4, 5, 6, 8), VoteRest(7)) // 6:4, #3 (black) leaves
	day2 := cat(Day(), speeches(1, 10), Night(), Shot(3, 1), Shot(7, 1), Shot(9, 1), Day())
	single := cat(day2, Speech(2), Nominate(2, 9), speeches(3, 10))
	ua := []Role{Citizen, Citizen, Mafia, Commissar, Citizen, Mafia, Citizen}
	uaVoting := cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 6), speeches(3, 7), Vote(3, 1, 2))
	for _, c := range []struct {
		name, rules string
		roles       []Role
		events      []Event
		e           Event
		want        Effect
	}{
		{"a 3rd foul", "fiim-2025-club", ten, cat(day1, Foul(5), Foul(5)), Foul(5), Effect{}},
		{"R64, R68: a 4th foul", "fiim-2025-club", ten, cat(day1, Foul(5), Foul(5), Foul(5)), Foul(5),
			Effect{Leaves: SeatsOf(5), VoteCancelled: true}},
		{"R68: a disqualification before the vote", "fiim-2025-club", ten, day1, Disqualify(4), Effect{Leaves: SeatsOf(4), VoteCancelled: true}},
		{"C-11: at night", "fiim-2025-club", ten, cat(voted, Night()), Disqualify(4), Effect{Leaves: SeatsOf(4), NextVoteCancelled: true}},
		{"R69: after the result", "fiim-2025-club", ten, voted, Disqualify(4), Effect{Leaves: SeatsOf(4), NextVoteCancelled: true}},
		{"the last black leaves", "fiim-2025-club", ten, cat(voted, Night(), Shot(7, 1), Shot(9, 1), Day(), Speech(2), Disqualify(7)),
			Disqualify(9), Effect{Leaves: SeatsOf(9), Ends: true}},
		{"a team's loss", "fiim-2025-club", ten, day1, TeamLoss(7), Effect{Leaves: SeatsOf(7), Ends: true}},
		{"a vote's leader leaves with a last word", "fiim-2025-club", ten, cat(day1, speeches(3, 10), Vote(3, 1, 2, 4, 5, 6, 8)),
			VoteRest(7), Effect{Leaves: SeatsOf(3), LastWord: SeatsOf(3)}},
		{"C-36: the single candidate's list unsure", "fiim-xcraft", ten, single, Disqualify(4), Effect{Leaves: SeatsOf(4), VoteUnsure: true}},
		{"C-47: the round again", "home-ua", ua, cat(uaVoting, Warning(5), Warning(5)), Warning(5),
			Effect{Leaves: SeatsOf(5), RoundAgain: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := play(t, c.rules, c.roles, nil, c.events...)
			before := fmt.Sprint(g.Next(), g.Result(), g.NoVote())
			scratch := g.Clone()
			got, err := g.Effect(c.e, scratch)
			if err != nil || got != c.want {
				t.Fatalf("%v: %+v (%v), want %+v", c.e.Type, got, err, c.want)
			}
			if after := fmt.Sprint(g.Next(), g.Result(), g.NoVote()); after != before {
				t.Fatalf("asking changed the game:\n%s\n%s", before, after)
			}
			// the same scratch answers again, and as a fresh game does
			if again, _ := g.Effect(c.e, scratch); again != got {
				t.Fatalf("asked again: %+v, want %+v", again, got)
			}
			h := play(t, c.rules, c.roles, nil, c.events...)
			if err := h.Apply(c.e); err != nil {
				t.Fatal(err)
			}
			if gone := g.Alive() &^ h.Alive(); gone != got.Leaves || h.Finished() != got.Ends {
				t.Fatalf("the event itself: %v left, finished %v; the effect said %+v", gone.List(), h.Finished(), got)
			}
		})
	}
	g := play(t, "fiim-2025-club", ten, nil, day1...)
	if _, err := g.Effect(Nominate(3, 5), g.Clone()); err == nil {
		t.Fatal("a refused event has an effect")
	}
}

// TestCloneIntoAllocates: asking about every seat in turn copies into the same memory.
func TestCloneIntoAllocates(t *testing.T) {
	g := play(t, "fiim-2025-club", ten, nil, cat(Day(), Speech(1), Nominate(1, 3))...)
	scratch := g.Clone()
	if n := testing.AllocsPerRun(100, func() {
		for s := 1; s <= 10; s++ {
			_, _ = g.Effect(Disqualify(s), scratch)
		}
	}); n != 0 {
		t.Fatalf("%v allocations for ten seats' effects", n)
	}
}
