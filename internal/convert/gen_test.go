package convert

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strconv"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// genRecord plays one random 10-seat game of a sport rule set through the engine: every event it keeps was
// accepted. Besides the plan's own events it throws in, at random moments, fouls (up to the 4th and, on a player
// already out or after the end, beyond), warnings, disqualifications and team losses (in every phase: speeches,
// after the last speech, tie speeches, votes, the lift, last words, nights, after the end), declared draws,
// adjustments, and plays every option of the rule set that changes play, each now and then off its default (at
// most one day-one variant). Discipline carries the engine's own "during", as the host page records it; a foul
// or disqualification in a tie speech names one of the tied speakers.
func genRecord(rng *rand.Rand) *record.Record {
	sets := []string{"fiim-2025-club", "fiim-xcraft", "fsm-2026"}
	r, _ := mafia.RuleSet(sets[rng.Intn(len(sets))])
	roles := make([]mafia.Role, 10)
	for i := range roles {
		roles[i] = mafia.Citizen
	}
	perm := rng.Perm(10)
	roles[perm[0]], roles[perm[1]], roles[perm[2]], roles[perm[3]] = mafia.Don, mafia.Mafia, mafia.Mafia, mafia.Sheriff
	// every option of the rule set that changes play, each turned from its default now and then, and at most one
	// of the day-one variants (day1_lift_only, day1_no_vote, day1_respeech)
	opts := map[string][]byte{}
	day1 := []string{"", "day1_lift_only", "day1_no_vote", "day1_respeech"}[rng.Intn(4)]
	if rng.Intn(2) == 0 {
		day1 = ""
	}
	for _, k := range r.OptionKeys() {
		info, _ := r.Option(k)
		if info.Kind != mafia.OptBool || info.Required {
			continue
		}
		switch k {
		case "day1_lift_only", "day1_no_vote", "day1_respeech":
			if k == day1 {
				opts[k] = []byte("true")
			}
			continue
		case "club_extras":
			if rng.Intn(2) == 0 {
				opts[k] = []byte("false")
			}
			continue
		}
		if rng.Intn(4) == 0 {
			opts[k] = []byte(strconv.FormatBool(!info.Default.Bool))
		}
	}
	options := r.DefaultOptions()
	for k, v := range opts {
		if err := options.Set(k, mafia.OptionValue{Bool: string(v) == "true"}); err != nil {
			panic(err)
		}
	}
	g, err := mafia.NewGame(r, options, roles)
	if err != nil {
		panic(err)
	}
	seats := make([]record.Seat, 10)
	for i := range seats {
		seats[i] = record.Seat{Seat: i + 1, Role: roles[i], Name: fmt.Sprintf("Player %d", i+1)}
	}
	// how rough the table is: some games have no discipline at all, some a lot
	rough := []int{0, 40, 15, 6}[rng.Intn(4)]
	var events []record.Event
	closed := false // the host said the last speech is over
	try := func(e mafia.Event, d mafia.During) bool {
		if g.Apply(e) != nil {
			return false
		}
		switch e.Type {
		case mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify, mafia.EvTeamLoss, mafia.EvAdjust:
		default:
			closed = false
		}
		events = append(events, record.Event{Event: e, During: d})
		return true
	}
	pickAlive := func() int {
		a := g.Alive().List()
		if len(a) == 0 {
			return 1 + rng.Intn(10)
		}
		return a[rng.Intn(len(a))]
	}
	during := func() mafia.During {
		d := g.During()
		n := g.Next()
		if d.Kind == mafia.DuringTieSpeech && n.NCand > 0 {
			return d.WithSeat(int(n.Candidates[rng.Intn(n.NCand)])) // the host page names the tied speaker
		}
		if d.Kind == mafia.DuringSpeech && (closed || (n.Allowed.Has(mafia.EvVote) && rng.Intn(2) == 0)) {
			closed = true // the host knows the last speech is over (and it stays over)
			return mafia.During{Kind: mafia.DuringNominationsClosed}
		}
		return d
	}
	for steps := 0; steps < 600 && !g.Finished(); steps++ {
		n := g.Next()
		if rough > 0 && rng.Intn(rough) == 0 {
			s := pickAlive()
			if rng.Intn(8) == 0 {
				s = 1 + rng.Intn(10) // also a player already out
			}
			switch k := rng.Intn(20); {
			case k < 12:
				for _, a := range g.Alive().List() {
					if g.Fouls(a) == 3 && rng.Intn(3) == 0 {
						s = a // a 4th foul, which removes him
					}
				}
				try(mafia.Foul(s), during())
			case k < 16:
				try(mafia.Warning(s), during())
			case k < 19:
				try(mafia.Disqualify(s), during())
			default:
				if rng.Intn(2) == 0 {
					try(mafia.TeamLoss(s), mafia.During{})
				}
			}
			continue
		}
		if n.Allowed.Has(mafia.EvDraw) && rng.Intn(150) == 0 {
			try(mafia.DeclareDraw(), mafia.During{})
			continue
		}
		var want mafia.PlanStep
		for _, p := range n.Plan() {
			if p.Event != mafia.NoEvent {
				want = p
				break
			}
		}
		if n.Allowed.Has(mafia.EvNominate) && n.Speaker != 0 && rng.Intn(3) == 0 {
			try(mafia.Nominate(n.Speaker, pickAlive()), mafia.During{})
			continue
		}
		if n.Allowed.Has(mafia.EvBestMove) && rng.Intn(2) == 0 {
			seat := bestMoveSeatOf(&n)
			k := 1 + rng.Intn(3)
			t := rng.Perm(10)[:k]
			for i := range t {
				t[i]++
			}
			if try(mafia.BestMove(seat, t...), mafia.During{}) {
				continue
			}
		}
		switch want.Event {
		case mafia.EvVote:
			var voters mafia.Seats
			for _, v := range (n.Actors &^ n.Voted).List() {
				if rng.Intn(3) == 0 {
					voters = voters.Add(v)
				}
			}
			if !try(mafia.Vote(want.Seat, voters.Remove(want.Seat).List()...), mafia.During{}) {
				try(mafia.VoteRest(want.Seat), mafia.During{})
			}
		case mafia.EvLift:
			var yes []int
			p := rng.Intn(3)
			for _, v := range g.Alive().List() {
				if rng.Intn(3) <= p {
					yes = append(yes, v)
				}
			}
			try(mafia.Lift(yes...), mafia.During{})
		case mafia.EvShot:
			target := pickAlive()
			for _, s := range n.Actors.List() {
				t := target
				if rng.Intn(8) == 0 {
					t = pickAlive() // a miss
				}
				try(mafia.Shot(s, t), mafia.During{})
			}
		case mafia.EvCheck:
			try(mafia.Check(want.Seat, pickAlive()), mafia.During{})
		case mafia.NoEvent:
			return nil
		default:
			try(mafia.Event{Type: want.Event, Seat: uint8(want.Seat)}, mafia.During{})
		}
	}
	// after the end: a judge's points, a late foul or disqualification
	if g.Finished() && rough > 0 {
		for k := rng.Intn(3); k > 0; k-- {
			s := 1 + rng.Intn(10)
			switch rng.Intn(4) {
			case 0:
				try(mafia.Foul(s), g.During())
			case 1:
				try(mafia.Disqualify(s), g.During())
			default:
				if steps := r.AdjustSteps(); len(steps) > 0 {
					try(mafia.Adjust(s, steps[rng.Intn(len(steps))]), mafia.During{})
				} else {
					try(mafia.Adjust(s, 10*(1+rng.Intn(5))), mafia.During{})
				}
			}
		}
	}
	raw := map[string]json.RawMessage{}
	for k, v := range opts {
		raw[k] = v
	}
	rec, err := record.New(r.ID, raw, seats, events, nil)
	if err != nil {
		panic(err)
	}
	return rec
}

func bestMoveSeatOf(n *mafia.Next) int {
	for _, p := range n.Plan() {
		if p.Step == mafia.StepBestMove || (p.Step == mafia.StepLastWord && p.WithBestMove) {
			return p.Seat
		}
	}
	return 0
}
