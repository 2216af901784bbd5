package main

import (
	"math/rand/v2"
	"testing"

	"mafiaclub/internal/hostview"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// TestScriptsAreValidForms plays the tool's scripts through what the site does with a host's form: every step is
// read by hostview.EventsFromForm (the form handler's reader) and applied by the engine, and the game ends.
func TestScriptsAreValidForms(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		s, err := newScript(rng, mafia.DefaultRuleSetID)
		if err != nil {
			t.Fatal(err)
		}
		seats := make([]record.Seat, len(s.roles))
		for i, r := range s.roles {
			seats[i] = record.Seat{Seat: i + 1, Role: r, Name: "p" + string(rune('a'+i))}
		}
		rec, err := record.Build(mafia.DefaultRuleSetID, nil, seats, nil)
		if err != nil {
			t.Fatal(err)
		}
		rs, _ := mafia.RuleSet(mafia.DefaultRuleSetID)
		g, err := mafia.NewGame(rs, rec.Options, s.roles)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.steps) < 30 {
			t.Fatalf("seed %d: a game of %d steps", seed, len(s.steps))
		}
		for i, f := range s.steps {
			events, err := hostview.EventsFromForm(f, g)
			if err != nil {
				t.Fatalf("seed %d, step %d %v: the form is refused: %v", seed, i, f, err)
			}
			for _, e := range events {
				if err := g.Apply(e.Event); err != nil {
					t.Fatalf("seed %d, step %d %v: the engine refuses %+v: %v", seed, i, f, e.Event, err)
				}
			}
		}
		if !g.Finished() {
			t.Fatalf("seed %d: the script of %d steps does not end the game", seed, len(s.steps))
		}
	}
}
