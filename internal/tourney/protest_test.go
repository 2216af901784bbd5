package tourney

import (
	"errors"
	"testing"
	"time"
)

func TestProtestWindow(t *testing.T) {
	end := time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC)
	players := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	cases := []struct {
		name string
		by   int64
		at   time.Duration
		end  time.Time
		want error
	}{
		{"at 9:59 it is accepted", 3, 9*time.Minute + 59*time.Second, end, nil},
		{"at 10:00 it is still in time", 3, 10 * time.Minute, end, nil},
		{"at 10:01 it is late", 3, 10*time.Minute + time.Second, end, ErrProtestTooLate},
		{"right at the end", 3, 0, end, nil},
		{"not a player of the game", 11, time.Minute, end, ErrNotAPlayer},
		{"the game goes on", 3, time.Minute, time.Time{}, ErrGameNotOver},
	}
	for _, c := range cases {
		_, err := File(1, c.by, players, c.end, end.Add(c.at), "result", "the vote was miscounted", nil)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.want)
		}
	}
	if _, err := File(1, 3, players, end, end, " ", "", nil); !errors.Is(err, ErrNoMatter) {
		t.Errorf("an empty matter: %v", err)
	}
}

func TestProtestDecision(t *testing.T) {
	end := time.Date(2026, 12, 5, 21, 0, 0, 0, time.UTC)
	players := []int64{1, 2, 3}
	p, err := File(7, 1, players, end, end.Add(time.Minute), "result", "the lift vote was counted wrong", nil)
	if err != nil {
		t.Fatal(err)
	}
	const chief, tableJudge = 100, 101
	if err := Decide(&p, tableJudge, chief, false, "video shows 5 hands", end.Add(5*time.Minute)); !errors.Is(err, ErrNotChiefJudge) {
		t.Errorf("a table judge decides: %v", err)
	}
	if err := Decide(&p, chief, chief, false, "", end.Add(5*time.Minute)); !errors.Is(err, ErrNoReason) {
		t.Errorf("a decision without a reason: %v", err)
	}
	if err := Decide(&p, chief, chief, false, "the video shows 5 hands", end.Add(5*time.Minute)); err != nil || !p.Decided || p.Reason == "" {
		t.Fatalf("decide: %v %+v", err, p)
	}
	if err := Decide(&p, chief, chief, true, "changed my mind", end.Add(6*time.Minute)); !errors.Is(err, ErrDecided) {
		t.Errorf("a second decision: %v", err)
	}
	existing := []Protest{p}
	// a second protest on the decided matter, by another player, within the window: refused
	if _, err := File(7, 2, players, end, end.Add(8*time.Minute), "RESULT", "again", existing); !errors.Is(err, ErrMatterDecided) {
		t.Errorf("a second protest on a decided matter: %v", err)
	}
	// the same player twice: refused; another matter by another player: accepted
	if _, err := File(7, 1, players, end, end.Add(8*time.Minute), "points", "", existing); !errors.Is(err, ErrAlreadyProtests) {
		t.Errorf("a player's second protest: %v", err)
	}
	if _, err := File(7, 3, players, end, end.Add(8*time.Minute), "points", "the best move", existing); err != nil {
		t.Errorf("another matter: %v", err)
	}
}

func TestExtraNeedsApproval(t *testing.T) {
	cases := []struct {
		won          bool
		already, add int
		needs        bool
	}{
		{true, 0, 50, false}, {true, 0, 60, true}, {true, 30, 30, true}, {true, 50, 10, true}, {true, 40, 10, false},
		{false, 0, 40, false}, {true, 60, -10, false}, {true, 0, 70, true},
		{true, 0, 75, false}, {true, 50, 30, false}, // over the cap with the agreement too: the engine's refusal says so
	}
	for _, c := range cases {
		if got := ExtraNeedsApproval(c.won, c.already, c.add); got != c.needs {
			t.Errorf("won %v, %d + %d: got %v, want %v", c.won, c.already, c.add, got, c.needs)
		}
	}
}
