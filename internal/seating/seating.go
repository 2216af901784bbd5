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

// ErrApart is wrapped by the error of a Swap that would seat a pair kept apart, or a player at a table barred to
// him, together.
var ErrApart = errors.New("kept apart")

// ErrInfeasible is wrapped by Generate's error when the constraints cannot be met: detected before the search, or
// still violated when the search ends.
var ErrInfeasible = errors.New("constraints cannot be met")

// Params describe a schedule. Generate returns the same schedule for the same Params.
type Params struct {
	Players  int // the players are 0..Players-1
	PerTable int // players at a table, MinPerTable..MaxPerTable; Players must be a multiple of it
	Rounds   int // 1..MaxRounds; every player plays once in every round
	Seed     uint64
	// Apart lists pairs of players who never sit at one table (an organiser's decision: relatives, a
	// conflict). The order inside a pair and repeated pairs do not matter.
	Apart [][2]int
	// Barred lists {player, table} pairs: the player never sits at that table (tables are 0..Players/PerTable-1,
	// the same physical table in every round, for instance because its judge has a conflict with him).
	Barred [][2]int
	// Iterations is the number of annealing moves per player and round; 0 means DefaultIterations.
	Iterations int
}

// SwapRecord is one manual swap, as recorded by Schedule.Swap.
type SwapRecord struct{ Round, A, B int }

// Schedule is a generated seating: in every round, every table's players in seat order. Rounds, tables and players
// are 0-based indices; a seat number is 1..PerTable. A Schedule is not safe for concurrent use.
type Schedule struct {
	params Params
	tables int
	seats  [][]int // [round][table*PerTable + seat-1] = player
	where  [][]int // [round][player] = table*PerTable + seat-1
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
	if err := s.checkFeasible(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(p.Seed, 0x6d61666961636c75))
	it := p.Iterations
	if it == 0 {
		it = DefaultIterations
	}
	a := newAnnealer(s, rng)
	a.construct()
	a.anneal(int64(it) * int64(p.Players) * int64(p.Rounds))
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
		return fmt.Errorf("seating: %d players; want %d (one table) to %d", p.Players, p.PerTable, MaxPlayers)
	case p.Players%p.PerTable != 0:
		return fmt.Errorf("seating: %d players do not fill tables of %d (%d left over): every seat of every round must be taken",
			p.Players, p.PerTable, p.Players%p.PerTable)
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
	tables := p.Players / p.PerTable
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

func newSchedule(p Params) *Schedule {
	n, tables := p.Players, p.Players/p.PerTable
	p.Apart = slices.Clone(p.Apart)
	p.Barred = slices.Clone(p.Barred)
	s := &Schedule{params: p, tables: tables, apart: make([]bool, n*n), barred: make([]bool, n*tables)}
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

// checkFeasible refuses what can be seen to be impossible without searching: a player kept apart from too many
// others to fill his table, a player barred from every table, and bars that leave some tables too few players
// (a capacity matching). A conflict among Apart pairs that only a search reveals (more players all apart from
// each other than there are tables) ends in Generate's error after the search.
func (s *Schedule) checkFeasible() error {
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
	// Every player must find a seat at a table not barred to him: a matching of players to tables of capacity k.
	members := make([][]int, s.tables)
	for a := range n {
		seen := make([]bool, s.tables)
		if !s.placeAllowed(a, members, seen) {
			allowed := 0
			for t := range s.tables {
				if !s.barred[a*s.tables+t] {
					allowed++
				}
			}
			if allowed == 0 {
				return fmt.Errorf("seating: %w: player %d is barred from every table", ErrInfeasible, a)
			}
			return fmt.Errorf("seating: %w: the bars leave too few tables for the players (player %d finds no seat)", ErrInfeasible, a)
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

// Tables returns the number of tables in a round.
func (s *Schedule) Tables() int { return s.tables }

// PerTable returns the number of players at a table.
func (s *Schedule) PerTable() int { return s.params.PerTable }

// Table returns the players at a table in a round, in seat order: element i sits at seat number i+1.
func (s *Schedule) Table(round, table int) []int {
	k := s.params.PerTable
	return slices.Clone(s.seats[round][table*k : (table+1)*k])
}

// Place returns a player's table (0-based) and seat number (1..PerTable) in a round.
func (s *Schedule) Place(round, player int) (table, seat int) {
	i := s.where[round][player]
	return i / s.params.PerTable, i%s.params.PerTable + 1
}

// Swap exchanges the places (table and seat number) of players a and b in one round. It refuses a swap that
// would seat a pair of Apart together, or a player at a table Barred to him, with an error that names them and
// wraps ErrApart; the schedule is then unchanged. Quality reflects a swap at once; the seat numbers are not
// rebalanced (a swap of two players at one table only exchanges seat numbers, and can repair them by hand).
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
	k := s.params.PerTable
	ia, ib := s.where[round][a], s.where[round][b]
	ta, tb := ia/k, ib/k
	if ta != tb {
		if err := s.checkJoin(round, a, b, tb); err != nil {
			return err
		}
		if err := s.checkJoin(round, b, a, ta); err != nil {
			return err
		}
	}
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
