package club

import "testing"

func TestSortStandings(t *testing.T) {
	list := []Standing{
		{Nick: "b", Points: 300, Wins: 2, Games: 4},
		{Nick: "a", Points: 300, Wins: 2, Games: 4},
		{Nick: "c", Points: 300, Wins: 3, Games: 5},
		{Nick: "d", Points: 300, Wins: 2, Games: 3},
		{Nick: "e", Points: 450, Wins: 1, Games: 9},
	}
	SortStandings(list)
	got := ""
	for _, s := range list {
		got += s.Nick
	}
	// more points, then more wins, then fewer games, then the nickname
	if got != "ecdab" {
		t.Errorf("order %s, want ecdab", got)
	}
	if list[0].Rank != 1 || list[4].Rank != 5 {
		t.Errorf("ranks %d..%d", list[0].Rank, list[4].Rank)
	}
}

func TestAverageAndWinRate(t *testing.T) {
	for _, c := range []struct{ points, games, avg int }{{130, 1, 130}, {100, 3, 33}, {200, 3, 67}, {-100, 3, -33}, {-200, 3, -67}, {0, 0, 0}} {
		if got := (Standing{Points: c.points, Games: c.games}).Average(); got != c.avg {
			t.Errorf("%d/%d: got %d, want %d", c.points, c.games, got, c.avg)
		}
	}
	if r := (Standing{Wins: 1, Games: 4}).WinRate(); r != 25 {
		t.Errorf("win rate %v", r)
	}
}
