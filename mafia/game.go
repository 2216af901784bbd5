package mafia

import "fmt"

// Phase is night or day.
type Phase uint8

// The phases. The game starts on night 1, the acquaintance night; day N follows night N (matrix C-06).
const (
	PhaseNight Phase = iota + 1
	PhaseDay
)

// String is the phase's name.
func (p Phase) String() string {
	if p == PhaseDay {
		return "day"
	}
	return "night"
}

// OutHow says how a player left the table (spec section 3).
type OutHow uint8

// The ways to leave.
const (
	NotOut OutHow = iota
	OutVoted
	OutKilled
	OutFouls
	OutDisqualified
	OutTeamLoss
)

var outNames = []string{"", "voted", "killed", "fouls", "disqualified", "team_loss"}

// String is the record name of the way out.
func (h OutHow) String() string { return outNames[h] }

// Out is when and how a player left.
type Out struct {
	How    OutHow
	Phase  Phase
	Number uint8
	Order  uint8 // 1 for the first player to leave the game, 2 for the next, ...
}

// VotingStatus is the state of a day's voting (spec section 3, days[].voting).
type VotingStatus uint8

// The voting states. Pending and Rounds exist only while the day goes on.
const (
	VotingPending VotingStatus = iota
	VotingRounds
	VotingHeld
	VotingNotHeld
	VotingCancelled
)

var votingNames = []string{"pending", "voting", "held", "not_held", "cancelled"}

// String is the record name of the status.
func (s VotingStatus) String() string { return votingNames[s] }

// SpeechMode says how long a regular speech may be.
type SpeechMode uint8

// The speech modes (matrix R62, C-10, C-51).
const (
	SpeechFull  SpeechMode = iota
	SpeechShort            // 30 s
	SpeechLost             // no speech, but the player is called and may nominate
)

var speechNames = []string{"full", "short", "lost"}

// String is the mode's name.
func (m SpeechMode) String() string { return speechNames[m] }

// roundRec is a voting round as it was held. Its candidates and their counts are the n bytes at off and the n bytes
// after them in the game's vals, so that a round costs 16 bytes whatever the table's size (a table of 63 seats would
// otherwise give every round of every game 126 bytes of arrays).
type roundRec struct {
	day     uint8
	lift    bool
	yes     uint8
	n       uint8
	off     uint16
	outcome Outcome
	dflt    uint8 // R26: the last candidate's votes given by the default rule, beyond the hands raised
	who     Seats
}

// dayRec is a day as it closed. Its nominees are the nNoms bytes at nomOff in the game's vals.
type dayRec struct {
	day        uint8
	status     VotingStatus
	nNoms      uint8
	nRounds    uint8
	nomOff     uint16
	firstRound uint16
}

type scoreEntry struct {
	seat   uint8
	item   Item
	points int16 // hundredths; an item is a few points at most (an adjustment is within ±10)
}

// Game is the state of one game under one rule set. Apply an event to move it on; a rejected event leaves it
// unchanged. A Game holds append-only logs that share memory with copies: take a snapshot with Clone, not by
// copying the value.
type Game struct {
	rules *Rules
	opt   Options
	order [4]NightGroup // the night's order of groups
	nOrd  uint8

	n       uint8
	role    [MaxSeats + 1]Role
	black   Seats
	hasSher bool // a sheriff or commissar is seated (2.6.3)
	alive   Seats
	out     [MaxSeats + 1]Out
	fouls   [MaxSeats + 1]uint8
	warns   [MaxSeats + 1]uint8
	fined   Seats // the disqualification penalty was given
	removed uint8

	phase  Phase
	num    uint8
	winner Winner

	// the current day
	opener      uint8
	spoken      Seats
	speaker     uint8
	speakerMode SpeechMode
	muteNext    Seats
	nomBy       Seats
	nominated   Seats
	nNoms       uint8
	noms        [MaxSeats]uint8
	nominators  [MaxSeats]uint8
	status      VotingStatus
	nCands      uint8
	candIdx     uint8
	cands       [MaxSeats]uint8
	voted       Seats
	counts      [MaxSeats]uint8
	ballot      [MaxSeats + 1]uint8 // for each seat, 1 + the index of the candidate he voted against this round; 0: none yet
	prevTie     Seats
	liftDue     bool
	firstRound  uint16
	lastWord    Seats
	day1Voted   uint8
	bmSeat      uint8
	anyKill     bool
	victim      uint8
	ugayka      uint8
	nightAlive  [4]uint8
	donFound    bool
	sheriffSaw  Seats
	tieSpeeches bool // the current round follows a tie: the tied speak 30 s first
	// listUnsure: a disqualification came after the last speech began, with one candidate, and the record does
	// not say whether that speech had ended (C-36). The next event settles it: the last speaker nominating means
	// the list was open (today's vote is cancelled); a vote means it was closed.
	listUnsure uint8
	unsureSeat uint8 // the player whose leaving made the list unsure
	// nomClosed: the voting has started today, so the list of candidates is closed even if a disqualification
	// then cancels the vote (R20).
	nomClosed bool
	// why today's vote is cancelled and who caused it (NoVote), and the same for the next day's (VoteOn: it is held)
	noVote         NoVoteWhy
	noVoteSeat     uint8
	nextNoVote     NoVoteWhy
	nextNoVoteSeat uint8

	// the current night
	nightStage    uint8
	shotBy        Seats
	shotTwice     Seats
	shotAt        [MaxSeats + 1]uint8
	checkedBy     Seats
	donTarget     uint8
	sheriffTarget uint8
	healed        bool
	healTarget    uint8
	prevHeal      uint8
	prevHealNight uint8

	days   []dayRec
	rounds []roundRec
	vals   []uint8 // the closed days' nominees and the rounds' candidates and counts (dayRec, roundRec)
	score  []scoreEntry
}

