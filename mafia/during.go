package mafia

// DuringKind is where a foul, warning or disqualification fell, where the events around it cannot tell (the
// record's "during", spec section 2). The engine never reads it to apply an event; the chronology, the protocol
// and exports do.
type DuringKind uint8

// The moments of spec section 2.
const (
	DuringUnknown           DuringKind = iota // not recorded: the events around it are all there is
	DuringSpeech                              // a regular day speech; Seat is the speaker
	DuringTieSpeech                           // a tied candidate's 30 s speech; Seat is the speaker
	DuringLastWord                            // a last word (with the best move inside it, where there is one); Seat is the speaker
	DuringNominationsClosed                   // after the last speech, before the first vote
	DuringVote                                // the vote on a candidate; Seat is the candidate
	DuringLift                                // the lift vote
	DuringNight                               // the night
	numDuring
)

var duringNames = [numDuring]string{"", "speech", "tie_speech", "last_word", "nominations_closed", "vote", "lift", "night"}

// String is the moment's name in the record.
func (k DuringKind) String() string {
	if k < numDuring {
		return duringNames[k]
	}
	return "during?"
}

// ParseDuringKind returns the moment with the given record name.
func ParseDuringKind(s string) (DuringKind, bool) {
	for k := DuringSpeech; k < numDuring; k++ {
		if duringNames[k] == s {
			return k, true
		}
	}
	return DuringUnknown, false
}

// HasSeat reports whether the moment names a seat: the speaker of a speech, tie speech or last word, or the
// candidate of a vote.
func (k DuringKind) HasSeat() bool {
	return k == DuringSpeech || k == DuringTieSpeech || k == DuringLastWord || k == DuringVote
}

// During is the moment a discipline event fell: its kind and, where the kind names one, the seat (the speaker or
// the candidate). The zero value means "not recorded".
type During struct {
	Kind DuringKind
	Seat uint8
}

// During returns the moment of the game now, for a foul, warning or disqualification recorded now: the record's
// "during" value the host page stores with the event. It is what the engine knows:
//   - at night, DuringNight;
//   - in the morning, the night victim's last word (his best move is made before or inside it);
//   - during the day's speeches, the speech under way (also after its speaker has nominated, and for the last
//     speaker until the first vote: the record has no event for the end of a speech, so a host who knows the
//     last speech is over passes DuringNominationsClosed himself);
//   - before the re-vote of a tie, DuringTieSpeech with the first tied candidate (the engine does not know which
//     of the 30 s speeches is under way: the host page, which times them, names the speaker with WithSeat);
//   - during a round, the vote on the candidate voted now; before the lift vote, DuringLift;
//   - after the voting (or once the game is over), the first pending last word in the order the players left;
//   - DuringUnknown when none of these holds (the morning of a day without a victim, the end of a day whose
//     voting left nobody with a last word, the end of the game).
func (g *Game) During() During {
	if g.winner == NoWinner && g.phase == PhaseNight {
		return During{Kind: DuringNight}
	}
	last := func() During {
		if lw := g.lastWordOrder(); len(lw) > 0 {
			return During{Kind: DuringLastWord, Seat: uint8(lw[0])}
		}
		return During{}
	}
	if g.winner != NoWinner {
		return last()
	}
	open := (g.status == VotingPending || g.status == VotingCancelled) && !g.nomClosed
	if open {
		if s := g.speaker; s != 0 && g.alive.Has(int(s)) {
			return During{Kind: DuringSpeech, Seat: s}
		}
		if g.spoken.Empty() {
			return last() // the morning: the night victim's last word
		}
		if g.nextSpeaker() == 0 {
			return During{Kind: DuringNominationsClosed} // the last speaker left the table after his speech
		}
		return During{}
	}
	if g.status == VotingRounds {
		if g.liftDue {
			if g.respeechDue() {
				return During{Kind: DuringTieSpeech, Seat: g.cands[0]} // day1_respeech: the leader's speech
			}
			return During{Kind: DuringLift}
		}
		if g.tieSpeeches && g.candIdx == 0 {
			return During{Kind: DuringTieSpeech, Seat: g.cands[0]}
		}
		return During{Kind: DuringVote, Seat: g.cands[g.candIdx]}
	}
	return last()
}

// WithSeat returns the moment naming seat s instead (the tie speech or last word the host page knows is under
// way).
func (d During) WithSeat(s int) During {
	d.Seat = uint8(clampSeat(s))
	return d
}
