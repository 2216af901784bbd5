package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// An organiser's 23 players over 8 rounds at tables of 10: two tables, three sit out each round, everyone plays 6
// or 7 games and the figures say no schedule can be equal; the same seed prints the same schedule.
func TestSeatingCommand(t *testing.T) {
	args := []string{"seating", "-players", "23", "-rounds", "8", "-seed", "7"}
	var out, errOut bytes.Buffer
	if code := run(args, nil, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var got seatingJSON
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	if got.Tables != 2 || len(got.Schedule) != 8 || len(got.SitOut) != 8 {
		t.Fatalf("%d tables, %d rounds, %d sit-out lists; want 2, 8, 8", got.Tables, len(got.Schedule), len(got.SitOut))
	}
	games := make([]int, 24)
	for r, round := range got.Schedule {
		seen := map[int]bool{}
		for _, table := range round {
			if len(table) != 10 {
				t.Errorf("round %d: a table of %d", r+1, len(table))
			}
			for _, p := range table {
				seen[p] = true
				games[p]++
			}
		}
		for _, p := range got.SitOut[r] {
			seen[p] = true
		}
		if len(seen) != 23 || len(got.SitOut[r]) != 3 {
			t.Errorf("round %d: %d distinct players, %d sit out; want 23 and 3", r+1, len(seen), len(got.SitOut[r]))
		}
	}
	for p := 1; p <= 23; p++ {
		if games[p] < 6 || games[p] > 7 || got.Quality.Games.PerPlayer[p-1] != games[p] {
			t.Errorf("player %d plays %d games (figures: %d), want 6 or 7", p, games[p], got.Quality.Games.PerPlayer[p-1])
		}
	}
	if q := got.Quality.Games; q.Equal || q.EqualPossible || q.Min != 6 || q.Max != 7 {
		t.Errorf("games figures %+v, want 6-7 and not possible to be equal", q)
	}
	if got.Quality.Seats.Max > got.Quality.Seats.Bound || got.Quality.Meeting.Max < got.Quality.Meeting.Bound {
		t.Errorf("figures against bounds: %+v %+v", got.Quality.Seats, got.Quality.Meeting)
	}
	var again bytes.Buffer
	run(args, nil, &again, &errOut)
	if again.String() != out.String() {
		t.Error("the same seed printed another schedule")
	}
}

func TestSeatingCommandRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-players", "9", "-rounds", "4"}, 1, "9 players"},
		{[]string{"-players", "30", "-rounds", "4", "-per-table", "6"}, 1, "6 players per table"},
		{[]string{"-players", "30", "-rounds", "4", "-tables", "4"}, 1, "4 tables"},
		{[]string{"-players", "30", "-rounds", "0"}, 1, "0 rounds"},
		{[]string{"-players", "many"}, 2, "invalid value"},
	} {
		var out, errOut bytes.Buffer
		code := run(append([]string{"seating"}, tc.args...), nil, &out, &errOut)
		if code != tc.code || out.Len() != 0 || !strings.Contains(errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args, code, out.String(), errOut.String(), tc.code, tc.want)
		}
	}
}