// NewGame starts a game on the first night. roles[i] is the role of seat i+1.
func NewGame(r *Rules, opt Options, roles []Role) (*Game, error) {
	if r == nil {
		return nil, fmt.Errorf("no rule set")
	}
	if opt.rules == nil {
		opt = r.DefaultOptions()
	}
	if opt.rules != r {
		return nil, fmt.Errorf("the options belong to %s, not %s", opt.rules.ID, r.ID)
	}
	if err := r.ValidateRoles(roles); err != nil {
		return nil, err
	}
	if err := opt.check(roles); err != nil {
		return nil, err
	}
	g := &Game{rules: r, opt: opt, n: uint8(len(roles)), phase: PhaseNight, num: 1}
	for i, role := range roles {
		s := i + 1
		g.role[s] = role
		if role.Team() == Black {
			g.black = g.black.Add(s)
		}
		if role == Sheriff || role == Commissar {
			g.hasSher = true
		}
	}
	g.alive = allSeats(len(roles))
	g.nightAlive[1] = uint8(len(roles))
	if opt.NightOrderLen > 0 {
		copy(g.order[:], opt.NightOrder[:opt.NightOrderLen])
		g.nOrd = uint8(opt.NightOrderLen)
	} else {
		// 000 L88-L90, 001 L27, 002 §4.5.3-§4.5.7, 004 L17: the shot, then the don, then the sheriff (commissar).
		g.order = [4]NightGroup{GroupMafia, GroupDon, GroupCommissar}
		g.nOrd = 3
	}
	// Room for a whole game, so that applying an event does not allocate.
	g.days = make([]dayRec, 0, 8)
	g.rounds = make([]roundRec, 0, 16)
	g.score = make([]scoreEntry, 0, 96)
	g.vals = make([]uint8, 0, 128)
	return g, nil
}

// Clone returns an independent copy of the game.
func (g *Game) Clone() *Game {
	c := *g
	c.days = append(make([]dayRec, 0, cap(g.days)), g.days...)
	c.rounds = append(make([]roundRec, 0, cap(g.rounds)), g.rounds...)
	c.score = append(make([]scoreEntry, 0, cap(g.score)), g.score...)
	c.vals = append(make([]uint8, 0, cap(g.vals)), g.vals...)
	return &c
}

// Rules returns the game's rule set.
func (g *Game) Rules() *Rules { return g.rules }

// Options returns the game's options.
func (g *Game) Options() Options { return g.opt }

// Players is the number of seats.
func (g *Game) Players() int { return int(g.n) }

// Role returns the role at seat s.
func (g *Game) Role(s int) Role { return g.role[clampSeat(s)] }

// Alive returns the seats still at the table.
func (g *Game) Alive() Seats { return g.alive }

// Shooters returns the living black players who have not shot tonight: those who may still shoot, whichever step
// of the night is current (nobody by day, nor on the first night, when nobody shoots: ErrFirstNight).
func (g *Game) Shooters() Seats {
	if g.phase != PhaseNight || g.num == 1 {
		return 0
	}
	return g.alive & g.black &^ g.shotBy
}

// ShotTwice returns the black players who shot more than once tonight, or by day in the night that ended this
// morning: the night's shot is then a miss (R43).
func (g *Game) ShotTwice() Seats { return g.shotTwice }

// Out returns how and when seat s left; How is NotOut while he plays.
func (g *Game) Out(s int) Out { return g.out[clampSeat(s)] }

// Fouls returns seat s's fouls.
func (g *Game) Fouls(s int) int { return int(g.fouls[clampSeat(s)]) }

// Warnings returns seat s's warnings.
func (g *Game) Warnings(s int) int { return int(g.warns[clampSeat(s)]) }

// Phase returns the current phase and its number.
func (g *Game) Phase() (Phase, int) { return g.phase, int(g.num) }

// Winner returns the result; NoWinner while the game goes on.
func (g *Game) Winner() Winner { return g.winner }

// Finished reports whether the game has a result.
func (g *Game) Finished() bool { return g.winner != NoWinner }

// Nominated returns today's nominations in order.
func (g *Game) Nominated() []int {
	out := make([]int, g.nNoms)
	for i := range out {
		out[i] = int(g.noms[i])
	}
	return out
}

// Voting returns the state of today's voting.
func (g *Game) Voting() VotingStatus { return g.status }

// Revealed reports whether seat s's card is open to the table: a player who left, where the rule set shows the
// cards of those who leave (home-ua, home-doctor by option; matrix R52, C-47), and everyone once the game is over.
func (g *Game) Revealed(s int) bool {
	if g.winner != NoWinner {
		return true
	}
	return g.opt.RevealOnElimination && g.out[clampSeat(s)].How != NotOut
}

func clampSeat(s int) int {
	if s < 0 || s > MaxSeats {
		return 0
	}
	return s
}

// Apply records event e. If the rules do not allow it at this point it returns the broken rule (a *Violation or
// *RuleError) and leaves the game unchanged.
func (g *Game) Apply(e Event) error {
	next := *g
	if err := next.apply(e); err != nil {
		return err
	}
	*g = next
	return nil
}

func (g *Game) seat(s uint8) error {
	if s < 1 || s > g.n {
		return violate(ErrNoSuchSeat, int(s), 0, "seat %d (the table has seats 1-%d)", s, g.n)
	}
	return nil
}

func (g *Game) living(s uint8) error {
	if err := g.seat(s); err != nil {
		return err
	}
	if !g.alive.Has(int(s)) {
		return violate(ErrNotAlive, int(s), 0, "seat %d", s)
	}
	return nil
}

