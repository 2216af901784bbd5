package seating

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The tournament of the issue: 100 players, 10 tables of 10, 10 rounds.
func params100(seed uint64, apart [][2]int) Params {
	return Params{Players: 100, PerTable: 10, Rounds: 10, Seed: seed, Apart: apart}
}

// randomPairs returns n distinct pairs of distinct players below players, from a generator of its own.
func randomPairs(seed uint64, n, players int) [][2]int {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out [][2]int
	for len(out) < n {
		a, b := rng.IntN(players), rng.IntN(players)
		if a == b || slices.Contains(out, [2]int{a, b}) || slices.Contains(out, [2]int{b, a}) {
			continue
		}
		out = append(out, [2]int{a, b})
	}
	return out
}

func generate(t testing.TB, p Params) *Schedule {
	t.Helper()
	s, err := Generate(p)
	if err != nil {
		t.Fatalf("Generate: %v", err)
	}
	return s
}

// checkRounds checks that every round seats Tables*PerTable players and lets the others sit out, each player
// exactly once; that Place agrees with Table and SitOut; that no pair of apart shares a table and no player sits
// at a barred table; that everyone plays the same number of games, or within one when Players does not divide
// the seats of all rounds; and that sit-outs go in turn: no one sits out while a player of that round has sat out
// fewer times. It reads the schedule only through Table, SitOut and Place, not through Quality.
func checkRounds(t *testing.T, s *Schedule, p Params) {
	t.Helper()
	tables := p.Tables
	if tables == 0 {
		tables = p.Players / p.PerTable
	}
	if s.Rounds() != p.Rounds || s.PerTable() != p.PerTable || s.Tables() != tables || s.Players() != p.Players {
		t.Fatalf("shape %d rounds × %d tables of %d for %d players, want %d × %d of %d for %d",
			s.Rounds(), s.Tables(), s.PerTable(), s.Players(), p.Rounds, tables, p.PerTable, p.Players)
	}
	barred := map[[2]int]bool{}
	for _, b := range p.Barred {
		barred[b] = true
	}
	games := make([]int, p.Players)
	sat := make([]int, p.Players)
	for r := range p.Rounds {
		seen := make([]int, p.Players)
		tableOf := make([]int, p.Players)
		for tb := range s.Tables() {
			players := s.Table(r, tb)
			if len(players) != p.PerTable {
				t.Fatalf("round %d table %d has %d players, want %d", r, tb, len(players), p.PerTable)
			}
			for i, x := range players {
				seen[x]++
				games[x]++
				tableOf[x] = tb
				if gt, gs := s.Place(r, x); gt != tb || gs != i+1 {
					t.Errorf("round %d: Place(%d) = table %d seat %d, want table %d seat %d", r, x, gt, gs, tb, i+1)
				}
				if barred[[2]int{x, tb}] {
					t.Errorf("round %d: player %d at table %d, barred to him", r, x, tb)
				}
			}
		}
		out := s.SitOut(r)
		if len(out) != p.Players-tables*p.PerTable {
			t.Fatalf("round %d: %d sit out, want %d", r, len(out), p.Players-tables*p.PerTable)
		}
		least := p.Rounds
		for x := range p.Players {
			if seen[x] == 1 {
				least = min(least, sat[x])
			}
		}
		for _, x := range out {
			seen[x]++
			tableOf[x] = -1 - x
			if gt, gs := s.Place(r, x); gt != -1 || gs != 0 {
				t.Errorf("round %d: Place(%d) = table %d seat %d for a player sitting out", r, x, gt, gs)
			}
			if sat[x] > least {
				t.Errorf("round %d: player %d sits out for the %d. time while a player of the round sat out %d times",
					r, x, sat[x]+1, least)
			}
		}
		for _, x := range out {
			sat[x]++
		}
		for x, c := range seen {
			if c != 1 {
				t.Fatalf("round %d: player %d is named %d times, want once", r, x, c)
			}
		}
		for _, q := range p.Apart {
			if tableOf[q[0]] == tableOf[q[1]] {
				t.Errorf("round %d: players %d and %d, kept apart, both at table %d", r, q[0], q[1], tableOf[q[0]])
			}
		}
	}
	lo, hi := slices.Min(games), slices.Max(games)
	total := p.Rounds * tables * p.PerTable
	if want := total / p.Players; lo != want || hi != (total+p.Players-1)/p.Players {
		t.Errorf("players play %d to %d games; want %d to %d", lo, hi, want, (total+p.Players-1)/p.Players)
	}
	q := s.Quality()
	if !slices.Equal(q.Games, games) || q.Equal() != (lo == hi) || q.EqualPossible != (total%p.Players == 0) || q.SitOutsEarly != 0 {
		t.Errorf("Quality: games %v equal %v possible %v early %d; counted %v", q.Games, q.Equal(), q.EqualPossible, q.SitOutsEarly, games)
	}
	// Seat numbers: a player of g games at each seat number ⌊g/PerTable⌋ or ⌈g/PerTable⌉ times.
	for x, g := range games {
		for c, n := range q.SeatCounts[x] {
			if n < g/p.PerTable || n > (g+p.PerTable-1)/p.PerTable {
				t.Errorf("player %d of %d games sits at seat %d %d times", x, g, c+1, n)
			}
		}
	}
}

