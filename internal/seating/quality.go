package seating

import (
	"fmt"
	"strconv"
	"strings"
)

// Quality holds the figures of a schedule's balance, and the bounds no schedule of its size can beat.
type Quality struct {
	// Games[p] is the number of rounds player p plays (Rounds less the rounds he sits out).
	Games []int
	// GamesMin and GamesMax are the fewest and most games any player plays: equal, or one apart when
	// EqualPossible is false (as Generate makes them; a Swap with a player sitting out can change that).
	GamesMin, GamesMax int
	// EqualPossible reports whether any schedule of these players, tables and rounds gives everyone the same
	// number of games: whether Players divides Rounds*Tables*PerTable.
	EqualPossible bool
	// SitOutsMin and SitOutsMax are the fewest and most rounds any player sits out (Rounds-GamesMax and
	// Rounds-GamesMin).
	SitOutsMin, SitOutsMax int
	// SitOutsEarly is the number of times a player sits out a round while a player who plays that round has sat
	// out fewer rounds before it: 0 when no one sits out twice before everyone has sat out once, nor three times
	// before everyone twice, and so on (as Generate makes it; a Swap with a player sitting out can change that).
	SitOutsEarly int

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
	// SeatBound is the least SeatMax of any schedule: ⌈GamesMax/PerTable⌉.
	SeatBound int

	// TableCounts[p][t] is the number of rounds player p plays at table t (and so under its judge).
	TableCounts [][]int
	// TableMin and TableMax are the fewest and most times any player plays at any one table.
	TableMin, TableMax int
	// PlayerTableSpread is, over the players, the largest difference between the rounds a player plays at his
	// most and his least frequent table.
	PlayerTableSpread int
	// TableBound is the least TableMax of any schedule: ⌈GamesMax/Tables⌉.
	TableBound int

	// MeetMin and MeetMax are the fewest and most rounds any pair of players shares a table.
	MeetMin, MeetMax int
	// MeetHistogram[m] is the number of pairs of players who share a table in exactly m rounds.
	MeetHistogram []int
	// MeetBound is the least MeetMax of any schedule where the players play Games: a player of g games meets
	// (PerTable-1)*g others among Players-1, so one of them at least ⌈(PerTable-1)*g/(Players-1)⌉ times (the
	// pigeonhole bound; the best schedule may need more).
	MeetBound int
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

// Equal reports whether every player plays the same number of games.
func (q Quality) Equal() bool { return q.GamesMin == q.GamesMax }

// ceilDiv is ⌈a/b⌉ for a ≥ 0 and b > 0.
func ceilDiv(a, b int) int { return (a + b - 1) / b }

// Quality computes the figures of the schedule as it stands, swaps included.
func (s *Schedule) Quality() Quality {
	n, k, R, tbl := s.params.Players, s.params.PerTable, s.params.Rounds, s.tables
	q := Quality{
		Games:         make([]int, n),
		EqualPossible: R*s.seated%n == 0,
		SeatCounts:    make([][]int, n),
		TableCounts:   make([][]int, n),
		MeetHistogram: make([]int, R+1),
	}
	for p := range n {
		q.SeatCounts[p] = make([]int, k)
		q.TableCounts[p] = make([]int, tbl)
	}
	meet := make([]int, n*n)
	sat := make([]int, n) // rounds sat out so far
	for r := range R {
		for i, p := range s.seats[r][:s.seated] {
			t := i / k
			q.Games[p]++
			q.SeatCounts[p][i%k]++
			q.TableCounts[p][t]++
			if s.barred[p*tbl+t] {
				q.BarredPlaces++
			}
			for _, x := range s.seats[r][t*k : i] {
				meet[p*n+x]++
				meet[x*n+p]++
			}
		}
		if out := s.seats[r][s.seated:]; len(out) > 0 {
			least := R
			for _, p := range s.seats[r][:s.seated] {
				least = min(least, sat[p])
			}
			for _, p := range out {
				if sat[p] > least {
					q.SitOutsEarly++
				}
			}
			for _, p := range out {
				sat[p]++
			}
		}
	}
	q.GamesMin, q.GamesMax = R, 0
	for _, g := range q.Games {
		q.GamesMin, q.GamesMax = min(q.GamesMin, g), max(q.GamesMax, g)
		q.MeetBound = max(q.MeetBound, ceilDiv((k-1)*g, n-1))
	}
	q.SitOutsMin, q.SitOutsMax = R-q.GamesMax, R-q.GamesMin
	q.SeatBound, q.TableBound = ceilDiv(q.GamesMax, k), ceilDiv(q.GamesMax, tbl)

	q.SeatMin, q.SeatMax = R, 0
	for c := range k {
		lo, hi := R, 0
		for p := range n {
			lo, hi = min(lo, q.SeatCounts[p][c]), max(hi, q.SeatCounts[p][c])
		}
		q.SeatMin, q.SeatMax = min(q.SeatMin, lo), max(q.SeatMax, hi)
		q.SeatSpread = max(q.SeatSpread, hi-lo)
	}
	q.TableMin, q.TableMax = R, 0
	for p := range n {
		lo, hi := R, 0
		for _, c := range q.SeatCounts[p] {
			lo, hi = min(lo, c), max(hi, c)
		}
		q.PlayerSeatSpread = max(q.PlayerSeatSpread, hi-lo)
		lo, hi = R, 0
		for _, c := range q.TableCounts[p] {
			lo, hi = min(lo, c), max(hi, c)
		}
		q.TableMin, q.TableMax = min(q.TableMin, lo), max(q.TableMax, hi)
		q.PlayerTableSpread = max(q.PlayerTableSpread, hi-lo)
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
	if q.Equal() {
		fmt.Fprintf(&b, "games: every player plays %d", q.GamesMax)
	} else {
		fmt.Fprintf(&b, "games: every player plays %d-%d", q.GamesMin, q.GamesMax)
		if !q.EqualPossible {
			b.WriteString(" (no schedule of this size can be equal)")
		}
	}
	fmt.Fprintf(&b, "; sits out %d-%d rounds", q.SitOutsMin, q.SitOutsMax)
	if q.SitOutsEarly > 0 {
		fmt.Fprintf(&b, ", %d times before his turn", q.SitOutsEarly)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "seat numbers: each player at each seat %d-%d times, best possible %d (spread across players %d, within a player %d)\n",
		q.SeatMin, q.SeatMax, q.SeatBound, q.SeatSpread, q.PlayerSeatSpread)
	fmt.Fprintf(&b, "tables: each player at each table %d-%d times, best possible %d (within a player %d)\n",
		q.TableMin, q.TableMax, q.TableBound, q.PlayerTableSpread)
	fmt.Fprintf(&b, "meetings: every pair %d-%d times, at least %d for some pair in any schedule; pairs meeting ", q.MeetMin, q.MeetMax, q.MeetBound)
	times, pairs := make([]string, len(q.MeetHistogram)), make([]string, len(q.MeetHistogram))
	for m, c := range q.MeetHistogram {
		times[m], pairs[m] = strconv.Itoa(m), strconv.Itoa(c)
	}
	fmt.Fprintf(&b, "%s times: %s", strings.Join(times, "/"), strings.Join(pairs, "/"))
	fmt.Fprintf(&b, "; distinct opponents per player %d-%d\n", q.OpponentsMin, q.OpponentsMax)
	fmt.Fprintf(&b, "constraints: %d pairs kept apart met, %d places at a barred table\n", q.ApartMeetings, q.BarredPlaces)
	return b.String()
}