func (g *Game) apply(e Event) error {
	if e.Type == NoEvent || e.Type >= numEventTypes {
		return ErrUnknownEvent
	}
	if g.winner != NoWinner {
		switch e.Type {
		case EvAdjust, EvFoul, EvWarning, EvDisqualify:
		case EvBestMove:
			// A red player killed by the shot that ends the game keeps his best move (R55, matrix 2.6.1): like a
			// penalty after the end, it changes points, never the result. This extends spec §3's list.
		default:
			return violate(ErrGameOver, 0, 0, "%s after the end", e.Type)
		}
	}
	switch e.Type {
	case EvDay:
		return g.day()
	case EvNight:
		return g.night()
	case EvSpeech:
		return g.speech(e.Seat)
	case EvNominate:
		return g.nominate(e.Seat, e.Target)
	case EvVote:
		return g.vote(e)
	case EvLift:
		return g.lift(e.Voters)
	case EvShot:
		return g.shot(e.Seat, e.Target)
	case EvCheck:
		return g.check(e.Seat, e.Target)
	case EvHeal:
		return g.heal(e.Seat, e.Target)
	case EvBestMove:
		return g.bestMove(e)
	case EvFoul:
		return g.foul(e.Seat)
	case EvWarning:
		return g.warning(e.Seat)
	case EvDisqualify:
		return g.disqualify(e.Seat)
	case EvTeamLoss:
		return g.teamLoss(e.Seat)
	case EvAdjust:
		return g.adjust(e.Seat, e.Points)
	case EvDraw:
		if g.rules.Draw != DrawDeclared {
			return ErrNoDraw
		}
		g.finish(Draw)
		return nil
	}
	return ErrUnknownEvent
}

// day ends the night: the shots are resolved and the victim leaves (R42-R43, R51).
func (g *Game) day() error {
	if g.phase != PhaseNight {
		return violate(ErrNotNight, 0, 0, "the city is already awake")
	}
	victim := 0
	if g.num >= 2 {
		victim = g.shotVictim()
	}
	g.prevHeal, g.prevHealNight = g.healTarget, g.num
	g.spoken, g.speaker, g.speakerMode = 0, 0, SpeechFull
	g.nomBy, g.nominated, g.nNoms = 0, 0, 0
	g.status, g.noVote, g.noVoteSeat = VotingPending, VoteOn, 0
	if g.nextNoVote != VoteOn {
		g.cancel(g.nextNoVote, int(g.nextNoVoteSeat)) // R68-R69: a disqualification cancelled this day's vote
		g.nextNoVote, g.nextNoVoteSeat = VoteOn, 0
	}
	g.nCands, g.candIdx, g.voted, g.prevTie, g.liftDue, g.tieSpeeches, g.listUnsure, g.nomClosed = 0, 0, 0, 0, false, false, 0, false
	g.firstRound = uint16(len(g.rounds))
	g.lastWord, g.bmSeat = 0, 0
	g.victim = uint8(victim)
	g.nightStage, g.shotBy, g.checkedBy = 0, 0, 0 // shotTwice stays: the morning says why the night missed
	g.donTarget, g.sheriffTarget, g.healed, g.healTarget = 0, 0, false, 0

	if victim != 0 {
		g.bestMoveRight(victim)
		g.anyKill = true
		g.remove(victim, OutKilled) // still at night: he was killed on night N (spec §3)
		g.checkWin()
	}
	g.phase = PhaseDay
	g.opener = g.dayOpener()
	if g.winner != NoWinner {
		return nil
	}
	// C-13: the угайка position is a day that starts with three at the table, one of them black.
	if g.ugayka == 0 && g.alive.Len() == 3 && (g.alive&g.black).Len() == 1 {
		g.ugayka = uint8(first(g.alive & g.black))
	}
	// 001 L34, C-24: three nights in a row with the same number of players is a draw, declared at the morning
	// after the third night.
	if g.rules.Draw == DrawThreeNights {
		start, min := int(g.num)-2, 2
		if g.opt.DrawWindowIncludesN1 {
			min = 1
		}
		if start >= min && int(g.nightAlive[start%4]) == g.alive.Len() {
			g.finish(Draw)
		}
	}
	return nil
}

// shotVictim returns the seat killed tonight, or 0 for a miss: every living black shot exactly once and all at
// the same living target, who was not protected (R43, C-41; 001 L38 for the doctor).
func (g *Game) shotVictim() int {
	blacks := g.alive & g.black
	if blacks == 0 || g.shotBy&blacks != blacks || g.shotTwice&blacks != 0 {
		return 0
	}
	target := uint8(0)
	for v := uint64(blacks); v != 0; v &= v - 1 {
		t := g.shotAt[trailing(v)]
		if target != 0 && t != target {
			return 0
		}
		target = t
	}
	if !g.alive.Has(int(target)) || (g.healed && g.healTarget == target) {
		return 0
	}
	return int(target)
}

// bestMoveRight gives the night victim the best move where the rule set says so (R55, R57, C-07, C-08, C-20).
func (g *Game) bestMoveRight(victim int) {
	if g.rules.BestMove == BestMoveNone {
		return
	}
	due := g.num == 2 // 000 L158, 002 §8.3: the first shooting night
	if g.opt.BMFirstKillAnyNight {
		due = !g.anyKill // 001 L30: the first night victim after the acquaintance
	}
	if !due || (g.opt.BMLostIfTwoLeftDay1 && g.day1Voted >= 2) {
		return
	}
	if g.rules.BestMove == BestMoveRed && g.role[victim].Team() != Red {
		return
	}
	g.bmSeat = uint8(victim)
}

// dayOpener returns the seat due to open today's discussion: seat 1 on day 1 (R15); later the next living seat after
// the player who actually opened the previous day (R16, C-01: 000 L98, 001 L16 "после того, кто открывал", 002
// §4.3.1 "после говорившего первым", 004 L21 "за тим, хто починав минулого разу"), or after the night victim with
// opener_follows_night_victim. If the seat due to open leaves before speaking, the next living player opens, and
// speech records him as the actual opener.
func (g *Game) dayOpener() uint8 {
	if g.num == 1 {
		return uint8(g.nextAlive(0))
	}
	if g.opt.OpenerFollowsVictim && g.victim != 0 {
		return uint8(g.nextAlive(int(g.victim)))
	}
	return uint8(g.nextAlive(int(g.opener)))
}

