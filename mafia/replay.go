package mafia

import "fmt"

// ReplayError is a rejected event: its 1-based index in the record's events and the rule it broke.
type ReplayError struct {
	Index int
	Event Event
	Err   error
}

func (e *ReplayError) Error() string {
	return fmt.Sprintf("event %d (%s): %v", e.Index, e.Event.Type, e.Err)
}

// Unwrap returns the broken rule.
func (e *ReplayError) Unwrap() error { return e.Err }

// Replay starts a game and applies the events in order. It stops at the first rejected event and returns the game
// as it was before that event, with a *ReplayError naming it (spec §3). A setup error (roles, options) is returned
// with a nil game.
func Replay(r *Rules, opt Options, roles []Role, events []Event) (*Game, error) {
	g, err := NewGame(r, opt, roles)
	if err != nil {
		return nil, err
	}
	for i, e := range events {
		if err := g.Apply(e); err != nil {
			return g, &ReplayError{Index: i + 1, Event: e, Err: err}
		}
	}
	return g, nil
}
