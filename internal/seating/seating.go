package seating

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
)

// Limits of the parameters.
const (
	MinPerTable = 7    // the smallest table of a club game
	MaxPerTable = 10   // the largest
	MaxPlayers  = 1000 // the meeting matrix is Players² counters
	MaxRounds   = 100
)

// DefaultIterations is the number of annealing moves per player and round when Params.Iterations is 0:
// 100 players and 10 rounds make 3,000,000 moves.
const DefaultIterations = 3000

// MinMoves is the least number of annealing moves Generate spends on a schedule whose Iterations give fewer: it
// runs the search again, up to 8 times in all (maxRuns), and keeps the best result (20 players over 10 rounds: 5
// runs). The default for 100 players and 10 rounds is one run.
const MinMoves = 3_000_000

const maxRuns = 8

// ErrApart is wrapped by the error of a Swap that would seat a pair kept apart, or a player at a table barred to
// him, together.
var ErrApart = errors.New("kept apart")

// ErrInfeasible is wrapped by Generate's error when the constraints cannot be met: detected before the search, or
// still violated when the search ends.
var ErrInfeasible = errors.New("constraints cannot be met")

// Params describe a schedule. Generate returns the same schedule for the same Params.
type Params struct {
	Players  int // the players are 0..Players-1; at least PerTable (one full table)
	PerTable int // players at a table, MinPerTable..MaxPerTable; every table of every round is full
	Rounds   int // 1..MaxRounds
	// Tables is the number of tables in every round, 1..Players/PerTable; 0 means Players/PerTable (as many full
	// tables as the players fill). The Players-Tables*PerTable players left over sit out the round, in turn.
	Tables int
	Seed   uint64
	// Apart lists pairs of players who never sit at one table (an organiser's decision: relatives, a
	// conflict). The order inside a pair and repeated pairs do not matter.
	Apart [][2]int
	// Barred lists {player, table} pairs: the player never sits at that table (tables are 0..Tables-1, the same
	// physical table in every round, for instance because its judge has a conflict with him). Sitting out is
	// never barred.
	Barred [][2]int
	// Iterations is the number of annealing moves per player and round; 0 means DefaultIterations.
	Iterations int
}

// SwapRecord is one manual swap, as recorded by Schedule.Swap.
type SwapRecord struct{ Round, A, B int }

// Schedule is a generated seating: in every round, every table's players in seat order, and the players who sit
// the round out. Rounds, tables and players are 0-based indices; a seat number is 1..PerTable. A Schedule is not
// safe for concurrent use.
type Schedule struct {
	params Params
	tables int
	seated int     // tables*PerTable: the players of a round
	seats  [][]int // [round][i] = player: i < seated is table i/PerTable, seat i%PerTable+1; the rest sit out
	where  [][]int // [round][player] = i
	apart  []bool  // [a*Players + b], symmetric
	barred []bool  // [player*tables + table]
	pairs  [][2]int
	swaps  []SwapRecord
}

// Generate builds the schedule for p, or says why it cannot.
func Generate(p Params) (*Schedule, error) {
	if err := validate(p); err != nil {
		return nil, err
	}
	s := newSchedule(p)
	if err := s.checkApart(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x6d61666961636c75))
	s.sitOut(rng)
	if err := s.checkSeated(); err != nil {
		return nil, err
	}
	it := p.Iterations
	if it == 0 {
		it = DefaultIterations
	}
	// A small schedule's search is short and its few tables make the cost landscape rugged: it is run again from
	// a new construction, as often as MinMoves allows (at most maxRuns times), and the cheapest result is kept.
	moves := int64(it) * int64(p.Players) * int64(p.Rounds)
	runs := int(min(maxRuns, max(1, MinMoves/moves)))
	var best [][]int
	bestCost := 0
	var a *annealer
	for run := range runs {
		a = newAnnealer(s, rng)
		a.construct()
		a.anneal(moves)
		if c := a.cost(); run == 0 || c < bestCost {
			bestCost = c
			best = best[:0]
			for r := range s.seats {
				best = append(best, slices.Clone(s.seats[r]))
			}
		}
	}
	for r, seats := range best {
		copy(s.seats[r], seats)
		for i, x := range seats {
			s.where[r][x] = i
		}
	}
	if v := a.violations(); v > 0 {
		return nil, fmt.Errorf("seating: %w: %d places still break Apart or Barred after the search (try another seed or more iterations)", ErrInfeasible, v)
	}
	s.assignSeats(rng)
	return s, nil
}