// nextAlive returns the first living seat after s, going round the table; 0 if nobody is alive.
func (g *Game) nextAlive(s int) int {
	for i := 1; i <= int(g.n); i++ {
		c := (s+i-1)%int(g.n) + 1
		if g.alive.Has(c) {
			return c
		}
	}
	return 0
}

// nextSpeaker returns the seat whose regular speech is due, or 0 when everyone at the table has spoken.
func (g *Game) nextSpeaker() int {
	if g.phase != PhaseDay || g.opener == 0 {
		return 0
	}
	for i := 0; i < int(g.n); i++ {
		c := (int(g.opener)+i-1)%int(g.n) + 1
		if g.alive.Has(c) && !g.spoken.Has(c) {
			return c
		}
	}
	return 0
}

func (g *Game) speechesDone() bool { return g.alive&^g.spoken == 0 }

// night ends the day. It is allowed once every player has spoken and the voting is over, was not held, or was
// cancelled (spec §2).
func (g *Game) night() error {
	if g.phase != PhaseDay {
		return violate(ErrNotDay, 0, 0, "the city is already asleep")
	}
	if !g.speechesDone() {
		return violate(ErrSpeechesNotOver, 0, 0, "seat %d has not spoken", g.nextSpeaker())
	}
	if g.listUnsure == unsureOtherLeft {
		g.cancel(NoVoteListOpen, int(g.unsureSeat)) // C-36: ending the day without the vote says the list was still open
	}
	g.listUnsure = 0
	switch g.status {
	case VotingPending:
		if g.noVoting() == VoteOn {
			return violate(ErrVotingNotOver, 0, 0, "%d candidate(s) are nominated", g.candidates())
		}
		g.status = VotingNotHeld // R29, R32
	case VotingRounds:
		return violate(ErrVotingNotOver, 0, 0, "the voting is under way")
	}
	if g.num >= 250 {
		return ErrTooLong // the phase number is a byte; no real game comes near
	}
	g.closeDay()
	g.phase = PhaseNight
	g.num++
	g.shotTwice = 0
	g.lastWord, g.bmSeat, g.speaker = 0, 0, 0
	g.nightAlive[g.num%4] = uint8(g.alive.Len())
	// 002 §7.9: nobody left during three nights and three days in a row, starting with a night. Checked at the
	// night that ends the third day (spec §3).
	if g.rules.Draw == DrawThreeNightsAndDays {
		start := int(g.num) - 3
		if start >= 1 && int(g.nightAlive[start%4]) == g.alive.Len() {
			g.finish(Draw)
		}
	}
	return nil
}

func (g *Game) closeDay() {
	d := dayRec{day: g.num, status: g.status, nNoms: g.nNoms, nomOff: uint16(len(g.vals)), firstRound: g.firstRound,
		nRounds: uint8(len(g.rounds) - int(g.firstRound))}
	g.vals = append(g.vals, g.noms[:g.nNoms]...)
	g.days = append(g.days, d)
}

// candidates counts today's nominees still at the table.
func (g *Game) candidates() int {
	c := 0
	for _, s := range g.noms[:g.nNoms] {
		if g.alive.Has(int(s)) {
			c++
		}
	}
	return c
}

// speech records seat's regular speech, in the day's order (R15-R16).
func (g *Game) speech(s uint8) error {
	if g.phase != PhaseDay {
		return violate(ErrNotDay, int(s), 0, "speeches")
	}
	if err := g.seat(s); err != nil {
		return err
	}
	if g.status != VotingPending && g.status != VotingCancelled {
		return violate(ErrSpeechesOver, int(s), 0, "the voting has begun")
	}
	next := g.nextSpeaker()
	if next == 0 {
		return ErrSpeechesOver
	}
	if int(s) != next {
		return violate(ErrSpeechOrder, int(s), 0, "seat %d speaks now, not seat %d", next, s)
	}
	if g.spoken.Empty() {
		// R16, C-01: the player who actually opens the day (the seat due to open may have left in the morning,
		// by a disqualification, a 4th foul or a 3rd warning) is the one the next day counts from. The speaking
		// order is unchanged: s is the first living seat from the one that was due.
		g.opener = s
	}
	g.spoken = g.spoken.Add(int(s))
	g.speaker = s
	g.lastWord, g.bmSeat = 0, 0 // the morning's best move and last word are over
	g.speakerMode = SpeechFull
	if g.muteNext.Has(int(s)) {
		g.muteNext = g.muteNext.Remove(int(s))
		g.speakerMode = g.mutedMode()
	}
	return nil
}

// mutedMode is the speech left to a player muted by fouls or warnings (R62, C-10, C-46, C-51).
func (g *Game) mutedMode() SpeechMode {
	switch g.rules.Mute {
	case MuteShort:
		return SpeechShort // 001 L32
	case MuteLost, MuteWarnings:
		if a := g.alive.Len(); g.opt.ShortSpeechAtThreeFour && (a == 3 || a == 4) {
			return SpeechShort // 002 §7.8
		}
		return SpeechLost
	}
	return SpeechFull
}

