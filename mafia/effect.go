package mafia

// Effect is what an event would do to the game: who leaves the table (and which of them get a last word), what
// becomes of today's vote and of the next day's, and whether the game ends. The host page asks the engine before
// an action that removes a player, and says it in the host's words before he confirms it.
type Effect struct {
	Leaves   Seats // the players the event takes off the table
	LastWord Seats // of them, those who get a last word
	// VoteCancelled: today's vote is cancelled (R68, C-11); VoteUnsure: whether it is depends on the next event
	// (C-36); RoundAgain: the voting round under way starts again without the player (C-47).
	VoteCancelled, VoteUnsure, RoundAgain bool
	NextVoteCancelled                     bool // the next day's vote is not held (R69, C-11, C-36)
	Ends                                  bool // the game has a result
}

// Effect applies e to scratch, made a copy of g first (CloneInto: asking about every seat in turn copies into the
// same memory), and says what it did; g is unchanged. An event the rules refuse has no effect, and its error.
func (g *Game) Effect(e Event, scratch *Game) (Effect, error) {
	g.CloneInto(scratch)
	if err := scratch.Apply(e); err != nil {
		return Effect{}, err
	}
	x := Effect{Leaves: g.alive &^ scratch.alive}
	x.LastWord = x.Leaves & scratch.lastWord
	x.VoteCancelled = g.status != VotingCancelled && scratch.status == VotingCancelled
	x.VoteUnsure = g.listUnsure == 0 && scratch.listUnsure != 0
	x.RoundAgain = g.status == VotingRounds && scratch.status == VotingRounds && g.candIdx > 0 && scratch.candIdx == 0
	x.NextVoteCancelled = g.nextNoVote == VoteOn && scratch.nextNoVote != VoteOn
	x.Ends = g.winner == NoWinner && scratch.winner != NoWinner
	return x, nil
}

// CloneInto makes dst an independent copy of g, as Clone does, in dst's own memory where it has room: a copy made
// once with Clone can take each of many what-ifs without allocating again.
func (g *Game) CloneInto(dst *Game) {
	days, rounds, score, vals := dst.days, dst.rounds, dst.score, dst.vals
	*dst = *g
	dst.days = append(days[:0], g.days...)
	dst.rounds = append(rounds[:0], g.rounds...)
	dst.score = append(score[:0], g.score...)
	dst.vals = append(vals[:0], g.vals...)
}