func validate(p Params) error {
	switch {
	case p.PerTable < MinPerTable || p.PerTable > MaxPerTable:
		return fmt.Errorf("seating: %d players per table; want %d to %d", p.PerTable, MinPerTable, MaxPerTable)
	case p.Players < p.PerTable || p.Players > MaxPlayers:
		return fmt.Errorf("seating: %d players; want %d (one full table) to %d", p.Players, p.PerTable, MaxPlayers)
	case p.Tables < 0 || p.Tables > p.Players/p.PerTable:
		return fmt.Errorf("seating: %d tables; %d players fill 1 to %d tables of %d (0 means %[3]d)",
			p.Tables, p.Players, p.Players/p.PerTable, p.PerTable)
	case p.Rounds < 1 || p.Rounds > MaxRounds:
		return fmt.Errorf("seating: %d rounds; want 1 to %d", p.Rounds, MaxRounds)
	case p.Iterations < 0:
		return fmt.Errorf("seating: %d iterations; want 0 (the default) or more", p.Iterations)
	}
	for i, q := range p.Apart {
		if q[0] < 0 || q[0] >= p.Players || q[1] < 0 || q[1] >= p.Players {
			return fmt.Errorf("seating: Apart[%d] = %v: players are 0 to %d", i, q, p.Players-1)
		}
		if q[0] == q[1] {
			return fmt.Errorf("seating: Apart[%d]: player %d cannot be kept apart from himself", i, q[0])
		}
	}
	tables := tablesOf(p)
	for i, b := range p.Barred {
		if b[0] < 0 || b[0] >= p.Players {
			return fmt.Errorf("seating: Barred[%d] = %v: players are 0 to %d", i, b, p.Players-1)
		}
		if b[1] < 0 || b[1] >= tables {
			return fmt.Errorf("seating: Barred[%d] = %v: tables are 0 to %d", i, b, tables-1)
		}
	}
	return nil
}

// tablesOf is the number of tables of a round: p.Tables, or as many as the players fill.
func tablesOf(p Params) int {
	if p.Tables > 0 {
		return p.Tables
	}
	return p.Players / p.PerTable
}

func newSchedule(p Params) *Schedule {
	n, tables := p.Players, tablesOf(p)
	p.Apart = slices.Clone(p.Apart)
	p.Barred = slices.Clone(p.Barred)
	s := &Schedule{params: p, tables: tables, seated: tables * p.PerTable, apart: make([]bool, n*n), barred: make([]bool, n*tables)}
	for _, q := range p.Apart {
		a, b := min(q[0], q[1]), max(q[0], q[1])
		if !s.apart[a*n+b] {
			s.pairs = append(s.pairs, [2]int{a, b})
		}
		s.apart[a*n+b], s.apart[b*n+a] = true, true
	}
	slices.SortFunc(s.pairs, func(x, y [2]int) int {
		if x[0] != y[0] {
			return x[0] - y[0]
		}
		return x[1] - y[1]
	})
	for _, b := range p.Barred {
		s.barred[b[0]*tables+b[1]] = true
	}
	s.seats = make([][]int, p.Rounds)
	s.where = make([][]int, p.Rounds)
	for r := range s.seats {
		s.seats[r] = make([]int, n)
		s.where[r] = make([]int, n)
	}
	return s
}

// checkApart refuses a player kept apart from too many others to fill his table. A conflict among Apart pairs
// that only a search reveals (more players all apart from each other than there are tables) ends in Generate's
// error after the search.
func (s *Schedule) checkApart() error {
	n, k := s.params.Players, s.params.PerTable
	for a := range n {
		deg := 0
		for b := range n {
			if s.apart[a*n+b] {
				deg++
			}
		}
		if deg > n-k {
			return fmt.Errorf("seating: %w: player %d is kept apart from %d players; with %d players at tables of %d at most %d are possible",
				ErrInfeasible, a, deg, n, k, n-k)
		}
	}
	return nil
}

