package mafia

// NoVoteWhy says why a day's vote is cancelled or is not held (matrix R29, R32, R68, R69, C-11, C-36).
type NoVoteWhy uint8

// The reasons. Each names the rule that decides it; the seat of NoVote says who caused it, where someone did.
const (
	VoteOn               NoVoteWhy = iota // nothing stops today's vote (so far)
	NoVoteBefore                          // R68, C-11: a player left for discipline today, before the vote's result
	NoVoteNight                           // C-11: a player left for discipline the night before
	NoVoteAfterResult                     // R69: a player left for discipline after yesterday's vote result
	NoVoteListOpen                        // C-36, R68: a player left after the last speech began, with a single candidate, and the list then proved open
	NoVoteListClosed                      // C-36, R69: a player other than the single candidate left yesterday after the list had closed
	NoVoteUnsure                          // C-36: a player left after the last speech began, with a single candidate; the next event says whether the list was open
	NoVoteNoCandidates                    // R32: nobody was nominated
	NoVoteCandidatesLeft                  // everyone nominated has left the table (C-36: the single candidate himself), so nobody is voted on
	NoVoteSingleDay1                      // R29: a single candidate on day 1 is not voted on
	NoVoteDay1                            // day1_no_vote: day 1 is not voted on, however many are nominated
)

var noVoteNames = []string{"", "before", "night", "after_result", "list_open", "list_closed", "unsure", "no_candidates",
	"candidates_left", "single_day1", "day1_no_vote"}

// String is the reason's key ("" for VoteOn).
func (w NoVoteWhy) String() string { return noVoteNames[w] }

// NoVote is why today's vote is cancelled or will not take place.
type NoVote struct {
	Why  NoVoteWhy
	Seat int // the player whose leaving caused it; for NoVoteCandidatesLeft the single candidate, if there was one
}

// NoVote says, by day, why today's vote is cancelled (the first cause, as the engine decided it when it cancelled
// the vote), or, once every player has spoken, why it will not take place. During the voting, once it is over,
// while speeches go on and at night it says VoteOn, except that a cancelled day keeps its reason into the night.
func (g *Game) NoVote() NoVote {
	if g.status == VotingCancelled {
		return NoVote{g.noVote, int(g.noVoteSeat)}
	}
	if g.phase != PhaseDay || g.status != VotingPending || g.winner != NoWinner || !g.speechesDone() {
		return NoVote{}
	}
	if g.listUnsure == unsureOtherLeft {
		return NoVote{NoVoteUnsure, int(g.unsureSeat)}
	}
	why := g.noVoting()
	if why == NoVoteCandidatesLeft && g.nNoms == 1 {
		return NoVote{why, int(g.noms[0])}
	}
	return NoVote{Why: why}
}

// noVoting says whether today's candidates can be voted on at all (R29, R32): VoteOn, or why not.
func (g *Game) noVoting() NoVoteWhy {
	switch c := g.candidates(); {
	case c == 0 && g.nNoms == 0:
		return NoVoteNoCandidates
	case c == 0:
		return NoVoteCandidatesLeft
	case g.num == 1 && g.opt.Day1NoVote:
		return NoVoteDay1
	case c == 1 && g.num == 1:
		return NoVoteSingleDay1
	}
	return VoteOn
}

// cancel cancels today's vote for why, caused by seat s; a vote already cancelled keeps its first cause.
func (g *Game) cancel(why NoVoteWhy, s int) {
	if g.status != VotingCancelled {
		g.noVote, g.noVoteSeat = why, uint8(s)
	}
	g.status = VotingCancelled
}

// cancelTomorrow cancels the next day's vote for why, caused by seat s; the first cause is kept.
func (g *Game) cancelTomorrow(why NoVoteWhy, s int) {
	if g.nextNoVote == VoteOn {
		g.nextNoVote, g.nextNoVoteSeat = why, uint8(s)
	}
}
