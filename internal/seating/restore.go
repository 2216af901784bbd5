package seating

import "fmt"

// FromTables rebuilds a schedule from a stored arrangement, for its Quality and further Swaps: tables[r][t] are
// the players of table t in round r in seat order, and the players of a round who sit at no table sit it out. p
// gives the players, the table size and the constraints (Seed and Iterations are kept as given; Rounds and Tables
// are read from tables). Every round must have the same number of full tables and name each player at most once.
func FromTables(p Params, tables [][][]int) (*Schedule, error) {
	if len(tables) == 0 {
		return nil, fmt.Errorf("seating: no rounds")
	}
	p.Rounds, p.Tables = len(tables), len(tables[0])
	if p.Tables == 0 {
		return nil, fmt.Errorf("seating: round 0 has no table")
	}
	if err := validate(p); err != nil {
		return nil, err
	}
	s := newSchedule(p)
	n, k := p.Players, p.PerTable
	for r, round := range tables {
		if len(round) != s.tables {
			return nil, fmt.Errorf("seating: round %d has %d tables, round 0 has %d", r, len(round), s.tables)
		}
		seen := make([]bool, n)
		i := 0
		for t, table := range round {
			if len(table) != k {
				return nil, fmt.Errorf("seating: round %d table %d has %d players, want %d", r, t, len(table), k)
			}
			for _, x := range table {
				if x < 0 || x >= n || seen[x] {
					return nil, fmt.Errorf("seating: round %d: player %d is not a player or sits twice", r, x)
				}
				seen[x] = true
				s.seats[r][i] = x
				i++
			}
		}
		for x := range n {
			if !seen[x] {
				s.seats[r][i] = x
				i++
			}
		}
		for i, x := range s.seats[r] {
			s.where[r][x] = i
		}
	}
	return s, nil
}
