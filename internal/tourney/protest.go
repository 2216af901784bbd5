package tourney

import (
	"errors"
	"strings"
	"time"
)

// ProtestWindow is how long after a game's end a player of that game may protest its result (§T6.3.1: "не
// позднее, чем через 10 минут после окончания игры"), measured on the server's clock.
const ProtestWindow = 10 * time.Minute

// Protest is a player's written protest about a game and, once decided, the chief judge's decision (§T6.3).
type Protest struct {
	GameID    int64
	By        int64 // the participant who protests
	Matter    string
	Text      string
	At        time.Time
	Decided   bool
	DecidedBy int64
	DecidedAt time.Time
	Upheld    bool
	Reason    string
}

// The refusals.
var (
	ErrNotAPlayer      = errors.New("only a player of the game may protest")
	ErrProtestTooLate  = errors.New("the ten minutes after the game's end are over")
	ErrGameNotOver     = errors.New("the game is not over yet")
	ErrAlreadyProtests = errors.New("this player has already protested this game")
	ErrMatterDecided   = errors.New("this matter is decided, and the decision is final")
	ErrNotChiefJudge   = errors.New("only the chief judge decides protests")
	ErrDecided         = errors.New("the protest is decided, and the decision is final")
	ErrNoReason        = errors.New("a decision needs its written reason")
	ErrNoMatter        = errors.New("say what the protest is about")
)

// File checks a new protest against the game's end (zero while it goes on), the players of the game and the
// protests already filed, and returns it. "Not later than ten minutes after" includes the tenth minute: at 10:00
// a protest is accepted, a second later it is not.
func File(gameID, by int64, players []int64, gameEnd, now time.Time, matter, text string, existing []Protest) (Protest, error) {
	matter = strings.TrimSpace(matter)
	if matter == "" {
		return Protest{}, ErrNoMatter
	}
	if gameEnd.IsZero() {
		return Protest{}, ErrGameNotOver
	}
	player := false
	for _, p := range players {
		player = player || p == by
	}
	if !player {
		return Protest{}, ErrNotAPlayer
	}
	if now.After(gameEnd.Add(ProtestWindow)) {
		return Protest{}, ErrProtestTooLate
	}
	for _, e := range existing {
		if e.GameID != gameID {
			continue
		}
		if e.By == by {
			return Protest{}, ErrAlreadyProtests
		}
		if e.Decided && strings.EqualFold(e.Matter, matter) {
			return Protest{}, ErrMatterDecided
		}
	}
	return Protest{GameID: gameID, By: by, Matter: matter, Text: strings.TrimSpace(text), At: now}, nil
}

// Decide records the chief judge's decision with its reason (§T6.3.2); it is final (§T6.3.4).
func Decide(p *Protest, judge, chiefJudge int64, upheld bool, reason string, now time.Time) error {
	if judge != chiefJudge {
		return ErrNotChiefJudge
	}
	if p.Decided {
		return ErrDecided
	}
	if strings.TrimSpace(reason) == "" {
		return ErrNoReason
	}
	p.Decided, p.DecidedBy, p.DecidedAt, p.Upheld, p.Reason = true, judge, now, upheld, strings.TrimSpace(reason)
	return nil
}

// ExtraNeedsApproval reports whether giving add hundredths of extra points to a player who already has already
// needs the chief judge's agreement: a winner may get 0.6 or 0.7 only with it (§T6.1.3). More than 0.7 is not a
// matter of agreement: the engine refuses it with its own reason, over the cap, as it does the other hard limits
// (0.4 for a loser, 1 in all, three players, none after a draw; mafia/score.go).
func ExtraNeedsApproval(won bool, already, add int) bool {
	return won && add > 0 && already+add > 50 && already+add <= 70
}