// sitOut chooses who sits out which round: the players take turns in cycles, each cycle a random order of all
// the players, and the Players-seated sit-outs of a round are the next ones in turn. So no one sits out twice
// before everyone has sat out once (nor three times before everyone twice, ...), and every player plays
// ⌊Rounds*seated/Players⌋ or ⌈Rounds*seated/Players⌉ games. A cycle puts the players who sat out last in the
// previous cycle (the last sit-outs of a round) at its end, in the same order, so that nobody sits out two rounds
// running where it can be avoided, and a round where two cycles meet never names a player twice. The round's
// players fill seats[r][:seated] in player order, for construct to place.
func (s *Schedule) sitOut(rng *rand.Rand) {
	n, out := s.params.Players, s.params.Players-s.seated
	var turn []int // the sit-outs in order, Rounds*out of them
	var prev []int // the previous cycle
	for len(turn) < s.params.Rounds*out {
		cycle := rng.Perm(n)
		if prev != nil {
			last := prev[n-out:]
			isLast := make([]bool, n)
			for _, p := range last {
				isLast[p] = true
			}
			cycle = slices.DeleteFunc(cycle, func(p int) bool { return isLast[p] })
			cycle = append(cycle, last...)
		}
		turn = append(turn, cycle...)
		prev = cycle
	}
	for r := range s.params.Rounds {
		sits := make([]bool, n)
		for _, p := range turn[r*out : (r+1)*out] {
			sits[p] = true
		}
		i, j := 0, s.seated
		for p := range n {
			if sits[p] {
				s.seats[r][j] = p
				j++
			} else {
				s.seats[r][i] = p
				i++
			}
		}
		for i, p := range s.seats[r] {
			s.where[r][p] = i
		}
	}
}

// checkSeated refuses, once the sit-outs are chosen, bars that cannot be met (a player barred from every table,
// bars that leave some tables too few of a round's players: a capacity matching) and, at a single table, a pair
// kept apart who both play a round.
func (s *Schedule) checkSeated() error {
	n := s.params.Players
	for a := range n {
		allowed := 0
		for t := range s.tables {
			if !s.barred[a*s.tables+t] {
				allowed++
			}
		}
		if allowed == 0 {
			return fmt.Errorf("seating: %w: player %d is barred from every table", ErrInfeasible, a)
		}
	}
	if s.tables == 1 {
		// At one table, a pair kept apart can only be kept apart by sitting out, and the turns decide that.
		for r := range s.params.Rounds {
			for _, pr := range s.pairs {
				if s.where[r][pr[0]] < s.seated && s.where[r][pr[1]] < s.seated {
					return fmt.Errorf("seating: %w: at one table, players %d and %d, kept apart, would both play round %d",
						ErrInfeasible, pr[0], pr[1], r)
				}
			}
		}
	}
	if len(s.params.Barred) == 0 {
		return nil
	}
	members := make([][]int, s.tables)
	seen := make([]bool, s.tables)
	for r := range s.params.Rounds {
		for t := range members {
			members[t] = members[t][:0]
		}
		for _, a := range s.seats[r][:s.seated] {
			clear(seen)
			if !s.placeAllowed(a, members, seen) {
				in := ""
				if s.seated < n {
					in = fmt.Sprintf(" in round %d", r)
				}
				return fmt.Errorf("seating: %w: the bars leave too few tables for the players (player %d finds no seat%s)", ErrInfeasible, a, in)
			}
		}
	}
	return nil
}

// placeAllowed seats a at a table allowed to him, moving others along an augmenting path if needed.
func (s *Schedule) placeAllowed(a int, members [][]int, seen []bool) bool {
	for t := range s.tables {
		if seen[t] || s.barred[a*s.tables+t] {
			continue
		}
		seen[t] = true
		if len(members[t]) < s.params.PerTable {
			members[t] = append(members[t], a)
			return true
		}
		for i, b := range members[t] {
			if s.placeAllowed(b, members, seen) {
				members[t][i] = a
				return true
			}
		}
	}
	return false
}