// nominate records by's nomination of target, made during by's own speech (R19-R22, C-19, C-25).
func (g *Game) nominate(by, target uint8) error {
	if g.phase != PhaseDay {
		return violate(ErrNotDay, int(by), int(target), "nominations")
	}
	if err := g.seat(by); err != nil {
		return err
	}
	if err := g.seat(target); err != nil {
		return err
	}
	if (g.status != VotingPending && g.status != VotingCancelled) || g.nomClosed {
		return ErrNominationsClosed
	}
	if by != g.speaker || !g.alive.Has(int(by)) {
		return violate(ErrNotYourSpeech, int(by), int(target), "seat %d is not speaking", by)
	}
	if g.nomBy.Has(int(by)) {
		return violate(ErrAlreadyNominating, int(by), int(target), "seat %d", by)
	}
	if !g.alive.Has(int(target)) {
		return violate(ErrNotAlive, int(by), int(target), "seat %d cannot be nominated", target)
	}
	if g.nominated.Has(int(target)) {
		return violate(ErrAlreadyNominated, int(by), int(target), "seat %d", target)
	}
	if g.listUnsure != 0 {
		g.cancel(NoVoteListOpen, int(g.unsureSeat)) // C-36: the list was still open, so this was before the vote
		g.listUnsure = 0
	}
	g.nomBy = g.nomBy.Add(int(by))
	g.nominated = g.nominated.Add(int(target))
	g.noms[g.nNoms] = target
	g.nominators[g.nNoms] = by
	g.nNoms++
	g.scoreNomination(by, target)
	return nil
}

// startVoting opens the first round with today's candidates in nomination order (R24).
func (g *Game) startVoting() error {
	if g.status == VotingCancelled {
		return ErrVotingCancelled
	}
	switch g.noVoting() {
	case NoVoteNoCandidates, NoVoteCandidatesLeft:
		return violate(ErrNoVoting, 0, 0, "nobody is nominated")
	case NoVoteSingleDay1:
		return violate(ErrNoVoting, 0, 0, "a single candidate on day 1 is not voted")
	case NoVoteDay1:
		return violate(ErrNoVoting, 0, 0, "day 1 is not voted (day1_no_vote)")
	}
	g.nCands = 0
	for _, s := range g.noms[:g.nNoms] {
		if g.alive.Has(int(s)) {
			g.cands[g.nCands] = s
			g.nCands++
		}
	}
	g.resetRound()
	g.status = VotingRounds
	g.nomClosed = true
	return nil
}

func (g *Game) resetRound() {
	g.candIdx, g.voted = 0, 0
	g.counts = [MaxSeats]uint8{}
	g.ballot = [MaxSeats + 1]uint8{}
}

// vote records the hands raised against the candidate whose turn it is (R23-R28, C-03, C-04, C-31, C-35).
func (g *Game) vote(e Event) error {
	if g.phase != PhaseDay {
		return violate(ErrNotDay, 0, int(e.Target), "voting")
	}
	if err := g.seat(e.Target); err != nil {
		return err
	}
	if !g.speechesDone() {
		return violate(ErrSpeechesNotOver, 0, int(e.Target), "seat %d has not spoken", g.nextSpeaker())
	}
	switch g.status {
	case VotingPending, VotingCancelled:
		if err := g.startVoting(); err != nil {
			return err
		}
		if g.listUnsure == unsureOtherLeft {
			// C-36: the list was closed; today's vote stands, the next day's is not held
			g.cancelTomorrow(NoVoteListClosed, int(g.unsureSeat))
		}
		g.listUnsure = 0
	case VotingHeld, VotingNotHeld:
		return ErrVotingOver
	}
	if g.liftDue {
		return ErrLiftDue
	}
	want := g.cands[g.candIdx]
	if e.Target != want {
		return violate(ErrWrongCandidate, 0, int(e.Target), "seat %d is voted now, not seat %d", want, e.Target)
	}
	v := e.Voters
	if v&^allSeats(int(g.n)) != 0 {
		return violate(ErrNoSuchSeat, 0, int(e.Target), "a voter's seat is not at this table")
	}
	if bad := v &^ g.alive; bad != 0 {
		return violate(ErrVoterNotAlive, first(bad), int(e.Target), "seat %d", first(bad))
	}
	if twice := v & g.voted; twice != 0 {
		return violate(ErrVotedTwice, first(twice), int(e.Target), "seat %d", first(twice))
	}
	if v.Has(int(e.Target)) && !g.opt.CandidateSelfVote {
		return violate(ErrSelfVote, int(e.Target), int(e.Target), "seat %d", e.Target) // C-03: never by hand
	}
	dflt := Seats(0)
	if g.candIdx == g.nCands-1 && g.opt.DefaultVoteToLast {
		dflt = g.alive &^ g.voted &^ v // R26: a non-voter's vote goes to the last candidate, his own included (C-03)
		v |= dflt
	}
	g.counts[g.candIdx] = uint8(v.Len())
	for b := uint64(v); b != 0; b &= b - 1 {
		g.ballot[trailing(b)] = g.candIdx + 1
	}
	g.voted |= v
	g.candIdx++
	if g.candIdx == g.nCands {
		g.completeRound(uint8(dflt.Len()))
	}
	return nil
}

