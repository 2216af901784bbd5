package demo

import (
	"math/rand/v2"
	"testing"
	"time"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// TestDemoGamesEnd plays many generated games of every rule set and size the demo uses: each ends by itself
// (no event replaced, no game stopped), its record replays to the same result, and they look like games: both
// sides win, votes tie now and then and lifts are held.
func TestDemoGamesEnd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type tally struct {
		games, red, black, draw, ties, lifts, fouls, dq, bm, actions int
		dur                                                          time.Duration
	}
	sum := map[string]*tally{}
	for i := 0; i < 600; i++ {
		rules := []string{"fiim-2025-club", "fsm-2026", "fiim-xcraft", "home-ua", "home-doctor"}[i%5]
		n := 7 + rng.IntN(4)
		if rules == "fsm-2026" || rules == "fiim-xcraft" {
			n = 10
		}
		roles, opts := dealDemo(rng, rules, n)
		style := Style{Disqualify: i%50 == 0}
		g, err := play(rng, rules, opts, roles, style)
		if err != nil {
			t.Fatal(err)
		}
		if g.fallbacks > 0 {
			t.Fatalf("game %d (%s, %d players): %d events replaced", i, rules, n, g.fallbacks)
		}
		var evs []record.Event
		var dur time.Duration
		for _, a := range g.actions {
			evs = append(evs, a.Events...)
			dur += a.After
		}
		seats := make([]record.Seat, n)
		for k := range seats {
			seats[k] = record.Seat{Seat: k + 1, Role: roles[k], Name: string(rune('A' + k))}
		}
		rec, err := record.Build(rules, rawOptions(opts), seats, evs)
		if err != nil {
			t.Fatal(err)
		}
		p, err := rec.Replay()
		if err != nil || !p.Finished() {
			t.Fatalf("game %d (%s): %v, finished %v", i, rules, err, p != nil && p.Finished())
		}
		ts := sum[rules]
		if ts == nil {
			ts = &tally{}
			sum[rules] = ts
		}
		ts.games++
		ts.actions += len(g.actions)
		ts.dur += dur
		switch p.Winner() {
		case mafia.RedWins:
			ts.red++
		case mafia.BlackWins:
			ts.black++
		default:
			ts.draw++
		}
		res := p.Result()
		for _, d := range res.Days {
			for _, r := range d.Rounds {
				if r.Lift {
					ts.lifts++
				} else if r.Outcome == mafia.OutcomeRevote {
					ts.ties++
				}
			}
		}
		for _, sr := range res.Seats {
			ts.fouls += sr.Fouls + sr.Warnings
			if sr.Out.How == mafia.OutDisqualified {
				ts.dq++
			}
		}
		for _, e := range evs {
			if e.Type == mafia.EvBestMove {
				ts.bm++
			}
		}
	}
	for rules, ts := range sum {
		t.Logf("%s: %d games, red %d black %d draw %d, ties %d lifts %d fouls %d dq %d best moves %d, %.0f actions and %.0f min a game",
			rules, ts.games, ts.red, ts.black, ts.draw, ts.ties, ts.lifts, ts.fouls, ts.dq, ts.bm, float64(ts.actions)/float64(ts.games), ts.dur.Minutes()/float64(ts.games))
		if ts.red == 0 || ts.black == 0 || ts.ties == 0 {
			t.Errorf("%s: games do not look like games", rules)
		}
	}
}