// Params returns the parameters the schedule was generated from: Generate(s.Params()) builds it again, and then
// the recorded Swaps, replayed in order, repeat the manual changes.
func (s *Schedule) Params() Params {
	p := s.params
	p.Apart, p.Barred = slices.Clone(p.Apart), slices.Clone(p.Barred)
	return p
}

// Swaps returns the manual swaps made so far, in order.
func (s *Schedule) Swaps() []SwapRecord { return slices.Clone(s.swaps) }

// Rounds returns the number of rounds.
func (s *Schedule) Rounds() int { return s.params.Rounds }

// Players returns the number of players, those sitting out included.
func (s *Schedule) Players() int { return s.params.Players }

// Tables returns the number of tables in a round.
func (s *Schedule) Tables() int { return s.tables }

// PerTable returns the number of players at a table.
func (s *Schedule) PerTable() int { return s.params.PerTable }

// Table returns the players at a table in a round, in seat order: element i sits at seat number i+1.
func (s *Schedule) Table(round, table int) []int {
	k := s.params.PerTable
	return slices.Clone(s.seats[round][table*k : (table+1)*k])
}

// SitOut returns the players who sit out a round, in increasing order; none when the players fill the tables.
func (s *Schedule) SitOut(round int) []int {
	out := slices.Clone(s.seats[round][s.seated:])
	slices.Sort(out)
	return out
}

// Place returns a player's table (0-based) and seat number (1..PerTable) in a round, or table -1 and seat 0 when
// he sits the round out.
func (s *Schedule) Place(round, player int) (table, seat int) {
	i := s.where[round][player]
	if i >= s.seated {
		return -1, 0
	}
	return i / s.params.PerTable, i%s.params.PerTable + 1
}

// Swap exchanges the places (table and seat number) of players a and b in one round; when one of them sits the
// round out, the other sits it out instead and he takes the other's place (so each plays a game more or fewer,
// and Quality shows it). It refuses a swap that would seat a pair of Apart together, or a player at a table
// Barred to him, with an error that names them and wraps ErrApart, and a swap of two players who both sit out;
// the schedule is then unchanged. Quality reflects a swap at once; the seat numbers are not rebalanced (a swap of
// two players at one table only exchanges seat numbers, and can repair them by hand).
func (s *Schedule) Swap(round, a, b int) error {
	n := s.params.Players
	switch {
	case round < 0 || round >= s.params.Rounds:
		return fmt.Errorf("seating: round %d: rounds are 0 to %d", round, s.params.Rounds-1)
	case a < 0 || a >= n || b < 0 || b >= n:
		return fmt.Errorf("seating: swap of %d and %d: players are 0 to %d", a, b, n-1)
	case a == b:
		return fmt.Errorf("seating: swap of player %d with himself", a)
	}
	ta, _ := s.Place(round, a)
	tb, _ := s.Place(round, b)
	if ta < 0 && tb < 0 {
		return fmt.Errorf("seating: round %d: players %d and %d both sit out; a swap would change nothing", round, a, b)
	}
	if ta != tb {
		if tb >= 0 {
			if err := s.checkJoin(round, a, b, tb); err != nil {
				return err
			}
		}
		if ta >= 0 {
			if err := s.checkJoin(round, b, a, ta); err != nil {
				return err
			}
		}
	}
	ia, ib := s.where[round][a], s.where[round][b]
	s.seats[round][ia], s.seats[round][ib] = b, a
	s.where[round][a], s.where[round][b] = ib, ia
	s.swaps = append(s.swaps, SwapRecord{round, a, b})
	return nil
}

// checkJoin reports whether player a may take other's place at table t in round r.
func (s *Schedule) checkJoin(r, a, other, t int) error {
	if s.barred[a*s.tables+t] {
		return fmt.Errorf("seating: round %d: player %d is barred from table %d: %w", r, a, t, ErrApart)
	}
	k, n := s.params.PerTable, s.params.Players
	for _, x := range s.seats[r][t*k : (t+1)*k] {
		if x != other && s.apart[a*n+x] {
			return fmt.Errorf("seating: round %d: players %d and %d are kept apart; the swap would seat them both at table %d: %w",
				r, a, x, t, ErrApart)
		}
	}
	return nil
}
