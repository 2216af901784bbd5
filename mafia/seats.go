package mafia

import "math/bits"

// MaxSeats is the largest table the engine plays. Sport rule sets seat 7-10; home-doctor is played by "six or more"
// (001 L57, spec section 4) and home-ua by as many as the composition allows (C-44), with no upper limit in the
// seeds. The limit is the engine's own: a set of seats is one 64-bit word (bit 0 unused), which keeps every rule
// check a few machine instructions and a game's state a fixed-size value that Apply copies without allocating.
// 63 players at one table would take over an hour of one-minute speeches per day; no home game comes near.
const MaxSeats = 63

// Seats is a set of seat numbers (1..MaxSeats), one bit per seat. It is a value: copying it copies the set.
type Seats uint64

// SeatsOf returns the set holding the given seats.
func SeatsOf(seats ...int) Seats {
	var s Seats
	for _, n := range seats {
		s = s.Add(n)
	}
	return s
}

// Has reports whether seat n is in the set.
func (s Seats) Has(n int) bool { return n >= 1 && n <= MaxSeats && s&(1<<uint(n)) != 0 }

// Add returns the set with seat n added.
func (s Seats) Add(n int) Seats {
	if n < 1 || n > MaxSeats {
		return s
	}
	return s | 1<<uint(n)
}

// Remove returns the set without seat n.
func (s Seats) Remove(n int) Seats {
	if n < 1 || n > MaxSeats {
		return s
	}
	return s &^ (1 << uint(n))
}

// Len is the number of seats in the set.
func (s Seats) Len() int { return bits.OnesCount64(uint64(s)) }

// Empty reports whether the set has no seats.
func (s Seats) Empty() bool { return s == 0 }

// List returns the seats in ascending order. It allocates; the engine itself never calls it on the hot path.
func (s Seats) List() []int {
	out := make([]int, 0, s.Len())
	for v := uint64(s); v != 0; v &= v - 1 {
		out = append(out, bits.TrailingZeros64(v))
	}
	return out
}

// All returns the set of seats 1..n.
func allSeats(n int) Seats { return Seats((uint64(1)<<uint(n+1) - 1) &^ 1) }
