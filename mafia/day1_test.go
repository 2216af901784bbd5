package mafia

import (
	"errors"
	"strings"
	"testing"
)

// Polemica's day-one variants (its "zero voting"): day1_lift_only (liftOnly), day1_no_vote (none) and
// day1_respeech (respeech) belong to fsm-2026 and fiim-2025-club, are off by default, and at most one is on.
func TestDay1VariantOptions(t *testing.T) {
	for _, r := range RuleSets() {
		has := r.ID == "fsm-2026" || r.ID == DefaultRuleSetID
		for _, key := range day1Variants {
			info, ok := r.Option(key)
			if ok != has {
				t.Errorf("%s has %s: %v, want %v", r.ID, key, ok, has)
				continue
			}
			o := r.DefaultOptions()
			err := o.Set(key, OptionValue{Bool: true})
			if (err == nil) != has {
				t.Errorf("%s: Set(%s) = %v", r.ID, key, err)
			}
			if has && (info.Kind != OptBool || info.Default.Bool || info.Required) {
				t.Errorf("%s: %s is %+v, want a bool off by default", r.ID, key, info)
			}
		}
	}
	r, _ := RuleSet("fsm-2026")
	for i, a := range day1Variants {
		for _, b := range day1Variants[i+1:] {
			o := r.DefaultOptions()
			for _, k := range []string{a, b} {
				if err := o.Set(k, OptionValue{Bool: true}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := NewGame(r, o, ten); err == nil || !strings.Contains(err.Error(), "at most one") {
				t.Errorf("%s and %s together: %v", a, b, err)
			}
		}
	}
}

func day1TwoNominated() []Event {
	return cat(Day(), Speech(1), Nominate(1, 3), Speech(2), Nominate(2, 4), speeches(3, 10))
}

// day1_no_vote: after day 1's last speech the night is the only step, whatever the nominations; day 2 is voted.
func TestDay1NoVote(t *testing.T) {
	on := func(o *Options) { o.Day1NoVote = true }
	g := play(t, "fiim-2025-club", ten, on, day1TwoNominated()...)
	if got := plan(g); !strings.HasSuffix(got, " night") || strings.Contains(got, "vote") {
		t.Errorf("plan during day 1's last speech %q, want the night next", got)
	}
	if nv := g.NoVote(); nv.Why != NoVoteDay1 || nv.Why.String() != "day1_no_vote" {
		t.Errorf("NoVote %+v", nv)
	}
	before := g.Clone()
	if err := g.Apply(Vote(3, 1, 2)); !errors.Is(err, ErrNoVoting) || !sameGame(before, g) {
		t.Errorf("a vote on day 1: %v", err)
	}
	mustApply(t, g, Night(), Shot(3, 10), Shot(7, 10), Shot(9, 10), Day())
	mustApply(t, g, cat(Speech(2), Nominate(2, 3), speeches(3, 9), Speech(1), Nominate(1, 7))...)
	if got := plan(g); !strings.HasSuffix(got, " vote#3") {
		t.Errorf("day 2 plan %q, want its vote", got)
	}
	// the option off: day 1's two candidates are voted
	g = play(t, "fiim-2025-club", ten, nil, day1TwoNominated()...)
	if got := plan(g); !strings.HasSuffix(got, " vote#3") {
		t.Errorf("without the option, plan %q", got)
	}
}

// day1_respeech: day 1's single leader speaks again (a tie speech's 30 s), then the lift question is his alone; a
// tie on day 1 and the leader of day 2 are voted as usual.
func TestDay1Respeech(t *testing.T) {
	on := func(o *Options) { o.Day1Respeech = true }
	g := play(t, "fsm-2026", ten, on, cat(day1TwoNominated(), Vote(3, 1, 2, 5, 6, 8, 10), VoteRest(4))...)
	if got := plan(g); got != "tie_speech#3/30 lift" {
		t.Errorf("plan %q, want #3's speech then the lift", got)
	}
	if d := g.During(); d.Kind != DuringTieSpeech || d.Seat != 3 {
		t.Errorf("During %+v, want #3's speech", d)
	}
	n := g.Next()
	if n.NCand != 1 || n.Candidates[0] != 3 {
		t.Errorf("candidates %v", n.Candidates[:n.NCand])
	}
	mustApply(t, g, Lift(1, 2, 5, 6, 8))
	if g.Out(3).How != NotOut {
		t.Errorf("#3 left with 5 yes of 10")
	}
	// a tie on day 1: the usual tie speeches and re-vote (a single leader of the re-vote is day 1's single leader
	// too: he speaks again and is put to the lift)
	g = play(t, "fsm-2026", ten, on, cat(day1TwoNominated(), Vote(3, 1, 2, 5, 6, 8), VoteRest(4))...)
	if got := plan(g); !strings.HasPrefix(got, "tie_speech#3/30 tie_speech#4/30 vote#3") {
		t.Errorf("a tie: plan %q, want the tie speeches and the re-vote", got)
	}
	// day 2's single leader leaves by the count
	g = play(t, "fsm-2026", ten, on, cat(day1TwoNominated(), Vote(3, 1, 2, 5, 6, 8, 10), VoteRest(4), Lift(),
		Night(), Shot(3, 10), Shot(7, 10), Shot(9, 10), Day(), Speech(2), Nominate(2, 3), speeches(3, 9), Speech(1),
		Nominate(1, 7), Vote(3, 1, 2, 4, 5, 6, 8), VoteRest(7))...)
	if g.Out(3).How != OutVoted {
		t.Errorf("day 2's leader stayed")
	}
}