// The quality of the 100-player tournament, with 30 random pairs kept apart, for several seeds. Measured
// (seeds 1-4, Iterations default): every player at every seat number exactly once; every player at any one
// table at most twice; pairs meet at most twice; 880-920 of the 4950 pairs meet twice; every player meets 65-79
// distinct others. The bounds below leave a margin over those figures: the seat balance is exact by
// construction (no margin), at most 2 games at a table and 2 meetings (none needed), at most 1000 pairs meeting
// twice and at least 60 distinct opponents.
func TestQuality100(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			p := params100(seed, randomPairs(seed, 30, 100))
			s := generate(t, p)
			checkRounds(t, s, p)
			q := s.Quality()
			t.Logf("\n%s", q)
			if q.SeatMin != 1 || q.SeatMax != 1 || q.SeatSpread != 0 || q.PlayerSeatSpread != 0 {
				t.Errorf("seat counts %d-%d, spreads %d and %d; want every player at every seat exactly once",
					q.SeatMin, q.SeatMax, q.SeatSpread, q.PlayerSeatSpread)
			}
			if q.ApartMeetings != 0 || q.BarredPlaces != 0 {
				t.Errorf("%d apart pairs met, %d barred places; want 0", q.ApartMeetings, q.BarredPlaces)
			}
			if q.MeetMax > 2 {
				t.Errorf("a pair meets %d times; want at most 2", q.MeetMax)
			}
			if r := q.Repeats(); r > 1000 {
				t.Errorf("%d pairs meet more than once; want at most 1000", r)
			}
			if q.OpponentsMin < 60 {
				t.Errorf("a player meets only %d others; want at least 60", q.OpponentsMin)
			}
			if q.TableMax > 2 || q.TableBound != 1 {
				t.Errorf("a player plays %d times at one table (bound %d); want at most 2", q.TableMax, q.TableBound)
			}
			pairs, meetings := 0, 0
			for m, c := range q.MeetHistogram {
				pairs += c
				meetings += m * c
			}
			if pairs != 100*99/2 || meetings != 10*10*(10*9/2) {
				t.Errorf("histogram counts %d pairs and %d meetings; want 4950 and 4500", pairs, meetings)
			}
		})
	}
}

