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
		// Each event is applied in place, without Apply's copy of the whole state (two copies of some 1.2 KB an
		// event, a quarter of a replay's time). A refused event may have changed the state before it was refused,
		// so then the game is played again up to it, with the events it accepted once: the engine is deterministic.
		if err := g.apply(e); err != nil {
			g, _ = NewGame(r, opt, roles)
			for j, p := range events[:i] {
				if perr := g.apply(p); perr != nil { // never: the engine is pure
					return nil, &ReplayError{Index: j + 1, Event: p, Err: fmt.Errorf("accepted once, then refused: %w", perr)}
				}
			}
			return g, &ReplayError{Index: i + 1, Event: e, Err: err}
		}
	}
	return g, nil
}
