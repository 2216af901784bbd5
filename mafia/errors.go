package mafia

import "fmt"

// RuleError is a broken rule: the reason an event is rejected. Code is stable (host mode translates it); Rule
// cites the matrix row or seed point; Text says it in plain English. Compare with errors.Is against the sentinel
// values below.
type RuleError struct {
	Code string
	Rule string
	Text string
}

func (e *RuleError) Error() string {
	if e.Rule == "" {
		return e.Text
	}
	return e.Text + " (" + e.Rule + ")"
}

// Violation is a RuleError about particular seats. It unwraps to its RuleError.
type Violation struct {
	*RuleError
	Seat   int // 0 when none
	Target int // 0 when none
	Detail string
}

func (v *Violation) Error() string {
	s := v.Text
	if v.Detail != "" {
		s += ": " + v.Detail
	}
	if v.Rule != "" {
		s += " (" + v.Rule + ")"
	}
	return s
}

// Unwrap returns the rule that was broken.
func (v *Violation) Unwrap() error { return v.RuleError }

var allRuleErrors []*RuleError

func rule(code, ruleRef, text string) *RuleError {
	e := &RuleError{Code: code, Rule: ruleRef, Text: text}
	allRuleErrors = append(allRuleErrors, e)
	return e
}

// RuleErrors lists every rule an event can break, so that interfaces can translate each one.
func RuleErrors() []*RuleError { return append([]*RuleError(nil), allRuleErrors...) }

func violate(r *RuleError, seat, target int, format string, args ...any) error {
	return &Violation{RuleError: r, Seat: seat, Target: target, Detail: fmt.Sprintf(format, args...)}
}

// The rules an event can break.
var (
	ErrGameOver          = rule("game_over", "spec §3", "the game is over; only points, fouls, warnings and disqualifications can still be recorded")
	ErrNoSuchSeat        = rule("no_such_seat", "spec §1", "there is no such seat at this table")
	ErrNotAlive          = rule("not_alive", "", "that player is no longer at the table")
	ErrNotAtTable        = rule("not_at_table", "", "that player has left the table and is not giving a last word")
	ErrNotNight          = rule("not_night", "", "this can only happen at night")
	ErrNotDay            = rule("not_day", "", "this can only happen during the day")
	ErrFirstNight        = rule("first_night", "R09, R10", "nobody shoots or checks on the first (acquaintance) night")
	ErrSpeechOrder       = rule("speech_order", "R15, R16", "it is another player's turn to speak")
	ErrSpeechesOver      = rule("speeches_over", "R15", "every player has already spoken today")
	ErrSpeechesNotOver   = rule("speeches_not_over", "R24", "the day's speeches are not over yet")
	ErrNotYourSpeech     = rule("not_your_speech", "R20, C-25", "a player nominates only during his own regular speech")
	ErrAlreadyNominating = rule("already_nominating", "R21", "this player has already nominated a candidate today")
	ErrAlreadyNominated  = rule("already_nominated", "R22, C-19", "that player is already nominated today")
	ErrNominationsClosed = rule("nominations_closed", "R20", "nominations are closed for today")
	ErrNoVoting          = rule("no_voting", "R29, R32", "there is no vote today")
	ErrVotingCancelled   = rule("voting_cancelled", "R68, R69", "today's voting is cancelled by a disqualification")
	ErrVotingOver        = rule("voting_over", "", "today's voting is over")
	ErrVotingNotOver     = rule("voting_not_over", "spec §2", "the day's voting is not over")
	ErrWrongCandidate    = rule("wrong_candidate", "R24", "candidates are voted in nomination order; it is another candidate's turn")
	ErrVotedTwice        = rule("voted_twice", "R23, C-04", "each player votes once in a round")
	ErrSelfVote          = rule("self_vote", "000 L105, C-03", "a candidate does not vote against himself")
	ErrVoterNotAlive     = rule("voter_not_alive", "R23", "only players at the table vote")
	ErrNoLift            = rule("no_lift", "R35", "there is no lift vote now")
	ErrLiftDue           = rule("lift_due", "R35", "the lift vote comes first")
	ErrNotBlack          = rule("not_black", "R42", "only black players shoot")
	ErrShootingOver      = rule("shooting_over", "R44", "the shooting is over for this night")
	ErrNightOrder        = rule("night_order", "R44", "that comes earlier in the night's order")
	ErrNotChecker        = rule("not_checker", "R45, R46", "only the don and the sheriff (commissar) check")
	ErrCheckedTwice      = rule("checked_twice", "R45, R46", "one check per night")
	ErrSelfCheck         = rule("self_check", "2.6.4", "a player does not check himself")
	ErrNoSheriffToFind   = rule("no_sheriff", "2.6.3", "there is no sheriff at this table, so the don does not check")
	ErrDonOwnShot        = rule("don_own_shot", "R47, 001 L27", "on the first shooting night the don may not check the player he shot")
	ErrNoDoctor          = rule("no_doctor", "R49", "only the doctor protects")
	ErrHealedTwice       = rule("healed_twice", "R49", "the doctor protects one player a night")
	ErrSelfHeal          = rule("self_heal", "R49, doctor_self_heal", "the doctor may not protect himself in this game")
	ErrRepeatHeal        = rule("repeat_heal", "R49, doctor_repeat_target", "the doctor may not protect the same player two nights in a row in this game")
	ErrNoBestMove        = rule("no_best_move", "R55, R57", "this player has no best move")
	ErrBadBestMove       = rule("bad_best_move", "R56", "a best move names up to three other players, each once")
	ErrNoFouls           = rule("no_fouls", "004 L47", "home-ua uses warnings, not fouls")
	ErrNoPoints          = rule("no_points", "spec §4", "this rule set has no points")
	ErrAdjustStep        = rule("adjust_step", "R84, 000 L198", "the host corrects points in steps of 0.1, 0.3 or 0.5")
	ErrAdjustZero        = rule("adjust_zero", "", "an adjustment must change the points")
	ErrExtraBeforeEnd    = rule("extra_before_end", "R82, §T6.1", "the judge's extra points are given after the result")
	ErrExtraOnDraw       = rule("extra_on_draw", "§T6.1.6", "no extra points after a draw")
	ErrExtraPlayers      = rule("extra_players", "§T6.1.1", "extra points go to at most three players")
	ErrExtraTotal        = rule("extra_total", "§T6.1.2", "the extra points of a game add up to at most 1")
	ErrExtraWinner       = rule("extra_winner", "§T6.1.3", "a winner gets at most 0.7 extra points")
	ErrExtraLoser        = rule("extra_loser", "§T6.1.4", "a loser gets at most 0.4 extra points")
	ErrNoDraw            = rule("no_draw", "R74, C-15", "this rule set has no declared draw")
	ErrAdjustRange       = rule("adjust_range", "", "an adjustment is at most 10 points either way")
	ErrNoClubExtras      = rule("no_club_extras", "R86, club_extras", "this game has no club extras")
	ErrNoDonFound        = rule("no_don_found", "R78", "the don finds the sheriff only where both sit at the table")
	ErrNoWinner          = rule("no_winner", "spec §3", "a finished game is won by red or black, or drawn")
	ErrTooLong           = rule("too_long", "", "a game has at most 250 nights")
	ErrUnknownEvent      = rule("unknown_event", "spec §2", "unknown event type")
)
