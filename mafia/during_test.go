package mafia

import "testing"

// During names the moment a foul falls, step by step through a day with a tie, a lift and last words (spec
// section 2, "during"): the moments mafiaratings lost when the exporter guessed them from the events.
func TestDuring(t *testing.T) {
	g := play(t, "fiim-2025-club", ten, nil)
	steps := []struct {
		ev   Event
		want During
	}{
		{Day(), During{}}, // the morning of day 1: nobody was killed
		{Speech(1), During{DuringSpeech, 1}},
		{Nominate(1, 3), During{DuringSpeech, 1}}, // still #1's speech after his nomination
		{Speech(2), During{DuringSpeech, 2}},
		{Nominate(2, 4), During{DuringSpeech, 2}},
		{Speech(3), During{DuringSpeech, 3}},
		{Speech(4), During{DuringSpeech, 4}},
		{Speech(5), During{DuringSpeech, 5}},
		{Speech(6), During{DuringSpeech, 6}},
		{Speech(7), During{DuringSpeech, 7}},
		{Speech(8), During{DuringSpeech, 8}},
		{Speech(9), During{DuringSpeech, 9}},
		{Speech(10), During{DuringSpeech, 10}}, // the last speaker, until the first vote
		{Vote(3, 1, 2, 5, 6, 8), During{DuringVote, 4}},
		{VoteRest(4), During{DuringTieSpeech, 3}}, // 5-5: the tied speak 30 s before the re-vote
		{Vote(3, 1, 2, 5, 6, 8), During{DuringVote, 4}},
		{VoteRest(4), During{Kind: DuringLift}}, // the same two tie again: the lift vote (R35)
		{Lift(1, 2, 5, 6, 8, 10), During{DuringLastWord, 3}},
		{Night(), During{Kind: DuringNight}},
	}
	for i, s := range steps {
		if err := g.Apply(s.ev); err != nil {
			t.Fatalf("step %d (%s): %v", i+1, s.ev.Type, err)
		}
		if got := g.During(); got != s.want {
			t.Errorf("after step %d (%s): During() = %v, want %v", i+1, s.ev.Type, got, s.want)
		}
	}
	// night 2: a kill; the morning is the victim's last word, then the first speech
	for _, e := range []Event{Shot(7, 10), Shot(9, 10), Day()} {
		if err := g.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if got := g.During(); got != (During{DuringLastWord, 10}) {
		t.Errorf("the morning after a kill: %v, want the victim's last word", got)
	}
	if got := g.During().WithSeat(4); got != (During{DuringLastWord, 4}) {
		t.Errorf("WithSeat: %v", got)
	}
}

func TestDuringKindNames(t *testing.T) {
	for k := DuringSpeech; k < numDuring; k++ {
		back, ok := ParseDuringKind(k.String())
		if !ok || back != k {
			t.Errorf("%v does not parse back", k)
		}
		if k.HasSeat() != (k == DuringSpeech || k == DuringTieSpeech || k == DuringLastWord || k == DuringVote) {
			t.Errorf("%v: HasSeat %v", k, k.HasSeat())
		}
	}
	if _, ok := ParseDuringKind(""); ok {
		t.Errorf("the empty name parses")
	}
	if _, ok := ParseDuringKind("morning"); ok {
		t.Errorf("an unknown name parses")
	}
}