// completeRound settles a voting round: one leader leaves; a tie leads to 30 s speeches and a re-vote, or, when the
// same players tie again, to the lift vote or to night as the rule set says (R31-R40, C-09, C-21, C-33, C-42, C-43).
// dflt is how many of the last candidate's votes the default rule gave him (R26).
func (g *Game) completeRound(dflt uint8) {
	rec := roundRec{day: g.num, n: g.nCands, off: uint16(len(g.vals)), dflt: dflt}
	g.vals = append(append(g.vals, g.cands[:g.nCands]...), g.counts[:g.nCands]...)
	g.rounds = append(g.rounds, rec)
	settle := func(o Outcome, who Seats) { g.rounds[len(g.rounds)-1].outcome, g.rounds[len(g.rounds)-1].who = o, who }
	max, leaders := uint8(0), Seats(0)
	for i := uint8(0); i < g.nCands; i++ {
		switch c := g.counts[i]; {
		case c > max:
			max, leaders = c, SeatsOf(int(g.cands[i]))
		case c == max:
			leaders = leaders.Add(int(g.cands[i]))
		}
	}
	alive := g.alive.Len()
	if !g.opt.DefaultVoteToLast {
		// C-43: without a default vote, a single candidate needs a majority of the table, and nobody leaves on
		// an all-zero round.
		if g.nCands == 1 {
			g.scoreRound(0)
			cand := SeatsOf(int(g.cands[0]))
			settle(OutcomeStay, cand)
			if int(g.counts[0])*2 > alive {
				settle(OutcomeLeave, cand)
				g.leaveByVote(cand)
			}
			g.status = VotingHeld
			return
		}
		if max == 0 {
			settle(OutcomeStay, 0)
			g.status = VotingHeld
			return
		}
	}
	if leaders.Len() == 1 && g.num == 1 && (g.opt.Day1LiftOnly || g.opt.Day1Respeech) {
		// day1_lift_only: the single leader of a day-1 round is put to the lift question (R35's vote, more than
		// half of the table) instead of leaving by the count (R31); day1_respeech: he speaks again first (the
		// tie speech's time, R33).
		g.scoreRound(0)
		settle(OutcomeLift, leaders)
		g.prevTie = leaders
		g.cands[0], g.nCands = uint8(first(leaders)), 1 // the lift is on him alone
		g.liftDue = true
		return
	}
	if leaders.Len() == 1 {
		g.scoreRound(first(leaders))
		settle(OutcomeLeave, leaders)
		g.leaveByVote(leaders)
		g.status = VotingHeld
		return
	}
	g.scoreRound(0)
	tied := leaders.Len()
	if g.rules.Tie == TieFSM2026 && g.num == 1 && tied > 2 {
		settle(OutcomeStay, leaders)
		g.status = VotingHeld // 001 L23, C-21: day 1, more than two tied: night at once
		return
	}
	if g.prevTie == leaders {
		lift := false
		switch g.tieModel() {
		case TieLift:
			// C-09, 002 §7.5 and §7.10: no lift vote that would remove everyone at the table;
			// 002 §7.6 (option): two of four tied twice means night.
			lift = tied < alive && !(g.opt.TwoOfFourNoLift && tied == 2 && alive == 4)
		case TieFSM2026:
			lift = fsmLift(tied, alive) // 001 L46: 7.11.5
		}
		if lift {
			settle(OutcomeLift, leaders)
			g.liftDue = true
			return
		}
		settle(OutcomeStay, leaders)
		g.status = VotingHeld // they stay
		return
	}
	// C-33: a new (smaller, or first) tied set: 30 s speeches in nomination order, then a re-vote among them.
	settle(OutcomeRevote, leaders)
	g.prevTie = leaders
	n := uint8(0)
	var next [MaxSeats]uint8
	for _, s := range g.cands[:g.nCands] {
		if leaders.Has(int(s)) {
			next[n] = s
			n++
		}
	}
	g.cands, g.nCands = next, n
	g.tieSpeeches = true
	g.resetRound()
}

// respeechDue says that the lift question due is day1_respeech's on day 1's single leader, who speaks first.
func (g *Game) respeechDue() bool {
	return g.liftDue && g.num == 1 && g.opt.Day1Respeech && g.nCands == 1
}

func (g *Game) tieModel() TieModel {
	if g.opt.TieStay {
		return TieStay
	}
	return g.rules.Tie
}

// fsmLift lists the FSM 7.11.5 combinations of tied players and players at the table that get a lift vote
// (001 L46): 5 of 10, 2 or 4 of 8, 2 or 3 of 6, 2 of 4.
func fsmLift(tied, alive int) bool {
	switch alive {
	case 10:
		return tied == 5
	case 8:
		return tied == 2 || tied == 4
	case 6:
		return tied == 2 || tied == 3
	case 4:
		return tied == 2
	}
	return false
}

// lift records the vote on whether all the tied candidates leave: yes needs more than half of the players at
// the table; otherwise they stay (R35, C-23, C-33).
func (g *Game) lift(yes Seats) error {
	if g.phase != PhaseDay || !g.liftDue {
		return ErrNoLift
	}
	if yes&^allSeats(int(g.n)) != 0 {
		return violate(ErrNoSuchSeat, 0, 0, "a voter's seat is not at this table")
	}
	if bad := yes &^ g.alive; bad != 0 {
		return violate(ErrVoterNotAlive, first(bad), 0, "seat %d", first(bad))
	}
	rec := roundRec{day: g.num, lift: true, yes: uint8(yes.Len()), outcome: OutcomeStay, who: g.prevTie}
	if yes.Len()*2 > g.alive.Len() {
		rec.outcome = OutcomeLeave
	}
	g.rounds = append(g.rounds, rec)
	g.liftDue = false
	g.status = VotingHeld
	if rec.outcome == OutcomeLeave {
		g.leaveByVote(g.prevTie)
	}
	return nil
}

// leaveByVote removes the voted players, in nomination order, then checks for a winner once (R41, R73).
func (g *Game) leaveByVote(who Seats) {
	for _, s := range g.cands[:g.nCands] {
		if who.Has(int(s)) {
			g.remove(int(s), OutVoted)
			if g.num == 1 {
				g.day1Voted++
			}
		}
	}
	g.checkWin()
}

// remove takes seat s off the table. A player who leaves by vote or shot has a last word (R53).
func (g *Game) remove(s int, how OutHow) {
	g.alive = g.alive.Remove(s)
	g.removed++
	g.out[s] = Out{How: how, Phase: g.phase, Number: g.num, Order: g.removed}
	g.muteNext = g.muteNext.Remove(s)
	if (how == OutVoted || how == OutKilled) && g.opt.LastWord {
		g.lastWord = g.lastWord.Add(s)
	}
}

// checkWin ends the game as soon as a team has won (R71-R73, C-29, C-40; 2.6.1).
func (g *Game) checkWin() {
	if g.winner != NoWinner {
		return
	}
	b := (g.alive & g.black).Len()
	switch {
	case b == 0:
		g.finish(RedWins)
	case b >= g.alive.Len()-b:
		g.finish(BlackWins)
	}
}

func (g *Game) finish(w Winner) {
	g.winner = w
	g.liftDue = false
	g.scoreResult()
}

