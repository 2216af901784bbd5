package seating

import (
	"math"
	"math/rand/v2"
)

// The annealing schedule: the temperature falls geometrically from tempStart to tempEnd over the moves. A move
// changes the cost by a few units (one meeting more or fewer costs 1 to 2*m+1), so the search starts loose and
// ends almost greedy.
const (
	tempStart = 1.5
	tempEnd   = 0.3
)

// annealer holds the search state: the schedule's rounds and the number of times each pair has met.
type annealer struct {
	s         *Schedule
	rng       *rand.Rand
	n, k, tbl int
	meet      []int32 // [a*n+b], symmetric
	up, down  []int   // cost of one meeting more (up[m]) or fewer (down[m]) for a pair that has met m times
	big       int     // the cost of one broken constraint: more than any change of the meeting cost
}

// meetCost is the cost of a pair meeting m times: m² up to 2, then steeper, so that the search trades two pairs
// meeting twice for one pair meeting three times only at a loss. Its sum over the pairs measures how unevenly the
// players meet (their total number of meetings is fixed).
func meetCost(m int) int {
	if m <= 2 {
		return m * m
	}
	return m*m + 6*(m-2)*(m-2)
}

func newAnnealer(s *Schedule, rng *rand.Rand) *annealer {
	n, k := s.params.Players, s.params.PerTable
	a := &annealer{s: s, rng: rng, n: n, k: k, tbl: s.tables, meet: make([]int32, n*n)}
	R := s.params.Rounds
	a.up = make([]int, R+1)
	a.down = make([]int, R+1)
	for m := 0; m <= R; m++ {
		a.up[m] = meetCost(m+1) - meetCost(m)
		if m > 0 {
			a.down[m] = meetCost(m-1) - meetCost(m)
		}
	}
	// One move touches 2*(k-1) pairs twice; a broken constraint must outweigh any such change.
	a.big = 4 * k * (a.up[R-1] + 1)
	return a
}

// construct fills each round in turn greedily: the players, in a random order, each take the table (with a seat
// left) where they break the fewest constraints and add the least meeting cost.
func (a *annealer) construct() {
	n, k, tbl := a.n, a.k, a.tbl
	s := a.s
	members := make([][]int, tbl)
	for t := range members {
		members[t] = make([]int, 0, k)
	}
	for r := range s.params.Rounds {
		for t := range members {
			members[t] = members[t][:0]
		}
		for _, p := range a.rng.Perm(n) {
			best, bestCost := -1, 0
			off := a.rng.IntN(tbl)
			for i := range tbl {
				t := (off + i) % tbl
				if len(members[t]) == k {
					continue
				}
				c := 0
				if s.barred[p*tbl+t] {
					c += a.big
				}
				for _, x := range members[t] {
					if s.apart[p*n+x] {
						c += a.big
					}
					c += a.up[a.meet[p*n+x]]
				}
				if best < 0 || c < bestCost {
					best, bestCost = t, c
				}
			}
			members[best] = append(members[best], p)
		}
		for t, m := range members {
			for i, p := range m {
				s.seats[r][t*k+i] = p
				s.where[r][p] = t*k + i
				for _, x := range m[:i] {
					a.meet[p*n+x]++
					a.meet[x*n+p]++
				}
			}
		}
	}
}

// anneal makes moves: in a random round, two players at different tables exchange places; a move that lowers the
// cost is kept, one that raises it by d is kept with probability exp(-d/temperature).
func (a *annealer) anneal(moves int64) {
	s, n, k := a.s, a.n, a.k
	R := s.params.Rounds
	if a.tbl < 2 || moves <= 0 {
		return
	}
	temp := tempStart
	cool := math.Pow(tempEnd/tempStart, 1/float64(moves))
	for range moves {
		temp *= cool
		r := a.rng.IntN(R)
		seats, where := s.seats[r], s.where[r]
		pa := a.rng.IntN(n)
		ia := where[pa]
		ta := ia / k
		jb := a.rng.IntN(n - k)
		if jb >= ta*k {
			jb += k
		}
		pb, tb := seats[jb], jb/k
		d := a.delta(seats[ta*k:(ta+1)*k], seats[tb*k:(tb+1)*k], pa, pb, ta, tb)
		if d > 0 && a.rng.Float64() >= math.Exp(-float64(d)/temp) {
			continue
		}
		a.apply(seats[ta*k:(ta+1)*k], seats[tb*k:(tb+1)*k], pa, pb)
		seats[ia], seats[jb] = pb, pa
		where[pa], where[pb] = jb, ia
	}
}

// delta is the change of cost if pa (at table ta, players A) and pb (at tb, players B) exchange places.
func (a *annealer) delta(A, B []int, pa, pb, ta, tb int) int {
	s, n, tbl := a.s, a.n, a.tbl
	d := 0
	ra, rb := a.meet[pa*n:pa*n+n], a.meet[pb*n:pb*n+n]
	xa, xb := s.apart[pa*n:pa*n+n], s.apart[pb*n:pb*n+n]
	for _, x := range A {
		if x == pa {
			continue
		}
		d += a.up[rb[x]] + a.down[ra[x]]
		if xb[x] {
			d += a.big
		}
		if xa[x] {
			d -= a.big
		}
	}
	for _, y := range B {
		if y == pb {
			continue
		}
		d += a.up[ra[y]] + a.down[rb[y]]
		if xa[y] {
			d += a.big
		}
		if xb[y] {
			d -= a.big
		}
	}
	if s.barred[pa*tbl+tb] {
		d += a.big
	}
	if s.barred[pa*tbl+ta] {
		d -= a.big
	}
	if s.barred[pb*tbl+ta] {
		d += a.big
	}
	if s.barred[pb*tbl+tb] {
		d -= a.big
	}
	return d
}

// apply updates the meeting counts for pa (at A) and pb (at B) exchanging places.
func (a *annealer) apply(A, B []int, pa, pb int) {
	n, m := a.n, a.meet
	for _, x := range A {
		if x == pa {
			continue
		}
		m[pa*n+x]--
		m[x*n+pa]--
		m[pb*n+x]++
		m[x*n+pb]++
	}
	for _, y := range B {
		if y == pb {
			continue
		}
		m[pb*n+y]--
		m[y*n+pb]--
		m[pa*n+y]++
		m[y*n+pa]++
	}
}

// violations counts the broken constraints from scratch: pairs of Apart at one table and players at a barred
// table, over every round.
func (a *annealer) violations() int {
	s, n, k := a.s, a.n, a.k
	v := 0
	for r := range s.params.Rounds {
		for i, p := range s.seats[r] {
			t := i / k
			if s.barred[p*a.tbl+t] {
				v++
			}
			for _, x := range s.seats[r][t*k : i] {
				if s.apart[p*n+x] {
					v++
				}
			}
		}
	}
	return v
}