// Other sizes: the seat numbers are balanced to within one (exactly when PerTable divides Rounds), every table
// of every round has each seat number once, and Barred holds.
func TestShapes(t *testing.T) {
	for _, p := range []Params{
		{Players: 56, PerTable: 8, Rounds: 12, Seed: 3, Barred: [][2]int{{0, 0}, {0, 1}, {5, 6}}},
		{Players: 70, PerTable: 7, Rounds: 5, Seed: 4, Apart: [][2]int{{0, 1}, {1, 2}, {0, 2}}},
		{Players: 90, PerTable: 9, Rounds: 18, Seed: 5, Iterations: 500},
		{Players: 7, PerTable: 7, Rounds: 3, Seed: 6},
		{Players: 20, PerTable: 10, Rounds: 1, Seed: 7, Apart: randomPairs(7, 5, 20)},
		{Players: 30, PerTable: 10, Rounds: 25, Seed: 8, Iterations: 300},
		// players sitting out
		{Players: 23, PerTable: 7, Rounds: 9, Seed: 9, Barred: [][2]int{{0, 2}, {1, 2}, {2, 2}}},
		{Players: 30, PerTable: 10, Rounds: 7, Tables: 2, Seed: 10, Apart: [][2]int{{0, 1}, {2, 3}}},
		{Players: 12, PerTable: 10, Rounds: 12, Seed: 11},
		{Players: 95, PerTable: 9, Rounds: 10, Tables: 8, Seed: 12, Apart: randomPairs(12, 20, 95), Barred: [][2]int{{4, 0}}},
	} {
		t.Run(fmt.Sprintf("%dp-%dt-%dr", p.Players, p.PerTable, p.Rounds), func(t *testing.T) {
			s := generate(t, p)
			checkRounds(t, s, p)
			q := s.Quality()
			if q.SeatMax != q.SeatBound {
				t.Errorf("a player sits %d times at one seat number; the bound is %d", q.SeatMax, q.SeatBound)
			}
			if q.ApartMeetings != 0 || q.BarredPlaces != 0 {
				t.Errorf("%d apart pairs met, %d barred places; want 0", q.ApartMeetings, q.BarredPlaces)
			}
		})
	}
}

// Any number of players from one table of 10 up to 60, over 1 to 12 rounds: a schedule where everyone plays
// the same number of games when the sizes allow it and within one otherwise, sit-outs in turn and seat numbers
// balanced (checkRounds), with two pairs kept apart; or, with a single table, where an apart pair cannot always
// be split, a refusal that says so. The search is cut short (Iterations 20): these properties do not depend on
// it. One table and an apart pair are refused for a reason the organiser understands.
func TestAnyNumber(t *testing.T) {
	for n := 10; n <= 60; n++ {
		for rounds := 1; rounds <= 12; rounds++ {
			p := Params{Players: n, PerTable: 10, Rounds: rounds, Seed: uint64(n*100 + rounds), Iterations: 20,
				Apart: [][2]int{{0, n - 1}, {1, n / 2}}}
			s, err := Generate(p)
			if err != nil {
				msg := err.Error()
				if n >= 20 || !errors.Is(err, ErrInfeasible) || !strings.Contains(msg, "at one table, players") && !strings.Contains(msg, "kept apart from 1 players") {
					t.Errorf("%d players, %d rounds: %v", n, rounds, err)
				}
				p.Apart = nil
				s = generate(t, p)
			}
			checkRounds(t, s, p)
		}
	}
}

// The sizes of the issue, tables of 10 and default iterations: everyone plays equally or within one (checkRounds)
// and, as measured (docs/seating.md), every player plays at each table as evenly as the bound allows; the test
// allows one more. Meetings: within two of the pigeonhole bound (measured: 20x10 6 for 5, where coding theory
// proves 6 the least; 23x8 5 for 3; 30x10 5 for 4; 37x12 4 for 3).
func TestTableBalance(t *testing.T) {
	for _, sz := range [][2]int{{20, 10}, {23, 8}, {30, 10}, {37, 12}} {
		for seed := uint64(1); seed <= 2; seed++ {
			// One pair kept apart: at two tables, {a b} and {b c} apart would seat a and c together in every
			// round they both play.
			p := Params{Players: sz[0], PerTable: 10, Rounds: sz[1], Seed: seed, Apart: [][2]int{{0, 1}}}
			t.Run(fmt.Sprintf("%dx%d-seed%d", sz[0], sz[1], seed), func(t *testing.T) {
				s := generate(t, p)
				checkRounds(t, s, p)
				q := s.Quality()
				t.Logf("\n%s", q)
				if q.TableMax > q.TableBound+1 {
					t.Errorf("a player plays %d times at one table; the bound is %d", q.TableMax, q.TableBound)
				}
				// the bound itself, checked by hand: ⌈most games / tables⌉
				if want := (q.GamesMax + s.Tables() - 1) / s.Tables(); q.TableBound != want {
					t.Errorf("TableBound %d, want %d", q.TableBound, want)
				}
				if q.MeetMax > q.MeetBound+2 {
					t.Errorf("a pair meets %d times; the bound is %d", q.MeetMax, q.MeetBound)
				}
				if q.ApartMeetings != 0 {
					t.Errorf("%d apart pairs met", q.ApartMeetings)
				}
			})
		}
	}
}

