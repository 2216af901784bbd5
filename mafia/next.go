package mafia

// Step is one thing that happens at the table.
type Step uint8

// The steps.
const (
	NoStep           Step = iota
	StepAcquaintance      // night 1: the black players meet (R07)
	StepDonWake           // night 1: the don shows himself (R08)
	StepSheriffWake       // night 1: the sheriff (commissar) shows himself (R08; 004 L9)
	StepFreeSeating       // night 1: free seating (R11)
	StepDay               // the host wakes the city: record "day"
	StepShooting          // the black players shoot (R42)
	StepDonCheck          // the don looks for the sheriff (R45)
	StepSheriffCheck      // the sheriff (commissar) checks a colour (R46)
	StepHeal              // the doctor protects (R49)
	StepBestMove          // the night victim names three seats (R56)
	StepLastWord          // a player who left speaks (R18, R53)
	StepSpeech            // a regular day speech (R13)
	StepTieSpeech         // a 30 s speech of a tied candidate (R17)
	StepVote              // the vote on one candidate (R24)
	StepLift              // the vote on whether all the tied leave (R35)
	StepNight             // the host ends the day: record "night"
	StepGameOver          // the game has a result
)

var stepNames = []string{"", "acquaintance", "don_wake", "sheriff_wake", "free_seating", "day", "shooting",
	"don_check", "sheriff_check", "heal", "best_move", "last_word", "speech", "tie_speech", "vote", "lift",
	"night", "game_over"}

// String is the step's stable name.
func (s Step) String() string { return stepNames[s] }

// PlanStep is one step of the plan Next returns.
type PlanStep struct {
	Step   Step
	Seat   int        // the speaker, candidate, checker or player concerned; 0 when none
	Limit  int        // seconds; 0 means no time limit
	Speech SpeechMode // for StepSpeech: full, short (30 s) or lost
	// Event is the event that records this step; NoEvent for a step the host only times.
	Event EventType
	// Current marks a step already under way (a speech whose event is recorded).
	Current bool
	// WithBestMove marks a last word inside which the best move is made (002 §4.5.11, C-34).
	WithBestMove bool
}

const maxPlan = 2*MaxSeats + 8

// Next is what happens next at the table: the phase, the steps from now until the next event the host must
// record, who may act, and which events the rules allow now. Host mode is built only on it.
type Next struct {
	Phase   Phase
	Number  int
	Winner  Winner
	Steps   [maxPlan]PlanStep
	N       int
	Actors  Seats    // who may act in the step that records the next event (voters, shooters, the speaker)
	Allowed EventSet // the event types the rules allow now
	Speaker int      // the seat whose regular speech is under way, 0 when none
	Muted   Seats    // players whose next regular speech is lost or shortened
	// Candidates are the seats being voted on now, in voting order (NCand of them); Tied marks a tie.
	Candidates [MaxSeats]uint8
	NCand      int
	Tied       bool
	// Counts are the votes of the candidates already voted in this round (aligned with Candidates); Voted are
	// the players who have voted in it.
	Counts [MaxSeats]uint8
	Voted  Seats
	// RestToLast: the candidate voted on next is the last, and every hand not raised yet counts against him
	// (the default vote, R26, when the rule set or its option has it); Rest are those hands.
	RestToLast bool
	Rest       Seats
	// Nominations are today's nominations in order: Nominations[i] nominated by Nominators[i].
	Nominations, Nominators [MaxSeats]uint8
	NNom                    int
	// DonAnswer and SheriffAnswer are tonight's check answers, for the host to show (R45, R46, R103).
	DonAnswer, SheriffAnswer Answer
}

// Plan returns the steps in order; the first is the current one.
func (n *Next) Plan() []PlanStep { return n.Steps[:n.N] }

// BestMoveSeat is the seat whose best move may be recorded now (his own step, or inside his last word), 0 when
// none is.
func (n *Next) BestMoveSeat() int {
	if !n.Allowed.Has(EvBestMove) {
		return 0
	}
	for _, p := range n.Plan() {
		if p.Step == StepBestMove || p.Step == StepLastWord && p.WithBestMove {
			return p.Seat
		}
	}
	return 0
}

// Current returns the first step of the plan.
func (n *Next) Current() PlanStep {
	if n.N == 0 {
		return PlanStep{}
	}
	return n.Steps[0]
}

func (n *Next) add(p PlanStep) {
	if n.N < len(n.Steps) {
		n.Steps[n.N] = p
		n.N++
	}
}

