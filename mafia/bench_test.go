package mafia

import (
	"errors"
	"reflect"
	"testing"
)

// fullGame is a complete 10-player club game (the golden game full-game-red-wins): 51 events, red wins on day 3.
func fullGame() (*Rules, []Role, []Event) {
	r, _ := RuleSet("fiim-2025-club")
	roles := []Role{Citizen, Citizen, Mafia, Citizen, Sheriff, Citizen, Don, Citizen, Mafia, Citizen}
	var ev []Event
	add := func(e ...Event) { ev = append(ev, e...) }
	speeches := func(order []int, noms map[int]int) {
		for _, s := range order {
			add(Speech(s))
			if t, ok := noms[s]; ok {
				add(Nominate(s, t))
			}
		}
	}
	add(Day())
	speeches([]int{1, 2, 3, 4, 5, 6, 7, 8}, map[int]int{2: 3, 4: 7, 8: 1})
	add(Foul(8))
	speeches([]int{9, 10}, nil)
	add(Vote(3, 1, 2, 4, 5), Vote(7, 6, 8, 10), VoteRest(1), Night())
	add(Shot(7, 5), Shot(9, 5), Check(7, 5), Check(5, 9), Day(), BestMove(5, 7, 9, 1))
	speeches([]int{2, 4, 6, 7, 8, 9, 10, 1}, map[int]int{2: 9, 6: 7})
	add(Vote(9, 1, 2, 4, 6, 8), VoteRest(7), Night())
	add(Shot(7, 1), Check(7, 2), Day())
	speeches([]int{4, 6, 7, 8, 10, 2}, map[int]int{4: 7, 7: 4})
	add(Vote(7, 2, 6, 8, 10, 4), VoteRest(4))
	return r, roles, ev
}

func TestFullGame(t *testing.T) {
	r, roles, ev := fullGame()
	g, err := Replay(r, r.DefaultOptions(), roles, ev)
	if err != nil {
		t.Fatal(err)
	}
	if g.Winner() != RedWins {
		t.Fatalf("got %v, want red", g.Winner())
	}
	if got := g.Points(5); got != 195 {
		t.Errorf("sheriff's points: got %d, want 195", got)
	}
}

// BenchmarkReplayGame replays a complete 10-player game from its events.
func BenchmarkReplayGame(b *testing.B) {
	r, roles, ev := fullGame()
	opt := r.DefaultOptions()
	b.ReportAllocs()
	for b.Loop() {
		g, err := Replay(r, opt, roles, ev)
		if err != nil || g.Winner() != RedWins {
			b.Fatal(err)
		}
	}
}

// BenchmarkApply applies one event (a vote that completes a round and removes a player) to a game in progress.
func BenchmarkApply(b *testing.B) {
	r, roles, ev := fullGame()
	const at = 17 // the last vote of day 1
	g, err := Replay(r, r.DefaultOptions(), roles, ev[:at])
	if err != nil {
		b.Fatal(err)
	}
	e := ev[at]
	base := *g
	b.ReportAllocs()
	for b.Loop() {
		*g = base
		g.days, g.rounds, g.score = base.days[:len(base.days):cap(base.days)], base.rounds, base.score
		if err := g.Apply(e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNext asks what happens next in the middle of a day.
func BenchmarkNext(b *testing.B) {
	r, roles, ev := fullGame()
	g, _ := Replay(r, r.DefaultOptions(), roles, ev[:10])
	b.ReportAllocs()
	for b.Loop() {
		n := g.Next()
		if n.N == 0 {
			b.Fatal("empty plan")
		}
	}
}

// TestReplayStopsBeforeTheRefusedEvent: Replay applies events in place, so a refused event may have changed the
// state before it was refused; the game it returns is still the game as the events before it left it, for a
// refusal at every point of a whole game.
func TestReplayStopsBeforeTheRefusedEvent(t *testing.T) {
	r, roles, ev := fullGame()
	opt := r.DefaultOptions()
	for k := 0; k <= len(ev); k++ {
		for _, bad := range []Event{Vote(1, 2), Shot(1, 2), Speech(0), Nominate(3, 3), BestMove(2, 1, 3, 4)} {
			events := append(append(append([]Event{}, ev[:k]...), bad), ev[k:]...)
			got, err := Replay(r, opt, roles, events)
			if err == nil {
				continue // the event was allowed there
			}
			var re *ReplayError
			if !errors.As(err, &re) || re.Index != k+1 {
				t.Fatalf("%v at %d: %v, want the refusal of event %d", bad, k, err, k+1)
			}
			want, _ := Replay(r, opt, roles, ev[:k])
			gn, wn := got.Next(), want.Next()
			if !reflect.DeepEqual(got.Result(), want.Result()) || !reflect.DeepEqual(gn.Plan(), wn.Plan()) {
				t.Fatalf("%v refused at %d: the game returned is not the game before it", bad, k)
			}
		}
	}
}
