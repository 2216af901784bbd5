package seating

import (
	"fmt"
	"strconv"
	"strings"
)

// Quality holds the figures of a schedule's balance.
type Quality struct {
	// SeatCounts[p][s] is the number of rounds player p sits at seat number s+1.
	SeatCounts [][]int
	// SeatMin and SeatMax are the fewest and most times any player sits at any one seat number.
	SeatMin, SeatMax int
	// SeatSpread is, over the seat numbers, the largest difference between the players who sit there most and
	// least often.
	SeatSpread int
	// PlayerSeatSpread is, over the players, the largest difference between a player's most and least frequent
	// seat numbers.
	PlayerSeatSpread int
	// MeetMin and MeetMax are the fewest and most rounds any pair of players shares a table.
	MeetMin, MeetMax int
	// MeetHistogram[m] is the number of pairs of players who share a table in exactly m rounds.
	MeetHistogram []int
	// OpponentsMin and OpponentsMax are the fewest and most distinct other players any player meets.
	OpponentsMin, OpponentsMax int
	// ApartMeetings is the number of Apart pairs that share a table in some round: always 0, as Generate and
	// Swap both refuse it; a check.
	ApartMeetings int
	// BarredPlaces is the number of times a player sits at a table barred to him.
	BarredPlaces int
}

// Repeats is the number of pairs that share a table in more than one round.
func (q Quality) Repeats() int {
	r := 0
	for m := 2; m < len(q.MeetHistogram); m++ {
		r += q.MeetHistogram[m]
	}
	return r
}

// Quality computes the figures of the schedule as it stands, swaps included.
func (s *Schedule) Quality() Quality {
	n, k, R := s.params.Players, s.params.PerTable, s.params.Rounds
	q := Quality{SeatCounts: make([][]int, n), MeetHistogram: make([]int, R+1)}
	for p := range q.SeatCounts {
		q.SeatCounts[p] = make([]int, k)
	}
	meet := make([]int, n*n)
	for r := range R {
		for i, p := range s.seats[r] {
			t := i / k
			q.SeatCounts[p][i%k]++
			if s.barred[p*s.tables+t] {
				q.BarredPlaces++
			}
			for _, x := range s.seats[r][t*k : i] {
				meet[p*n+x]++
				meet[x*n+p]++
			}
		}
	}
	q.SeatMin, q.SeatMax = R, 0
	for c := range k {
		lo, hi := R, 0
		for p := range n {
			lo, hi = min(lo, q.SeatCounts[p][c]), max(hi, q.SeatCounts[p][c])
		}
		q.SeatMin, q.SeatMax = min(q.SeatMin, lo), max(q.SeatMax, hi)
		q.SeatSpread = max(q.SeatSpread, hi-lo)
	}
	for p := range n {
		lo, hi := R, 0
		for _, c := range q.SeatCounts[p] {
			lo, hi = min(lo, c), max(hi, c)
		}
		q.PlayerSeatSpread = max(q.PlayerSeatSpread, hi-lo)
	}
	q.MeetMin, q.MeetMax = R, 0
	q.OpponentsMin, q.OpponentsMax = n, 0
	for a := range n {
		opp := 0
		for b := range n {
			if b == a {
				continue
			}
			m := meet[a*n+b]
			if m > 0 {
				opp++
			}
			if b > a {
				q.MeetHistogram[m]++
				q.MeetMin, q.MeetMax = min(q.MeetMin, m), max(q.MeetMax, m)
			}
		}
		q.OpponentsMin, q.OpponentsMax = min(q.OpponentsMin, opp), max(q.OpponentsMax, opp)
	}
	q.MeetHistogram = q.MeetHistogram[:q.MeetMax+1]
	for _, pr := range s.pairs {
		if meet[pr[0]*n+pr[1]] > 0 {
			q.ApartMeetings++
		}
	}
	return q
}

// String is a short summary of the figures, as Print shows it.
func (q Quality) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seat numbers: each player at each seat %d-%d times (spread across players %d, within a player %d)\n",
		q.SeatMin, q.SeatMax, q.SeatSpread, q.PlayerSeatSpread)
	fmt.Fprintf(&b, "meetings: every pair %d-%d times; pairs meeting ", q.MeetMin, q.MeetMax)
	times, pairs := make([]string, len(q.MeetHistogram)), make([]string, len(q.MeetHistogram))
	for m, c := range q.MeetHistogram {
		times[m], pairs[m] = strconv.Itoa(m), strconv.Itoa(c)
	}
	fmt.Fprintf(&b, "%s times: %s", strings.Join(times, "/"), strings.Join(pairs, "/"))
	fmt.Fprintf(&b, "; distinct opponents per player %d-%d\n", q.OpponentsMin, q.OpponentsMax)
	fmt.Fprintf(&b, "constraints: %d pairs kept apart met, %d places at a barred table\n", q.ApartMeetings, q.BarredPlaces)
	return b.String()
}