// A tournament whose players do not fill the tables: 23 at 2 tables of 10 over 8 rounds play 6 or 7 games, and
// no schedule can be equal (23 does not divide 160).
func TestSitOuts23(t *testing.T) {
	p := Params{Players: 23, PerTable: 10, Rounds: 8, Seed: 5}
	s := generate(t, p)
	checkRounds(t, s, p)
	q := s.Quality()
	if q.GamesMin != 6 || q.GamesMax != 7 || q.Equal() || q.EqualPossible || q.SitOutsMin != 1 || q.SitOutsMax != 2 {
		t.Errorf("games %d-%d (equal %v, possible %v), sit-outs %d-%d; want 6-7, false, false, 1-2",
			q.GamesMin, q.GamesMax, q.Equal(), q.EqualPossible, q.SitOutsMin, q.SitOutsMax)
	}
	twice := 0
	for _, g := range q.Games {
		if g == 6 {
			twice++
		}
	}
	if twice != 1 {
		t.Errorf("%d players sit out twice; want 1 (24 sit-outs for 23 players)", twice)
	}
	if !strings.Contains(q.String(), "games: every player plays 6-7 (no schedule of this size can be equal)") {
		t.Errorf("the summary does not say the games are unequal:\n%s", q)
	}
	// 25 players over 5 rounds: 25 sit-outs, everyone once, equal.
	p = Params{Players: 25, PerTable: 10, Rounds: 5, Seed: 5}
	s = generate(t, p)
	checkRounds(t, s, p)
	if q := s.Quality(); !q.Equal() || !q.EqualPossible || q.GamesMin != 4 || q.SitOutsMax != 1 {
		t.Errorf("25 players over 5 rounds: games %d-%d, sit-outs up to %d; want everyone 4 games, 1 sit-out", q.GamesMin, q.GamesMax, q.SitOutsMax)
	}
}