// Next returns what happens next. It does not allocate.
func (g *Game) Next() Next {
	n := Next{Phase: g.phase, Number: int(g.num), Winner: g.winner, Muted: g.muteNext}
	n.Allowed = n.Allowed.add(EvFoul, EvWarning, EvDisqualify)
	if g.rules.Mute == MuteWarnings {
		n.Allowed &^= 1 << EvFoul
	}
	if g.rules.Points != NoPoints {
		n.Allowed = n.Allowed.add(EvAdjust)
	}
	if g.winner != NoWinner {
		if g.bmSeat != 0 {
			n.Allowed = n.Allowed.add(EvBestMove)
			n.addActor(int(g.bmSeat))
			n.add(PlanStep{Step: StepBestMove, Seat: int(g.bmSeat), Limit: g.rules.Times.BestMove, Event: EvBestMove})
		}
		for _, s := range g.lastWordOrder() {
			n.add(PlanStep{Step: StepLastWord, Seat: s, Limit: g.lastWordLimit(s)})
		}
		n.add(PlanStep{Step: StepGameOver})
		return n
	}
	n.Allowed = n.Allowed.add(EvTeamLoss)
	if g.rules.Draw == DrawDeclared {
		n.Allowed = n.Allowed.add(EvDraw)
	}
	if g.phase == PhaseNight {
		g.nightPlan(&n)
		return n
	}
	g.dayPlan(&n)
	return n
}

func (g *Game) nightPlan(n *Next) {
	t := g.rules.Times
	if g.num == 1 {
		n.add(PlanStep{Step: StepAcquaintance, Limit: t.Acquaintance})
		var don, sher int
		for s := 1; s <= int(g.n); s++ {
			switch g.role[s] {
			case Don:
				don = s
			case Sheriff, Commissar:
				sher = s
			}
		}
		sport := g.rules.tables != nil
		if don != 0 && sport {
			n.add(PlanStep{Step: StepDonWake, Seat: don, Limit: t.DonWake})
		}
		if sher != 0 && (sport || t.NightOneCommissarWakeUp) {
			n.add(PlanStep{Step: StepSheriffWake, Seat: sher, Limit: t.SheriffWake})
		}
		if t.FreeSeating > 0 {
			n.add(PlanStep{Step: StepFreeSeating, Limit: t.FreeSeating})
		}
		n.add(PlanStep{Step: StepDay, Event: EvDay})
		n.Allowed = n.Allowed.add(EvDay)
		return
	}
	for i := uint8(0); i < g.nOrd; i++ {
		if i+1 < g.nightStage {
			continue // that part of the night is over
		}
		switch g.order[i] {
		case GroupMafia:
			left := g.Shooters()
			if !left.Empty() {
				if n.Actors.Empty() {
					n.Actors = left
				}
				n.add(PlanStep{Step: StepShooting, Event: EvShot})
			}
			n.Allowed = n.Allowed.add(EvShot)
		case GroupDon:
			if s := g.seatWith(Don); s != 0 && g.hasSher && !g.checkedBy.Has(s) {
				n.addActor(s)
				n.add(PlanStep{Step: StepDonCheck, Seat: s, Limit: t.Check, Event: EvCheck})
				n.Allowed = n.Allowed.add(EvCheck)
			}
		case GroupCommissar:
			s := g.seatWith(Sheriff)
			if s == 0 {
				s = g.seatWith(Commissar)
			}
			if s != 0 && !g.checkedBy.Has(s) {
				n.addActor(s)
				n.add(PlanStep{Step: StepSheriffCheck, Seat: s, Limit: t.Check, Event: EvCheck})
				n.Allowed = n.Allowed.add(EvCheck)
			}
		case GroupDoctor:
			if s := g.seatWith(Doctor); s != 0 && !g.healed {
				n.addActor(s)
				n.add(PlanStep{Step: StepHeal, Seat: s, Event: EvHeal})
				n.Allowed = n.Allowed.add(EvHeal)
			}
		}
	}
	if g.donTarget != 0 {
		n.DonAnswer = g.Answer(g.seatWithChecker(Don), int(g.donTarget))
	}
	if g.sheriffTarget != 0 {
		n.SheriffAnswer = AnswerOf(g.role[g.sheriffTarget], Sheriff)
	}
	n.add(PlanStep{Step: StepDay, Event: EvDay})
	n.Allowed = n.Allowed.add(EvDay)
}

