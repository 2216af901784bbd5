package seating

import (
	"math"
	"math/rand/v2"
	"slices"
)

// The annealing schedule: the temperature falls geometrically from tempStart to tempEnd over the moves. A move
// changes the cost by a few units (one meeting more or fewer near the average costs 1 to 5), so the search starts
// loose and ends almost greedy.
const (
	tempStart = 1.5
	tempEnd   = 0.3
)

// tableSwapEvery: one move in tableSwapEvery exchanges two whole tables of a round (their players keep their
// tablemates, so only the table balance and the bars change).
const tableSwapEvery = 8

// annealer holds the search state: the schedule's rounds, the number of times each pair has met and the number of
// times each player has played at each table.
type annealer struct {
	s          *Schedule
	rng        *rand.Rand
	n, k, tbl  int
	meet       []int32 // [a*n+b], symmetric
	at         []int32 // [p*tbl+t], games of player p at table t
	up, down   []int   // cost of one meeting more (up[m]) or fewer (down[m]) for a pair that has met m times
	tup, tdown []int   // [toff[p]+c]: the same for one game more or fewer at a table where player p has played c times
	toff       []int   // [p]: player p's offset in tup and tdown, by his ⌈games/tables⌉
	big        int     // the cost of one broken constraint: more than any change of the other costs
	base       int     // ⌊average meetings per pair⌋: meetCost is centred on it
}

// meetCost is the cost of a pair meeting m times, where an even spread of the meetings would have each pair meet
// base or base+1 times: x² for x = m-base up to 2, then steeper, so that the search trades two pairs meeting
// base+2 times for one pair meeting base+3 times only at a loss. It is convex, so its sum over the pairs is
// smallest when the players meet as evenly as possible (their total number of meetings is fixed).
func meetCost(m, base int) int {
	x := m - base
	if x <= 2 {
		return x * x
	}
	return x*x + 6*(x-2)*(x-2)
}

// tableCost is the cost of a player playing c times at one table, where an even spread would have him play there
// at most hi = ⌈games/tables⌉ times: c² (convex, so the sum over his tables is least when they are even), plus
// 6(c-hi)² above hi and 12(c-hi-1)² above hi+1. When hi is 1 (no more games than tables), a second game at one
// table costs only 2 more: then every player at a different table in every round is as hard a pattern as every
// pair meeting at most once, and the search must not buy it with pairs meeting three times.
func tableCost(c, hi int) int {
	x, y := max(0, c-hi), max(0, c-hi-1)
	steep := 6
	if hi <= 1 {
		steep = 2
	}
	return c*c + steep*x*x + 12*y*y
}

func newAnnealer(s *Schedule, rng *rand.Rand) *annealer {
	n, k, tbl, R := s.params.Players, s.params.PerTable, s.tables, s.params.Rounds
	a := &annealer{s: s, rng: rng, n: n, k: k, tbl: tbl, meet: make([]int32, n*n), at: make([]int32, n*tbl)}
	// R rounds of tbl tables of k(k-1)/2 pairs, over n(n-1)/2 pairs.
	a.base = R * tbl * k * (k - 1) / (n * (n - 1))
	a.up = make([]int, R+1)
	a.down = make([]int, R+1)
	for m := 0; m <= R; m++ {
		a.up[m] = meetCost(m+1, a.base) - meetCost(m, a.base)
		if m > 0 {
			a.down[m] = meetCost(m-1, a.base) - meetCost(m, a.base)
		}
	}
	a.tup = make([]int, (R+1)*(R+1))
	a.tdown = make([]int, (R+1)*(R+1))
	for hi := 0; hi <= R; hi++ {
		for c := 0; c <= R; c++ {
			if c < R {
				a.tup[hi*(R+1)+c] = tableCost(c+1, hi) - tableCost(c, hi)
			}
			if c > 0 {
				a.tdown[hi*(R+1)+c] = tableCost(c-1, hi) - tableCost(c, hi)
			}
		}
	}
	a.toff = make([]int, n)
	for p := range n {
		g := 0
		for r := range R {
			if s.where[r][p] < s.seated {
				g++
			}
		}
		a.toff[p] = (g + tbl - 1) / tbl * (R + 1)
	}
	// A player swap touches 2*(k-1) pairs twice and two players' table counts twice; a table swap touches 2k
	// players' table counts. A broken constraint must outweigh any such change.
	a.big = 4*k*(a.up[R-1]+1) + 4*k*(slices.Max(a.tup)+1)
	return a
}

