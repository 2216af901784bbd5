package mafia

import (
	"math/bits"
	"testing"
)

// fuzzGame plays a game from fuzz bytes. Each event takes four bytes: the first chooses between an event the
// plan asks for (so that games go deep) and an arbitrary one (so that rejections are exercised); the others give
// seats and voters. It checks the invariants after every accepted event and that a rejected one changes nothing.
func fuzzGame(t *testing.T, rs int, n int, data []byte) {
	sets := RuleSets()
	r := sets[rs%len(sets)]
	roles := fuzzRoles(r, n)
	opt := r.DefaultOptions()
	if r.ID == "home-doctor" {
		for _, kv := range []struct {
			k string
			v OptionValue
		}{
			{"night_order", OptionValue{List: []string{"mafia", "doctor", "commissar"}}},
			{"default_vote_to_last", OptionValue{Bool: n%2 == 0}},
			{"tie_model", OptionValue{Choice: []string{"lift", "stay"}[n%2]}},
			{"reveal_on_elimination", OptionValue{Bool: true}},
			{"last_word", OptionValue{Bool: n%3 != 0}},
			{"doctor_self_heal", OptionValue{Bool: n%2 == 1}},
			{"doctor_repeat_target", OptionValue{Bool: false}},
		} {
			if err := opt.Set(kv.k, kv.v); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The options that change play, chosen by the input: none or one of Polemica's day-one variants, and
	// candidate_self_vote, where the rule set has them.
	k := rs / len(sets)
	if _, ok := r.Option("day1_lift_only"); ok && k%4 != 0 {
		if err := opt.Set(day1Variants[k%4-1], OptionValue{Bool: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := r.Option("candidate_self_vote"); ok && k/4%2 == 1 {
		if err := opt.Set("candidate_self_vote", OptionValue{Bool: true}); err != nil {
			t.Fatal(err)
		}
	}
	g, err := NewGame(r, opt, roles)
	if err != nil {
		t.Fatalf("%s with %d players: %v", r.ID, len(roles), err)
	}
	for len(data) >= 4 {
		e := fuzzEvent(g, data[:4])
		data = data[4:]
		before := g.Clone()
		if err := g.Apply(e); err != nil {
			if !sameGame(before, g) {
				t.Fatalf("rejected %+v (%v) but the game changed", e, err)
			}
			continue
		}
		if err := checkInvariants(before, g, e); err != nil {
			t.Fatalf("after %+v: %v", e, err)
		}
		_ = g.Result()
	}
}

// fuzzRoles deals a valid table for the rule set: blacks spread over the seats by a fixed pattern.
func fuzzRoles(r *Rules, n int) []Role {
	if n < r.MinPlayers {
		n = r.MinPlayers
	}
	if n > r.MaxPlayers {
		n = r.MaxPlayers
	}
	roles := make([]Role, n)
	for i := range roles {
		roles[i] = Citizen
	}
	if comp, ok := r.Composition(n); ok {
		i := 0
		for _, role := range []Role{Don, Mafia, Sheriff} {
			for k := 0; k < comp[role]; k++ {
				roles[(i*2+1)%n] = role
				i++
			}
		}
		return roles
	}
	roles[1] = Commissar
	roles[0] = Mafia
	if n >= 7 {
		roles[4] = Mafia
	}
	if r.ID == "home-doctor" {
		roles[2] = Doctor
	}
	return roles
}

func fuzzEvent(g *Game, b []byte) Event {
	n := int(g.n)
	seat := func(x byte) uint8 { return uint8(int(x) % (n + 2)) } // 0 and n+1 are invalid on purpose
	if b[0]&0x80 != 0 {
		return Event{Type: EventType(b[0] & 0x1f), Seat: seat(b[1]), Target: seat(b[2]),
			VotersGiven: b[3]&1 == 1, Voters: Seats(uint32(b[3]) << 1 & uint32(allSeats(n))),
			Targets: [3]uint8{seat(b[1]), seat(b[2]), seat(b[3])}, NTargets: b[3] % 4, Points: int32(int8(b[2]))}
	}
	next := g.Next()
	var want PlanStep
	for _, p := range next.Plan() {
		if p.Event != NoEvent {
			want = p
			break
		}
	}
	pick := func(s Seats, x byte) uint8 {
		if s.Empty() {
			return seat(x)
		}
		k := int(x) % s.Len()
		v := uint32(s)
		for ; k > 0; k-- {
			v &= v - 1
		}
		return uint8(bits.TrailingZeros32(v))
	}
	switch {
	case b[0]%16 == 0:
		return Foul(int(pick(g.alive, b[1])))
	case b[0]%16 == 1:
		return Warning(int(pick(g.alive, b[1])))
	case b[0]%29 == 2:
		return Disqualify(int(pick(g.alive, b[1])))
	case b[0]%16 == 3 && next.Allowed.Has(EvNominate):
		return Nominate(next.Speaker, int(pick(g.alive, b[1])))
	case b[0]%16 == 4 && next.Allowed.Has(EvBestMove):
		return BestMove(int(g.bmSeat), int(seat(b[1])), int(seat(b[2])), int(seat(b[3])))
	case b[0]%61 == 5:
		return Adjust(int(seat(b[1])), int(int8(b[2])))
	}
	switch want.Event {
	case EvSpeech:
		return Speech(want.Seat)
	case EvVote:
		v := Seats(uint32(b[1])|uint32(b[2])<<8|uint32(b[3])<<16) & next.Actors
		return Event{Type: EvVote, Target: uint8(want.Seat), VotersGiven: b[3]&0x80 == 0, Voters: v.Remove(want.Seat)}
	case EvLift:
		return Lift(Seats(uint32(b[1])|uint32(b[2])<<8).Len() % (g.alive.Len() + 1))
	case EvShot:
		return Shot(int(pick(next.Actors, b[1])), int(pick(g.alive, b[2]&0x07)))
	case EvCheck, EvHeal:
		return Event{Type: want.Event, Seat: uint8(want.Seat), Target: pick(g.alive, b[1])}
	}
	return Event{Type: want.Event}
}

func FuzzReplay(f *testing.F) {
	f.Add(0, 10, []byte("\x00\x01\x02\x03\x10\x11\x12\x13\x20\x21\x22\x23\x30\x31\x32\x33"))
	f.Add(1, 10, []byte{0x40, 0, 0, 0, 0x43, 3, 0, 0, 0x41, 0, 0, 0})
	f.Add(2, 10, make([]byte, 400))
	f.Add(3, 7, []byte{0x80, 1, 2, 3, 0x81, 1, 2, 3, 0x90, 4, 5, 6})
	f.Add(4, 8, make([]byte, 200))
	f.Add(5, 10, make([]byte, 400))  // fiim-2025-club with day1_lift_only
	f.Add(11, 10, make([]byte, 400)) // fsm-2026 with day1_no_vote
	f.Add(15, 10, make([]byte, 400)) // fiim-2025-club with day1_respeech
	f.Fuzz(func(t *testing.T, rs int, n int, data []byte) {
		if rs < 0 {
			rs = -rs
		}
		if n < 0 {
			n = -n
		}
		if len(data) > 4000 {
			data = data[:4000] // 1000 events: longer than any game; longer inputs only slow the fuzzer down
		}
		fuzzGame(t, rs, n%(MaxSeats+1), data)
	})
}

// TestRandomGames plays many deterministic pseudo-random games through the fuzz body, so that every test run
// explores deep states, not only the fuzz seeds.
func TestRandomGames(t *testing.T) {
	x := uint64(0x9E3779B97F4A7C15)
	data := make([]byte, 1200)
	games := 3000
	if testing.Short() {
		games = 150 // -short: mutation testing runs the suite once per mutant (docs/mutation.md)
	}
	for i := 0; i < games; i++ {
		for j := range data {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			data[j] = byte(x)
			if j%4 == 0 {
				data[j] &= 0x7f // mostly the plan's own events, so games reach their end
				if x&0x700 == 0 {
					data[j] |= 0x80
				}
			}
		}
		n := 7 + i%14
		if i%100 == 99 {
			n = 21 + i/100%(MaxSeats-20) // now and then a home table larger than 20 (001 L57)
		}
		fuzzGame(t, i, n, data)
	}
}