// A player sitting out can take a seated player's place, who then sits out; the constraints still hold.
func TestSwapSitOut(t *testing.T) {
	p := Params{Players: 23, PerTable: 10, Rounds: 8, Seed: 3, Apart: [][2]int{{0, 1}}, Barred: [][2]int{{2, 1}}}
	s := generate(t, p)
	checkRounds(t, s, p)
	snap := snapshot(s)
	refused := 0
	for r := range p.Rounds {
		out := s.SitOut(r)
		if t1, _ := s.Place(r, 1); slices.Contains(out, 0) && t1 >= 0 {
			x := s.Table(r, t1)[0]
			if x == 1 {
				x = s.Table(r, t1)[1]
			}
			err := s.Swap(r, x, 0)
			if !errors.Is(err, ErrApart) || !strings.Contains(err.Error(), "players 0 and 1 are kept apart") {
				t.Errorf("round %d: Swap(%d, 0) = %v; want ErrApart naming players 0 and 1", r, x, err)
			}
			refused++
		}
		if slices.Contains(out, 2) {
			err := s.Swap(r, 2, s.Table(r, 1)[3])
			if !errors.Is(err, ErrApart) || !strings.Contains(err.Error(), "player 2 is barred from table 1") {
				t.Errorf("round %d: swap of 2 into table 1 = %v; want ErrApart naming player 2 and table 1", r, err)
			}
			refused++
		}
	}
	if refused < 2 {
		t.Fatalf("only %d refusals tried", refused)
	}
	if !equalSnapshots(snap, snapshot(s)) || len(s.Swaps()) != 0 {
		t.Fatal("a refused swap changed the schedule")
	}

	const r = 2
	out := s.SitOut(r)
	y := out[0]
	if y < 3 {
		y = out[1]
	}
	x := s.Table(r, 0)[4]
	for x < 3 {
		x++
	}
	before := s.Quality()
	tx, sx := s.Place(r, x)
	if err := s.Swap(r, x, y); err != nil {
		t.Fatalf("Swap(%d, %d, %d): %v", r, x, y, err)
	}
	if gt, gs := s.Place(r, y); gt != tx || gs != sx {
		t.Errorf("player %d is at table %d seat %d, want %d seat %d", y, gt, gs, tx, sx)
	}
	if gt, _ := s.Place(r, x); gt != -1 || !slices.Contains(s.SitOut(r), x) || slices.Contains(s.SitOut(r), y) {
		t.Errorf("player %d does not sit out round %d: sitting out %v", x, r, s.SitOut(r))
	}
	after := s.Quality()
	if after.Games[x] != before.Games[x]-1 || after.Games[y] != before.Games[y]+1 {
		t.Errorf("games of %d and %d: %d, %d; want %d, %d", x, y, after.Games[x], after.Games[y], before.Games[x]-1, before.Games[y]+1)
	}
	if after.ApartMeetings != 0 || after.BarredPlaces != 0 {
		t.Errorf("after the swap: %d apart meetings, %d barred places", after.ApartMeetings, after.BarredPlaces)
	}
	if err := s.Swap(r, x, s.SitOut(r)[0]); err == nil || !strings.Contains(err.Error(), "both sit out") {
		t.Errorf("a swap of two players sitting out = %v; want an error", err)
	}
	// replayed from the recorded Params and swaps
	s2 := generate(t, s.Params())
	for _, w := range s.Swaps() {
		if err := s2.Swap(w.Round, w.A, w.B); err != nil {
			t.Fatal(err)
		}
	}
	if !equalSnapshots(snapshot(s), snapshot(s2)) || !slices.Equal(s.SitOut(r), s2.SitOut(r)) {
		t.Error("the recorded seed and swaps rebuilt another schedule")
	}
}

func snapshot(s *Schedule) [][]int {
	var out [][]int
	for r := range s.Rounds() {
		for tb := range s.Tables() {
			out = append(out, s.Table(r, tb))
		}
		out = append(out, s.SitOut(r))
	}
	return out
}

func equalSnapshots(a, b [][]int) bool {
	return slices.EqualFunc(a, b, slices.Equal[[]int])
}

func TestReproducible(t *testing.T) {
	p := params100(42, randomPairs(42, 30, 100))
	s1, s2 := generate(t, p), generate(t, p)
	if !equalSnapshots(snapshot(s1), snapshot(s2)) {
		t.Fatal("the same Params gave two schedules")
	}
	// The recorded parameters and swaps rebuild the schedule, swaps included.
	a, b := s1.Table(3, 0)[0], s1.Table(3, 1)[0]
	if err := s1.Swap(3, a, b); err != nil {
		t.Fatalf("Swap: %v", err)
	}
	s3 := generate(t, s1.Params())
	for _, w := range s1.Swaps() {
		if err := s3.Swap(w.Round, w.A, w.B); err != nil {
			t.Fatalf("replayed Swap: %v", err)
		}
	}
	if !equalSnapshots(snapshot(s1), snapshot(s3)) {
		t.Fatal("the recorded seed and swaps rebuilt another schedule")
	}
	// Another seed, another schedule.
	p.Seed = 43
	if equalSnapshots(snapshot(s2), snapshot(generate(t, p))) {
		t.Fatal("seeds 42 and 43 gave the same schedule")
	}
	// With players sitting out, and fewer tables than they fill.
	q := Params{Players: 37, PerTable: 10, Rounds: 12, Tables: 2, Seed: 7, Apart: randomPairs(7, 5, 37)}
	if !equalSnapshots(snapshot(generate(t, q)), snapshot(generate(t, q))) {
		t.Fatal("the same Params with sit-outs gave two schedules")
	}
	// Params is a copy: changing what it returns changes nothing.
	got := s1.Params()
	got.Apart[0] = [2]int{0, 0}
	if s1.Params().Apart[0] == [2]int{0, 0} {
		t.Fatal("Params shares its slices with the schedule")
	}
}