// construct fills each round in turn greedily: the round's players, in a random order, each take the table (with
// a seat left) where they break the fewest constraints and add the least meeting and table cost.
func (a *annealer) construct() {
	n, k, tbl := a.n, a.k, a.tbl
	s := a.s
	members := make([][]int, tbl)
	for t := range members {
		members[t] = make([]int, 0, k)
	}
	players := make([]int, s.seated)
	for r := range s.params.Rounds {
		for t := range members {
			members[t] = members[t][:0]
		}
		copy(players, s.seats[r][:s.seated])
		a.rng.Shuffle(len(players), func(i, j int) { players[i], players[j] = players[j], players[i] })
		for _, p := range players {
			best, bestCost := -1, 0
			off := a.rng.IntN(tbl)
			for i := range tbl {
				t := (off + i) % tbl
				if len(members[t]) == k {
					continue
				}
				c := a.tup[a.toff[p]+int(a.at[p*tbl+t])]
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
				a.at[p*tbl+t]++
				for _, x := range m[:i] {
					a.meet[p*n+x]++
					a.meet[x*n+p]++
				}
			}
		}
	}
}

// anneal makes moves: in a random round, two players at different tables exchange places, or (one move in
// tableSwapEvery) two tables exchange all their players; a move that lowers the cost is kept, one that raises it
// by d is kept with probability exp(-d/temperature).
func (a *annealer) anneal(moves int64) {
	s, k := a.s, a.k
	R, S := s.params.Rounds, s.seated
	if a.tbl < 2 || moves <= 0 {
		return
	}
	temp := tempStart
	cool := math.Pow(tempEnd/tempStart, 1/float64(moves))
	for range moves {
		temp *= cool
		r := a.rng.IntN(R)
		seats, where := s.seats[r], s.where[r]
		if a.rng.IntN(tableSwapEvery) == 0 {
			ta := a.rng.IntN(a.tbl)
			tb := a.rng.IntN(a.tbl - 1)
			if tb >= ta {
				tb++
			}
			A, B := seats[ta*k:(ta+1)*k], seats[tb*k:(tb+1)*k]
			d := a.tableDelta(A, ta, tb) + a.tableDelta(B, tb, ta)
			if d > 0 && a.rng.Float64() >= math.Exp(-float64(d)/temp) {
				continue
			}
			for i := range k {
				a.move(A[i], ta, tb)
				a.move(B[i], tb, ta)
				A[i], B[i] = B[i], A[i]
				where[A[i]], where[B[i]] = ta*k+i, tb*k+i
			}
			continue
		}
		ia := a.rng.IntN(S)
		pa, ta := seats[ia], ia/k
		jb := a.rng.IntN(S - k)
		if jb >= ta*k {
			jb += k
		}
		pb, tb := seats[jb], jb/k
		A, B := seats[ta*k:(ta+1)*k], seats[tb*k:(tb+1)*k]
		d := a.delta(A, B, pa, pb, ta, tb)
		if d > 0 && a.rng.Float64() >= math.Exp(-float64(d)/temp) {
			continue
		}
		a.apply(A, B, pa, pb)
		a.move(pa, ta, tb)
		a.move(pb, tb, ta)
		seats[ia], seats[jb] = pb, pa
		where[pa], where[pb] = jb, ia
	}
}

// moveDelta is the change of table and bar cost if player p moves from table from to table to.
func (a *annealer) moveDelta(p, from, to int) int {
	at := a.at[p*a.tbl : (p+1)*a.tbl]
	d := a.tup[a.toff[p]+int(at[to])] + a.tdown[a.toff[p]+int(at[from])]
	if a.s.barred[p*a.tbl+to] {
		d += a.big
	}
	if a.s.barred[p*a.tbl+from] {
		d -= a.big
	}
	return d
}

// move records that player p moved from table from to table to.
func (a *annealer) move(p, from, to int) {
	a.at[p*a.tbl+from]--
	a.at[p*a.tbl+to]++
}

// tableDelta is the change of cost if the players of table from all move to table to.
func (a *annealer) tableDelta(players []int, from, to int) int {
	d := 0
	for _, p := range players {
		d += a.moveDelta(p, from, to)
	}
	return d
}

// delta is the change of cost if pa (at table ta, players A) and pb (at tb, players B) exchange places.
func (a *annealer) delta(A, B []int, pa, pb, ta, tb int) int {
	s, n := a.s, a.n
	d := a.moveDelta(pa, ta, tb) + a.moveDelta(pb, tb, ta)
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

// cost is the whole cost of the schedule, computed from scratch: meetings, tables and broken constraints.
func (a *annealer) cost() int {
	n, R := a.n, a.s.params.Rounds
	c := a.big * a.violations()
	for x := range n {
		for y := x + 1; y < n; y++ {
			c += meetCost(int(a.meet[x*n+y]), a.base)
		}
		for t := range a.tbl {
			c += tableCost(int(a.at[x*a.tbl+t]), a.toff[x]/(R+1))
		}
	}
	return c
}

// violations counts the broken constraints from scratch: pairs of Apart at one table and players at a barred
// table, over every round.
func (a *annealer) violations() int {
	s, n, k := a.s, a.n, a.k
	v := 0
	for r := range s.params.Rounds {
		for i, p := range s.seats[r][:s.seated] {
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
