package mafia

// Hands returns the hands a vote event counts against its candidate when it is the next event: the recorded
// voters and, on the last candidate of a round with the default vote (R26), every living player who has not voted
// in that round. It reads the state only; Apply still decides whether the event is allowed. Statistics over a
// replay use it to know who voted against whom.
func (g *Game) Hands(e Event) Seats {
	if e.Type != EvVote {
		return 0
	}
	nCands, idx, voted := g.nCands, g.candIdx, g.voted
	if g.status == VotingPending || g.status == VotingCancelled {
		nCands, idx, voted = uint8(g.candidates()), 0, 0 // the vote opens the voting: startVoting's list
	}
	v := e.Voters
	if nCands > 0 && idx == nCands-1 && g.opt.DefaultVoteToLast {
		v |= g.alive &^ voted
	}
	return v
}