// shot records one black player's shot (R42-R44, 2.6.4).
func (g *Game) shot(by, target uint8) error {
	if g.phase != PhaseNight {
		return violate(ErrNotNight, int(by), int(target), "shots")
	}
	if g.num == 1 {
		return ErrFirstNight
	}
	if err := g.living(by); err != nil {
		return err
	}
	if !g.black.Has(int(by)) {
		return violate(ErrNotBlack, int(by), int(target), "seat %d is not black", by)
	}
	if err := g.living(target); err != nil {
		return err
	}
	if err := g.nightStep(GroupMafia); err != nil {
		return err
	}
	if g.shotBy.Has(int(by)) {
		g.shotTwice = g.shotTwice.Add(int(by)) // R43: more than one shot is a miss
	}
	g.shotBy = g.shotBy.Add(int(by))
	g.shotAt[by] = target
	return nil
}

// nightStep keeps the night's order: an action of an earlier group after a later one is refused (R44).
func (g *Game) nightStep(grp NightGroup) error {
	for i := uint8(0); i < g.nOrd; i++ {
		if g.order[i] != grp {
			continue
		}
		if i+1 < g.nightStage {
			return violate(ErrNightOrder, 0, 0, "%s comes before %s", groupLabel(grp), groupLabel(g.order[g.nightStage-1]))
		}
		g.nightStage = i + 1
		return nil
	}
	return violate(ErrNightOrder, 0, 0, "%s does not act at night in this game", groupLabel(grp))
}

func groupLabel(g NightGroup) string {
	switch g {
	case GroupMafia:
		return "the shooting"
	case GroupDon:
		return "the don"
	case GroupDoctor:
		return "the doctor"
	}
	return "the sheriff (commissar)"
}

// check records the don's search for the sheriff or the sheriff's (commissar's) check of a colour (R45-R48).
// A player shot tonight still checks: he leaves in the morning (2.6.2).
func (g *Game) check(by, target uint8) error {
	if g.phase != PhaseNight {
		return violate(ErrNotNight, int(by), int(target), "checks")
	}
	if g.num == 1 {
		return ErrFirstNight
	}
	if err := g.living(by); err != nil {
		return err
	}
	role := g.role[by]
	if role != Don && role != Sheriff && role != Commissar {
		return violate(ErrNotChecker, int(by), int(target), "seat %d", by)
	}
	if err := g.living(target); err != nil {
		return err
	}
	if by == target {
		return violate(ErrSelfCheck, int(by), int(target), "seat %d", by)
	}
	if g.checkedBy.Has(int(by)) {
		return violate(ErrCheckedTwice, int(by), int(target), "seat %d", by)
	}
	if role == Don {
		if !g.hasSher {
			return ErrNoSheriffToFind
		}
		if g.rules.DonMayNotCheckOwnFirstShot && g.num == 2 && g.shotBy.Has(int(by)) && g.shotAt[by] == target {
			return violate(ErrDonOwnShot, int(by), int(target), "seat %d", target)
		}
		if err := g.nightStep(GroupDon); err != nil {
			return err
		}
		g.donTarget = target
	} else {
		if err := g.nightStep(GroupCommissar); err != nil {
			return err
		}
		g.sheriffTarget = target
	}
	g.checkedBy = g.checkedBy.Add(int(by))
	g.scoreCheck(by, target)
	return nil
}

// heal records the doctor's protection (R49; 001 L38, L50).
func (g *Game) heal(by, target uint8) error {
	if g.phase != PhaseNight {
		return violate(ErrNotNight, int(by), int(target), "the doctor")
	}
	if g.num == 1 {
		return ErrFirstNight
	}
	if err := g.living(by); err != nil {
		return err
	}
	if g.role[by] != Doctor {
		return violate(ErrNoDoctor, int(by), int(target), "seat %d", by)
	}
	if err := g.living(target); err != nil {
		return err
	}
	if g.healed {
		return ErrHealedTwice
	}
	if by == target && !g.opt.DoctorSelfHeal {
		return ErrSelfHeal
	}
	if !g.opt.DoctorRepeatTarget && g.prevHealNight == g.num-1 && g.prevHeal == target {
		return violate(ErrRepeatHeal, int(by), int(target), "seat %d", target)
	}
	if err := g.nightStep(GroupDoctor); err != nil {
		return err
	}
	g.healed, g.healTarget = true, target
	return nil
}

// bestMove records the night victim's best move (R55-R59).
func (g *Game) bestMove(e Event) error {
	if g.phase != PhaseDay || g.bmSeat == 0 || e.Seat != g.bmSeat {
		return violate(ErrNoBestMove, int(e.Seat), 0, "seat %d", e.Seat)
	}
	if e.NTargets < 1 || e.NTargets > 3 {
		return violate(ErrBadBestMove, int(e.Seat), 0, "%d seats named", e.NTargets)
	}
	var named Seats
	for _, t := range e.Targets[:e.NTargets] {
		if err := g.seat(t); err != nil {
			return err
		}
		if t == e.Seat || named.Has(int(t)) {
			return violate(ErrBadBestMove, int(e.Seat), int(t), "seat %d", t)
		}
		named = named.Add(int(t))
	}
	g.bmSeat = 0
	g.scoreBestMove(int(e.Seat), named)
	return nil
}

// Disciplinable says whether seat s may be given a foul, a warning or a disqualification now (see disciplined).
func (g *Game) Disciplinable(s int) bool {
	return s >= 1 && s <= MaxSeats && g.disciplined(uint8(s)) == nil
}

// disciplined checks that a foul, warning or disqualification may be given to seat s: a player at the table, one
// giving his last word, or anyone once the game is over (spec §3).
func (g *Game) disciplined(s uint8) error {
	if err := g.seat(s); err != nil {
		return err
	}
	if g.winner == NoWinner && !g.alive.Has(int(s)) && !g.lastWord.Has(int(s)) {
		return violate(ErrNotAtTable, int(s), 0, "seat %d", s)
	}
	return nil
}

