package spectator_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
	"mafiaclub/mafia/spectator"
)

// Two deals of one table: other blacks, another sheriff, other check answers.
var (
	dealA = []mafia.Role{mafia.Citizen, mafia.Citizen, mafia.Mafia, mafia.Citizen, mafia.Sheriff, mafia.Citizen, mafia.Don, mafia.Citizen, mafia.Mafia, mafia.Citizen}
	dealB = []mafia.Role{mafia.Citizen, mafia.Don, mafia.Citizen, mafia.Sheriff, mafia.Citizen, mafia.Mafia, mafia.Citizen, mafia.Citizen, mafia.Citizen, mafia.Mafia}
)

// course is a fiim-2025-club game's events under a deal: the same public course for every deal (the same
// speeches, votes and victims), the night's shots by that deal's blacks and checks by its don and sheriff.
func course(deal []mafia.Role) []mafia.Event {
	seatOf := func(r mafia.Role) int {
		for i, x := range deal {
			if x == r {
				return i + 1
			}
		}
		return 0
	}
	shoot := func(target int, out ...int) []mafia.Event {
		var evs []mafia.Event
		for i, r := range deal {
			dead := false
			for _, o := range out {
				dead = dead || o == i+1
			}
			if r.Team() == mafia.Black && !dead {
				evs = append(evs, mafia.Shot(i+1, target))
			}
		}
		return evs
	}
	var ev []mafia.Event
	add := func(e ...mafia.Event) { ev = append(ev, e...) }
	add(mafia.Day(), mafia.Speech(1), mafia.Nominate(1, 3), mafia.Foul(4))
	for s := 2; s <= 10; s++ {
		add(mafia.Speech(s))
		if s == 5 {
			add(mafia.Nominate(5, 7))
		}
	}
	add(mafia.Vote(3, 1, 2, 4, 5, 6), mafia.VoteRest(7), mafia.Vote(3, 1, 2, 4, 5, 6, 8), mafia.VoteRest(7), mafia.Night())
	add(shoot(5, 3)...)
	don, sher := seatOf(mafia.Don), seatOf(mafia.Sheriff)
	add(mafia.Check(don, 8), mafia.Check(sher, 9), mafia.Day(), mafia.BestMove(5, 7, 9, 1), mafia.Adjust(2, 30))
	for _, s := range []int{2, 4, 6, 7, 8, 9, 10, 1} {
		add(mafia.Speech(s))
		if s == 2 {
			add(mafia.Nominate(2, 9))
		}
	}
	add(mafia.Disqualify(7), mafia.Night())
	add(shoot(1, 3, 7)...)
	add(mafia.Day())
	return ev
}

func build(t *testing.T, deal []mafia.Role) *record.Record {
	t.Helper()
	seats := make([]record.Seat, len(deal))
	for i, r := range deal {
		seats[i] = record.Seat{Seat: i + 1, Role: r, Name: fmt.Sprintf("Player %d", i+1)}
	}
	var events []record.Event
	i := 0 // the clock moves with the public course: the spec compares the views without it
	for _, e := range course(deal) {
		if !spectator.Hidden(e.Type) {
			i++
		}
		events = append(events, record.Event{Event: e, At: fmt.Sprintf("2026-12-01T19:%02d:%02dZ", i/60, i%60)})
	}
	rec, err := record.Build("fiim-2025-club", nil, seats, events)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("the course does not replay: %v", err)
	}
	return rec
}