func TestSwap(t *testing.T) {
	apart := [][2]int{{3, 17}}
	p := Params{Players: 100, PerTable: 10, Rounds: 10, Seed: 9, Apart: apart, Barred: [][2]int{{5, 2}}}
	s := generate(t, p)
	before := s.Quality()

	// Player 3 may not join 17's table: swap him with someone else at that table.
	const r = 4
	t17, _ := s.Place(r, 17)
	other := s.Table(r, t17)[0]
	if other == 17 {
		other = s.Table(r, t17)[1]
	}
	snap := snapshot(s)
	err := s.Swap(r, 3, other)
	if !errors.Is(err, ErrApart) || !strings.Contains(err.Error(), "players 3 and 17") {
		t.Fatalf("Swap(%d, 3, %d) = %v; want ErrApart naming players 3 and 17", r, other, err)
	}
	// And the other way round: 17's tablemate moving to 3's table is fine, 3 moving is not.
	if err := s.Swap(r, other, 3); !errors.Is(err, ErrApart) {
		t.Fatalf("Swap(%d, %d, 3) = %v; want ErrApart", r, other, err)
	}
	// Player 5 may not sit at table 2.
	if t5, _ := s.Place(r, 5); t5 != 2 {
		err := s.Swap(r, 5, s.Table(r, 2)[0])
		if !errors.Is(err, ErrApart) || !strings.Contains(err.Error(), "player 5 is barred from table 2") {
			t.Fatalf("Swap to a barred table = %v; want ErrApart naming player 5 and table 2", err)
		}
	}
	if !equalSnapshots(snap, snapshot(s)) || len(s.Swaps()) != 0 {
		t.Fatal("a refused swap changed the schedule")
	}

	// An allowed swap between tables: the places are exchanged and the figures follow.
	a, b := -1, -1
	for _, x := range s.Table(r, 0) {
		for _, y := range s.Table(r, 1) {
			_, sx := s.Place(r, x)
			_, sy := s.Place(r, y)
			if a < 0 && sx != sy && !slices.Contains([]int{3, 17, 5}, x) && !slices.Contains([]int{3, 17, 5}, y) {
				a, b = x, y
			}
		}
	}
	ta, sa := s.Place(r, a)
	tb, sb := s.Place(r, b)
	if err := s.Swap(r, a, b); err != nil {
		t.Fatalf("Swap(%d, %d, %d): %v", r, a, b, err)
	}
	if gt, gs := s.Place(r, a); gt != tb || gs != sb {
		t.Errorf("after the swap player %d is at table %d seat %d, want table %d seat %d", a, gt, gs, tb, sb)
	}
	if gt, gs := s.Place(r, b); gt != ta || gs != sa {
		t.Errorf("after the swap player %d is at table %d seat %d, want table %d seat %d", b, gt, gs, ta, sa)
	}
	after := s.Quality()
	if after.SeatCounts[a][sb-1] != 2 || after.SeatCounts[a][sa-1] != 0 || after.PlayerSeatSpread != 2 {
		t.Errorf("after the swap player %d has seat counts %v (spread %d); want seat %d twice and seat %d never",
			a, after.SeatCounts[a], after.PlayerSeatSpread, sb, sa)
	}
	if slices.Equal(before.MeetHistogram, after.MeetHistogram) && before.OpponentsMin == after.OpponentsMin {
		t.Logf("meetings unchanged by the swap (possible, but unlikely): %v", after.MeetHistogram)
	}
	if after.ApartMeetings != 0 || after.BarredPlaces != 0 {
		t.Errorf("after an allowed swap: %d apart meetings, %d barred places", after.ApartMeetings, after.BarredPlaces)
	}
	// A swap within a table exchanges seat numbers only, and undoes the seat imbalance.
	a2 := s.Table(r, tb)[sa-1]
	if err := s.Swap(r, a, a2); err != nil {
		t.Fatalf("Swap within a table: %v", err)
	}
	if q := s.Quality(); q.SeatCounts[a][sa-1] != 1 {
		t.Errorf("after the swap within the table player %d has seat counts %v", a, q.SeatCounts[a])
	}
	if got := s.Swaps(); len(got) != 2 || got[0] != (SwapRecord{r, a, b}) {
		t.Errorf("Swaps() = %v", got)
	}

	for _, c := range []struct {
		round, a, b int
		want        string
	}{
		{-1, 0, 1, "round -1"},
		{10, 0, 1, "round 10"},
		{0, 0, 100, "players are 0 to 99"},
		{0, -1, 1, "players are 0 to 99"},
		{0, 7, 7, "with himself"},
	} {
		if err := s.Swap(c.round, c.a, c.b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Swap(%d, %d, %d) = %v; want an error with %q", c.round, c.a, c.b, err, c.want)
		}
	}
}