func (n *Next) addActor(s int) {
	if n.Actors.Empty() {
		n.Actors = SeatsOf(s)
	}
}

// seatWith returns the living seat with the role, or 0.
func (g *Game) seatWith(r Role) int {
	for s := 1; s <= int(g.n); s++ {
		if g.role[s] == r && g.alive.Has(s) {
			return s
		}
	}
	return 0
}

func (g *Game) seatWithChecker(r Role) int {
	for s := 1; s <= int(g.n); s++ {
		if g.role[s] == r {
			return s
		}
	}
	return 0
}

func (g *Game) lastWordLimit(s int) int {
	if g.out[s].How == OutKilled {
		return g.rules.Times.LastWordNight
	}
	return g.rules.Times.LastWordDay
}

// lastWordOrder lists the players with a last word now, in the order they left.
func (g *Game) lastWordOrder() []int {
	var out [MaxSeats]int
	k := 0
	for order := uint8(1); order <= g.removed; order++ {
		for s := 1; s <= int(g.n); s++ {
			if g.lastWord.Has(s) && g.out[s].Order == order {
				out[k] = s
				k++
			}
		}
	}
	return out[:k:k]
}

func (g *Game) speechLimit(m SpeechMode) int {
	switch m {
	case SpeechShort:
		return g.rules.Times.Short
	case SpeechLost:
		return 0
	}
	return g.rules.Times.Speech
}

func (g *Game) dayPlan(n *Next) {
	t := g.rules.Times
	n.Nominations, n.Nominators, n.NNom = g.noms, g.nominators, int(g.nNoms)
	open := (g.status == VotingPending || g.status == VotingCancelled) && !g.nomClosed
	if open && g.spoken.Empty() {
		// the morning: the best move and the victim's last word (R12, R56; C-34)
		if g.bmSeat != 0 {
			n.Allowed = n.Allowed.add(EvBestMove)
			n.addActor(int(g.bmSeat))
			if t.BestMoveInsideLastWord {
				n.add(PlanStep{Step: StepLastWord, Seat: int(g.bmSeat), Limit: g.lastWordLimit(int(g.bmSeat)), WithBestMove: true})
			} else {
				n.add(PlanStep{Step: StepBestMove, Seat: int(g.bmSeat), Limit: t.BestMove, Event: EvBestMove})
			}
		}
		for _, s := range g.lastWordOrder() {
			if !(t.BestMoveInsideLastWord && s == int(g.bmSeat)) {
				n.add(PlanStep{Step: StepLastWord, Seat: s, Limit: g.lastWordLimit(s)})
			}
		}
	}
	if open {
		if s := int(g.speaker); s != 0 && g.alive.Has(s) {
			n.Speaker = s
			n.add(PlanStep{Step: StepSpeech, Seat: s, Limit: g.speechLimit(g.speakerMode), Speech: g.speakerMode, Current: true})
			if !g.nomBy.Has(s) {
				n.Allowed = n.Allowed.add(EvNominate)
			}
		}
		if next := g.nextSpeaker(); next != 0 {
			mode := SpeechFull
			if g.muteNext.Has(next) {
				mode = g.mutedMode()
			}
			n.Actors = SeatsOf(next)
			n.add(PlanStep{Step: StepSpeech, Seat: next, Limit: g.speechLimit(mode), Speech: mode, Event: EvSpeech})
			n.Allowed = n.Allowed.add(EvSpeech)
			return
		}
		if g.status == VotingPending && g.noVoting() == VoteOn {
			for _, s := range g.noms[:g.nNoms] {
				if g.alive.Has(int(s)) {
					n.Candidates[n.NCand] = s
					n.NCand++
				}
			}
			n.Actors = g.alive
			if !g.opt.CandidateSelfVote {
				n.Actors = n.Actors.Remove(int(n.Candidates[0]))
			}
			if n.NCand == 1 && g.opt.DefaultVoteToLast {
				// a single candidate is also the last: every hand goes to him, his own included (R26, C-03)
				n.RestToLast, n.Rest = true, g.alive
			}
			n.add(PlanStep{Step: StepVote, Seat: int(n.Candidates[0]), Event: EvVote})
			n.Allowed = n.Allowed.add(EvVote)
			if g.listUnsure != 0 {
				n.Allowed = n.Allowed.add(EvNight) // C-36: the host may say the list was still open
			}
			return
		}
		n.add(PlanStep{Step: StepNight, Event: EvNight})
		n.Allowed = n.Allowed.add(EvNight)
		return
	}
	if g.status == VotingRounds {
		copy(n.Candidates[:], g.cands[:g.nCands])
		n.NCand = int(g.nCands)
		copy(n.Counts[:], g.counts[:g.candIdx])
		n.Voted = g.voted
		if g.candIdx == g.nCands-1 && g.opt.DefaultVoteToLast {
			n.RestToLast, n.Rest = true, g.alive&^g.voted
		}
		n.Tied = g.tieSpeeches
		if g.liftDue {
			if g.respeechDue() {
				// day1_respeech: the day-1 leader's defence speech comes before the lift question
				n.add(PlanStep{Step: StepTieSpeech, Seat: int(g.cands[0]), Limit: t.Tie})
			}
			n.Actors = g.alive
			n.add(PlanStep{Step: StepLift, Event: EvLift})
			n.Allowed = n.Allowed.add(EvLift)
			return
		}
		if g.tieSpeeches && g.candIdx == 0 {
			for _, s := range g.cands[:g.nCands] {
				n.add(PlanStep{Step: StepTieSpeech, Seat: int(s), Limit: t.Tie})
			}
		}
		cand := int(g.cands[g.candIdx])
		n.Actors = g.alive &^ g.voted
		if !g.opt.CandidateSelfVote {
			n.Actors = n.Actors.Remove(cand) // C-03: a candidate never raises his hand against himself
		}
		n.add(PlanStep{Step: StepVote, Seat: cand, Event: EvVote})
		n.Allowed = n.Allowed.add(EvVote)
		return
	}
	for _, s := range g.lastWordOrder() {
		n.add(PlanStep{Step: StepLastWord, Seat: s, Limit: g.lastWordLimit(s)})
	}
	n.add(PlanStep{Step: StepNight, Event: EvNight})
	n.Allowed = n.Allowed.add(EvNight)
}

