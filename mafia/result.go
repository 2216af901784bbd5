package mafia

// Result is the state of a game as spec section 3 reports it.
type Result struct {
	Rules    string
	Finished bool
	Winner   Winner
	Seats    []SeatResult
	Days     []DayResult
}

// SeatResult is one seat's part of a Result.
type SeatResult struct {
	Seat     int
	Role     Role
	Team     Team
	Alive    bool
	Won      bool // his team won the game (never on a draw or before the end)
	Fouls    int
	Warnings int
	Out      Out // How is NotOut while he plays
	Points   int // hundredths
	Score    []ScoreItem
}

// ScoreItem is the sum of one points item for one seat.
type ScoreItem struct {
	Item   Item
	Points int // hundredths
}

// DayResult is one day's nominations and voting.
type DayResult struct {
	Day       int
	Nominated []int
	Voting    VotingStatus
	Rounds    []Round
	Out       []int // the seats that left during this day, in the order they left
}

// Round is one voting round: the votes per candidate in voting order, or a lift vote's yes count, with what it
// decided and the seats that concerns (Seats: who leaves, the tied, or those put to the lift, in seat order).
type Round struct {
	Lift    bool
	Yes     int
	Counts  []CandidateVotes
	Outcome Outcome
	Seats   []int
	Default int // R26: of the last candidate's votes, how many the default rule gave him beyond the hands raised
}

// Outcome is what a voting round decided (R31-R40, C-09, C-21, C-33, C-43).
type Outcome uint8

// The outcomes of a round.
const (
	NoOutcome     Outcome = iota
	OutcomeLeave          // one leader leaves; after a lift vote, all the tied leave
	OutcomeRevote         // a new tie: the tied speak 30 s and are voted on again
	OutcomeLift           // the same tie again (or day1_lift_only's single leader): the lift vote comes next
	OutcomeStay           // nobody leaves today
	numOutcomes
)

var outcomeNames = [numOutcomes]string{"", "leave", "revote", "lift", "stay"}

// String is the outcome's stable name.
func (o Outcome) String() string {
	if o < numOutcomes {
		return outcomeNames[o]
	}
	return "outcome?"
}

// CandidateVotes is one candidate's vote count.
type CandidateVotes struct {
	Seat  int
	Votes int
}

// Points returns seat s's total in hundredths.
func (g *Game) Points(s int) int {
	t := 0
	for _, e := range g.score {
		if int(e.seat) == s {
			t += int(e.points)
		}
	}
	return t
}

// Result builds the game's result.
func (g *Game) Result() Result {
	r := Result{Rules: g.rules.ID, Finished: g.winner != NoWinner, Winner: g.winner}
	var sums [MaxSeats + 1][numItems]int32
	var has [MaxSeats + 1][numItems]bool
	for _, e := range g.score {
		sums[e.seat][e.item] += int32(e.points)
		has[e.seat][e.item] = true
	}
	won := NoTeam
	switch g.winner {
	case RedWins:
		won = Red
	case BlackWins:
		won = Black
	}
	for s := 1; s <= int(g.n); s++ {
		team := g.role[s].Team()
		sr := SeatResult{Seat: s, Role: g.role[s], Team: team, Alive: g.alive.Has(s), Won: won != NoTeam && team == won,
			Fouls: int(g.fouls[s]), Warnings: int(g.warns[s]), Out: g.out[s]}
		for it := ItemWin; it < numItems; it++ {
			if has[s][it] && sums[s][it] != 0 {
				sr.Score = append(sr.Score, ScoreItem{Item: it, Points: int(sums[s][it])})
				sr.Points += int(sums[s][it])
			}
		}
		r.Seats = append(r.Seats, sr)
	}
	for _, d := range g.days {
		r.Days = append(r.Days, g.dayResult(d, g.vals[d.nomOff:int(d.nomOff)+int(d.nNoms)]))
	}
	if g.phase == PhaseDay {
		cur := dayRec{day: g.num, status: g.status, nNoms: g.nNoms, firstRound: g.firstRound,
			nRounds: uint8(len(g.rounds) - int(g.firstRound))}
		if g.winner != NoWinner && (g.status == VotingPending || g.status == VotingRounds) {
			cur.status = VotingNotHeld // the day ended before its voting
			if cur.nRounds > 0 {
				cur.status = VotingHeld
			}
		}
		r.Days = append(r.Days, g.dayResult(cur, g.noms[:g.nNoms]))
	}
	return r
}

// dayResult is day d's part of the result, its nominees noms.
func (g *Game) dayResult(d dayRec, noms []uint8) DayResult {
	dr := DayResult{Day: int(d.day), Voting: d.status, Nominated: []int{}, Rounds: []Round{}, Out: []int{}}
	for _, s := range noms {
		dr.Nominated = append(dr.Nominated, int(s))
	}
	for _, rr := range g.rounds[d.firstRound : int(d.firstRound)+int(d.nRounds)] {
		if rr.lift {
			dr.Rounds = append(dr.Rounds, Round{Lift: true, Yes: int(rr.yes), Outcome: rr.outcome, Seats: rr.who.List()})
			continue
		}
		round := Round{Outcome: rr.outcome, Seats: rr.who.List(), Default: int(rr.dflt)}
		cands, counts := g.vals[rr.off:rr.off+uint16(rr.n)], g.vals[rr.off+uint16(rr.n):rr.off+2*uint16(rr.n)]
		for i := range cands {
			round.Counts = append(round.Counts, CandidateVotes{Seat: int(cands[i]), Votes: int(counts[i])})
		}
		dr.Rounds = append(dr.Rounds, round)
	}
	// the seats that left during this day, in order
	for order := 1; order <= int(g.removed); order++ {
		for s := 1; s <= int(g.n); s++ {
			o := g.out[s]
			if int(o.Order) == order && o.Phase == PhaseDay && o.Number == d.day {
				dr.Out = append(dr.Out, s)
			}
		}
	}
	return dr
}