// foul records one foul: the 3rd mutes the next speech, the 4th removes the player without a last word
// (R62-R64).
func (g *Game) foul(s uint8) error {
	if g.rules.Mute == MuteWarnings {
		return ErrNoFouls
	}
	if err := g.disciplined(s); err != nil {
		return err
	}
	if g.fouls[s] < 255 {
		g.fouls[s]++
	}
	if g.rules.Mute == MuteNone {
		return nil
	}
	switch g.fouls[s] {
	case 3:
		if g.alive.Has(int(s)) && g.winner == NoWinner {
			g.muteNext = g.muteNext.Add(int(s))
		}
	case 4:
		g.removeForDiscipline(int(s), OutFouls)
	}
	return nil
}

// warning records a warning. In sport rule sets it only counts; in home-ua the 2nd costs a speech and the 3rd
// removes the player (004 L47-L49, C-46, C-47).
func (g *Game) warning(s uint8) error {
	if err := g.disciplined(s); err != nil {
		return err
	}
	if g.warns[s] < 255 {
		g.warns[s]++
	}
	if g.rules.Mute != MuteWarnings {
		return nil
	}
	switch g.warns[s] {
	case 2:
		if g.alive.Has(int(s)) && g.winner == NoWinner {
			g.muteNext = g.muteNext.Add(int(s))
		}
	case 3:
		g.removeForDiscipline(int(s), OutFouls)
	}
	return nil
}

// disqualify removes a player for a disqualifying violation, without a last word (R53, R65).
func (g *Game) disqualify(s uint8) error {
	if err := g.disciplined(s); err != nil {
		return err
	}
	g.removeForDiscipline(int(s), OutDisqualified)
	return nil
}

// removeForDiscipline removes a player at the table (no last word, R53), with the effect on voting (R68-R70) and
// the penalty (R64, R81). A player who already left, or any player after the end, only gets the penalty
// (C-11, C-30, 002 §7.11).
func (g *Game) removeForDiscipline(s int, how OutHow) {
	if g.alive.Has(s) && g.winner == NoWinner {
		g.voteEffect(s)
		g.remove(s, how)
		g.checkWin()
	}
	if g.rules.Mute != MuteWarnings {
		g.penalty(s)
	}
}

// voteEffect applies a disqualification's effect on the voting (R68-R69).
func (g *Game) voteEffect(s int) {
	effect := g.rules.DQ
	if g.rules.Tie == TieFSM2026 && !g.opt.FSMDQVoteEffect {
		effect = DQNoEffect // C-22: FSM only by option
	}
	if effect == DQNoEffect {
		if g.status == VotingRounds {
			g.restartRound(s)
		}
		return
	}
	if g.phase == PhaseNight {
		g.cancelTomorrow(NoVoteNight, s) // C-11: a disqualification at night cancels the next day's vote
		return
	}
	switch g.status {
	case VotingRounds:
		g.cancel(NoVoteBefore, s) // C-11: during the voting, before its result
		g.liftDue = false
	case VotingHeld, VotingNotHeld:
		g.cancelTomorrow(NoVoteAfterResult, s) // R69: after the result, the next day's vote is not held
	case VotingPending:
		// 002 §7.2, C-36: the list closed with one candidate on day 2 or later counts as a result. The list is
		// closed once the last speaker has used his nomination or is the one removed; the record has no event
		// for the end of a speech, so until then it counts as open. If the candidate himself leaves, there is
		// nobody to vote on and the next day votes as usual.
		if effect == DQXCraft && g.num >= 2 && g.speechesDone() && g.candidates() == 1 {
			himself := g.singleCandidate() == s
			switch {
			case g.nomBy.Has(int(g.speaker)) || s == int(g.speaker):
				if !himself {
					g.cancelTomorrow(NoVoteListClosed, s) // closed: today's vote stands, the next day's is not held
				}
			case himself:
				g.listUnsure, g.unsureSeat = unsureCandidateLeft, uint8(s)
			default:
				g.listUnsure, g.unsureSeat = unsureOtherLeft, uint8(s)
			}
			return
		}
		g.cancel(NoVoteBefore, s) // R68: before the vote
	}
}

const (
	unsureOtherLeft     = 1
	unsureCandidateLeft = 2
)

func (g *Game) singleCandidate() int {
	for _, s := range g.noms[:g.nNoms] {
		if g.alive.Has(int(s)) {
			return int(s)
		}
	}
	return 0
}

// restartRound handles a player leaving during a vote where that does not cancel it (home rule sets): the round
// starts again without him. This is the project's reading; the home seeds are silent (C-47).
func (g *Game) restartRound(s int) {
	n := uint8(0)
	var next [MaxSeats]uint8
	for _, c := range g.cands[:g.nCands] {
		if int(c) != s {
			next[n] = c
			n++
		}
	}
	g.cands, g.nCands = next, n
	g.prevTie = g.prevTie.Remove(s)
	g.resetRound()
	if n == 0 || (g.liftDue && g.prevTie.Empty()) {
		g.status, g.liftDue = VotingHeld, false
	}
}

// teamLoss records a violation for which the offender's team loses at once (R66, C-14, C-17).
func (g *Game) teamLoss(s uint8) error {
	if err := g.seat(s); err != nil {
		return err
	}
	if g.alive.Has(int(s)) {
		g.remove(int(s), OutTeamLoss)
		g.lastWord = g.lastWord.Remove(int(s))
	}
	if g.rules.Points == Points2025 {
		g.penalty(int(s)) // C-14, C-17: the club's team defeat is also the offender's disqualification (000 L150)
	} // X-Craft §6.3 lists team defeat apart from disqualification; §8.2.4 fines only the latter
	if g.role[s].Team() == Red {
		g.finish(BlackWins)
	} else {
		g.finish(RedWins)
	}
	return nil
}

func first(s Seats) int { return trailing(uint64(s)) }