func TestParamErrors(t *testing.T) {
	base := params100(1, nil)
	many := make([][2]int, 0, 91)
	for b := 1; b <= 91; b++ {
		many = append(many, [2]int{0, b})
	}
	var barAll, barSeven [][2]int
	for tb := range 10 {
		barAll = append(barAll, [2]int{4, tb})
	}
	for p := range 8 { // 14 players at 2 tables: 8 players all barred from table 1 cannot share table 0
		barSeven = append(barSeven, [2]int{p, 1})
	}
	for _, c := range []struct {
		name   string
		change func(*Params)
		want   string
		infeas bool
	}{
		{"no players", func(p *Params) { p.Players = 0 }, "0 players", false},
		{"too many players", func(p *Params) { p.Players = 2000 }, "2000 players", false},
		{"under one table", func(p *Params) { p.Players = 9 }, "9 players; want 10 (one full table)", false},
		{"too many tables", func(p *Params) { p.Players, p.Tables = 95, 10 }, "10 tables; 95 players fill 1 to 9 tables of 10", false},
		{"negative tables", func(p *Params) { p.Tables = -1 }, "-1 tables", false},
		{"barred table beyond Tables", func(p *Params) { p.Tables = 5; p.Barred = [][2]int{{1, 5}} }, "Barred[0] = [1 5]: tables are 0 to 4", false},
		{"small table", func(p *Params) { p.PerTable = 6; p.Players = 96 }, "6 players per table; want 7 to 10", false},
		{"big table", func(p *Params) { p.PerTable = 11; p.Players = 99 }, "11 players per table", false},
		{"no rounds", func(p *Params) { p.Rounds = 0 }, "0 rounds", false},
		{"too many rounds", func(p *Params) { p.Rounds = 101 }, "101 rounds", false},
		{"iterations", func(p *Params) { p.Iterations = -1 }, "-1 iterations", false},
		{"apart out of range", func(p *Params) { p.Apart = [][2]int{{1, 2}, {3, 100}} }, "Apart[1] = [3 100]: players are 0 to 99", false},
		{"apart negative", func(p *Params) { p.Apart = [][2]int{{-1, 2}} }, "Apart[0]", false},
		{"apart from himself", func(p *Params) { p.Apart = [][2]int{{5, 5}} }, "player 5 cannot be kept apart from himself", false},
		{"barred player", func(p *Params) { p.Barred = [][2]int{{100, 0}} }, "Barred[0] = [100 0]: players", false},
		{"barred table", func(p *Params) { p.Barred = [][2]int{{1, 10}} }, "Barred[0] = [1 10]: tables are 0 to 9", false},
		{"apart from too many", func(p *Params) { p.Apart = many }, "player 0 is kept apart from 91 players", true},
		{"one table", func(p *Params) { p.Players = 10; p.Apart = [][2]int{{1, 2}} }, "player 1 is kept apart from 1 players", true},
		{"barred everywhere", func(p *Params) { p.Barred = barAll }, "player 4 is barred from every table", true},
		{"bars too tight", func(p *Params) { p.Players, p.PerTable, p.Barred = 14, 7, barSeven }, "too few tables", true},
		{"apart triangle at two tables", func(p *Params) {
			p.Players, p.PerTable, p.Rounds, p.Apart = 20, 10, 2, [][2]int{{0, 1}, {1, 2}, {0, 2}}
		}, "still break Apart", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := base
			c.change(&p)
			s, err := Generate(p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Generate = %v, %v; want an error with %q", s, err, c.want)
			}
			if errors.Is(err, ErrInfeasible) != c.infeas {
				t.Errorf("errors.Is(%v, ErrInfeasible) = %v, want %v", err, !c.infeas, c.infeas)
			}
		})
	}
}