// Answer is what a check tells the checker.
type Answer uint8

// The answers (R45, R46).
const (
	NoAnswer         Answer = iota
	AnswerRed               // the sheriff's check: a red player
	AnswerBlack             // the sheriff's check: a black player
	AnswerSheriff           // the don's check: the sheriff
	AnswerNotSheriff        // the don's check: not the sheriff
)

var answerNames = []string{"", "red", "black", "sheriff", "not_sheriff"}

// String is the answer's stable name.
func (a Answer) String() string { return answerNames[a] }

// AnswerOf returns the answer a checker with role checker gets about a player with role target.
func AnswerOf(target, checker Role) Answer {
	if checker == Don {
		if target == Sheriff || target == Commissar {
			return AnswerSheriff
		}
		return AnswerNotSheriff
	}
	if target.Team() == Black {
		return AnswerBlack
	}
	return AnswerRed
}

// Answer returns the answer seat by's check of seat target gets.
func (g *Game) Answer(by, target int) Answer {
	return AnswerOf(g.Role(target), g.Role(by))
}

// Gesture is a hand sign the host shows (000 L71-L84, matrix R103).
type Gesture uint8

// The club's gestures.
const (
	NoGesture       Gesture = iota
	ThumbUp                 // a citizen; a red player
	ThumbDown               // mafia; a black player
	ThumbToRing             // the don
	Okay                    // the sheriff
	TwoOkaysCrossed         // not the sheriff
)

var gestureNames = []string{"", "thumb_up", "thumb_down", "thumb_to_ring", "okay", "two_okays_crossed"}

// String is the gesture's stable name.
func (g Gesture) String() string { return gestureNames[g] }

// Gesture returns the sign the host shows for the answer.
func (a Answer) Gesture() Gesture {
	switch a {
	case AnswerRed:
		return ThumbUp
	case AnswerBlack:
		return ThumbDown
	case AnswerSheriff:
		return Okay
	case AnswerNotSheriff:
		return TwoOkaysCrossed
	}
	return NoGesture
}

// RoleGesture returns the sign that shows a role, as the host shows it when the don and the sheriff wake on
// night 1 (000 L69).
func RoleGesture(r Role) Gesture {
	switch r {
	case Don:
		return ThumbToRing
	case Sheriff, Commissar:
		return Okay
	case Mafia:
		return ThumbDown
	case Citizen, Doctor:
		return ThumbUp
	}
	return NoGesture
}
