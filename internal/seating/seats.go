package seating

import "math/rand/v2"

// assignSeats orders the players within every table of every round so that each player of g games sits at each
// seat number either ⌊g/PerTable⌋ or ⌈g/PerTable⌉ times (exactly g/PerTable when it divides).
//
// It is an equitable edge colouring of a bipartite graph (de Werra): on one side the tables of all rounds, on the
// other the players, each split into one vertex per PerTable of his games (his first PerTable games, the next
// PerTable, ...); an edge joins a player's vertex to the table where he plays in that round, and its colour is
// his seat number. Every vertex has at most PerTable edges, so PerTable colours suffice (König) and are found
// edge by edge with alternating-path (Kempe chain) exchanges. Each table then has every seat number once, and each
// player vertex has every seat number at most once, which is the balance above.
func (s *Schedule) assignSeats(rng *rand.Rand) {
	n, k, R := s.params.Players, s.params.PerTable, s.params.Rounds
	parts := (R + k - 1) / k
	left := n * parts
	vertices := left + R*s.tables
	game := make([]int, R*n) // [r*n+p] = the number of games player p plays before round r
	for p := range n {
		g := 0
		for r := range R {
			game[r*n+p] = g
			if s.where[r][p] < s.seated {
				g++
			}
		}
	}
	// Edge e = r*n + p joins player p's vertex for round r to the table where he sits in round r; a player who
	// sits a round out has no edge for it.
	end := func(e int, side int) int {
		r, p := e/n, e%n
		if side == 0 {
			return p*parts + game[e]/k
		}
		return left + r*s.tables + s.where[r][p]/k
	}
	at := make([]int32, vertices*k) // [vertex*k + colour] = the edge of that colour, or -1
	for i := range at {
		at[i] = -1
	}
	colour := make([]int, R*n)
	free := func(v int) int {
		for c := range k {
			if at[v*k+c] < 0 {
				return c
			}
		}
		panic("seating: a vertex of degree above PerTable")
	}
	var path []int32
	for _, e := range rng.Perm(R * n) {
		if s.where[e/n][e%n] >= s.seated {
			continue
		}
		u, v := end(e, 0), end(e, 1)
		ca, cb := free(u), free(v)
		if at[v*k+ca] >= 0 {
			// ca is taken at v: exchange ca and cb along the path from v that alternates them. In a bipartite
			// graph the path never reaches u, so ca stays free at u and becomes free at v.
			path = path[:0]
			x, c := v, ca
			for {
				f := at[x*k+c]
				if f < 0 {
					break
				}
				path = append(path, f)
				if y := end(int(f), 0); y != x {
					x = y
				} else {
					x = end(int(f), 1)
				}
				if c == ca {
					c = cb
				} else {
					c = ca
				}
			}
			for _, f := range path {
				at[end(int(f), 0)*k+colour[f]] = -1
				at[end(int(f), 1)*k+colour[f]] = -1
			}
			for _, f := range path {
				if colour[f] == ca {
					colour[f] = cb
				} else {
					colour[f] = ca
				}
				at[end(int(f), 0)*k+colour[f]] = f
				at[end(int(f), 1)*k+colour[f]] = f
			}
		}
		colour[e] = ca
		at[u*k+ca] = int32(e)
		at[v*k+ca] = int32(e)
	}
	for r := range R {
		for p := range n {
			if s.where[r][p] < s.seated {
				t := s.where[r][p] / k
				s.seats[r][t*k+colour[r*n+p]] = p
			}
		}
		for i, p := range s.seats[r] {
			s.where[r][p] = i
		}
	}
}