func TestPrint(t *testing.T) {
	p := Params{Players: 20, PerTable: 10, Rounds: 2, Seed: 11}
	s := generate(t, p)
	var b bytes.Buffer
	if err := s.Print(&b, func(x int) string { return fmt.Sprintf("P%02d", x+1) }); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Round 1", "Round 2", "Table 2", "P20", "Seed 11\n", "seat numbers:", "meetings:", "0 pairs kept apart met"} {
		if !strings.Contains(out, want) {
			t.Errorf("Print lacks %q:\n%s", want, out)
		}
	}
	// The first table of round 1, in seat order, is the second line.
	row := strings.Fields(strings.Split(out, "\n")[1])
	first := s.Table(0, 0)
	if len(row) != 12 || row[2] != fmt.Sprintf("P%02d", first[0]+1) || row[11] != fmt.Sprintf("P%02d", first[9]+1) {
		t.Errorf("first table row %q, want Table 1 then %v", row, first)
	}
	b.Reset()
	if err := s.PrintPlayers(&b, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 21 {
		t.Fatalf("PrintPlayers wrote %d lines, want 21:\n%s", len(lines), b.String())
	}
	tb, seat := s.Place(1, 7)
	if f := strings.Fields(lines[8]); f[0] != "7" || f[2] != fmt.Sprintf("%d-%d", tb+1, seat) {
		t.Errorf("player 7's card %q, want round 2 at %d-%d", lines[8], tb+1, seat)
	}
}

func TestPrintSitOut(t *testing.T) {
	s := generate(t, Params{Players: 12, PerTable: 10, Rounds: 2, Seed: 1})
	var b bytes.Buffer
	if err := s.Print(&b, nil); err != nil {
		t.Fatal(err)
	}
	out := s.SitOut(1)
	if want := fmt.Sprintf("Sitting out: %d, %d\n", out[0], out[1]); !strings.Contains(b.String(), want) {
		t.Errorf("Print lacks %q:\n%s", want, b.String())
	}
	b.Reset()
	if err := s.PrintPlayers(&b, nil); err != nil {
		t.Fatal(err)
	}
	line := strings.Fields(strings.Split(b.String(), "\n")[out[0]+1])
	if line[0] != fmt.Sprint(out[0]) || line[2] != "-" {
		t.Errorf("player %d's card %q; want - in round 2", out[0], line)
	}
}

// BenchmarkGenerate100 is the tournament: 100 players, 10 tables of 10, 10 rounds, 30 pairs apart.
func BenchmarkGenerate100(b *testing.B) {
	p := params100(1, randomPairs(1, 30, 100))
	for b.Loop() {
		if _, err := Generate(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGenerate times the sizes of docs/seating.md (players x rounds, tables of 10, seed 1, no constraints)
// and reports the figures of the last schedule against their bounds: go test ./internal/seating -run '^$'
// -bench Generate/ -benchtime 3x.
func BenchmarkGenerate(b *testing.B) {
	for _, sz := range [][2]int{{20, 10}, {23, 8}, {30, 10}, {37, 12}, {100, 10}} {
		b.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(b *testing.B) {
			p := Params{Players: sz[0], PerTable: 10, Rounds: sz[1], Seed: 1}
			var s *Schedule
			for b.Loop() {
				s = generate(b, p)
			}
			q := s.Quality()
			b.ReportMetric(float64(q.GamesMax-q.GamesMin), "games-spread")
			b.ReportMetric(float64(q.SeatMax), "seat-max")
			b.ReportMetric(float64(q.SeatBound), "seat-bound")
			b.ReportMetric(float64(q.TableMax), "table-max")
			b.ReportMetric(float64(q.TableBound), "table-bound")
			b.ReportMetric(float64(q.MeetMax), "meet-max")
			b.ReportMetric(float64(q.MeetBound), "meet-bound")
			b.ReportMetric(float64(q.MeetHistogram[q.MeetMax]), "pairs-at-max")
		})
	}
}