// TestPublicViewSameForEveryDeal is the spec's test: two games with the same public course and different deals
// give identical public views after every event, until the end; and no view names a role, a shot or a check.
func TestPublicViewSameForEveryDeal(t *testing.T) {
	a, b := build(t, dealA), build(t, dealB)
	// views lists the public views after every event until the end, checking that a hidden event changes nothing
	views := func(rec *record.Record) []string {
		var out []string
		for n := 0; n <= len(rec.Events); n++ {
			v, err := spectator.Of(rec, n, spectator.Public)
			if err != nil {
				t.Fatal(err)
			}
			if v.Finished {
				break
			}
			j, _ := json.Marshal(v)
			for _, bad := range []string{`"role"`, `"black"`, `"shot"`, `"check"`, `"heal"`, `"adjust"`, `"answer"`} {
				if strings.Contains(string(j), bad) {
					t.Errorf("after %d events the public view has %s: %s", n, bad, j)
				}
			}
			if n > 0 && spectator.Hidden(rec.Events[n-1].Type) {
				if string(j) != out[len(out)-1] {
					t.Errorf("the hidden event %d (%s) changed the public view", n, rec.Events[n-1].Type)
				}
				continue
			}
			out = append(out, string(j))
		}
		return out
	}
	va, vb := views(a), views(b)
	if len(va) < 30 {
		t.Errorf("only %d views: the course ended early", len(va))
	}
	for i := 0; i < len(va) && i < len(vb); i++ {
		if va[i] != vb[i] {
			t.Fatalf("public view %d differs between the deals:\n%s\n%s", i, va[i], vb[i])
		}
	}
	// the night's result reaches the view at "day", not at the last shot
	for n := range a.Events {
		if a.Events[n].Type != mafia.EvDay || n < 2 {
			continue
		}
		before, _ := spectator.Of(a, n, spectator.Public)
		after, _ := spectator.Of(a, n+1, spectator.Public)
		if !before.Seats[4].Alive && after.Number == 2 {
			t.Errorf("seat 5 is out before the morning")
		}
		if after.Number == 2 && (after.Seats[4].Alive || after.Killed != 5 || !after.Morning) {
			t.Errorf("the morning of day 2 does not say #5 was killed: %+v", after)
		}
	}
}

// TestEndShowsEverything: once the game is over, the roles, the night's actions with the answers and the points
// are public.
func TestEndShowsEverything(t *testing.T) {
	rec := build(t, dealA)
	// A: after the disqualification of the don (#7) and the last shot, #9 alone is black; vote him out
	g, _ := rec.Replay()
	events := append([]record.Event(nil), rec.Events...)
	for _, s := range []int{4, 6, 8, 9, 10, 2} {
		events = append(events, record.Event{Event: mafia.Speech(s)})
		if s == 2 {
			events = append(events, record.Event{Event: mafia.Nominate(2, 9)})
		}
	}
	events = append(events, record.Event{Event: mafia.VoteRest(9)})
	rec.Events = events
	if g.Finished() {
		t.Fatal("finished too early")
	}
	v, err := spectator.Of(rec, -1, spectator.Public)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Finished || v.Winner != "red" || !v.Roles || v.Seats[6].Role != "don" || !v.Seats[6].Black {
		t.Fatalf("the end does not show the result and the roles: %+v", v)
	}
	var shots, checks int
	for _, l := range v.Lines {
		switch l.Type {
		case "shot":
			shots++
		case "check":
			checks++
			if l.Answer == "" {
				t.Errorf("a check without its answer at the end: %+v", l)
			}
		}
	}
	if shots != 3 || checks != 2 {
		t.Errorf("at the end the chronology has %d shots and %d checks, want 3 and 2", shots, checks)
	}
}

// TestBroadcastShowsEverything: the broadcast view has the roles and the night's actions as they happen (the
// delay is the caller's cut).
func TestBroadcastShowsEverything(t *testing.T) {
	rec := build(t, dealA)
	for n, e := range rec.Events {
		if e.Type != mafia.EvCheck {
			continue
		}
		v, err := spectator.Of(rec, n+1, spectator.Broadcast)
		if err != nil {
			t.Fatal(err)
		}
		last := v.Lines[len(v.Lines)-1]
		if last.Type != "check" || last.Answer == "" || v.Seats[6].Role != "don" {
			t.Fatalf("the broadcast after a check: last line %+v, seat 7 %+v", last, v.Seats[6])
		}
		return
	}
	t.Fatal("no check in the course")
}
