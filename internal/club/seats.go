package club

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// SeatFix is one seat as the host corrects it: the name and the card it should have had from the start.
type SeatFix struct {
	Name string
	Role string
	// Guest keeps a corrected name a guest's: it is not looked up among the club's players.
	Guest bool
}

// SeatChange is what a correction changed at one seat: its card (FromRole and ToRole, both "" when the card
// stays), its name and player profile (FromName and ToName, both "" when they stay).
type SeatChange struct {
	Seat       int    `json:"seat"`
	FromRole   string `json:"from_role,omitempty"`
	ToRole     string `json:"to_role,omitempty"`
	FromName   string `json:"from_name,omitempty"`
	ToName     string `json:"to_name,omitempty"`
	FromPlayer int64  `json:"from_player,omitempty"`
	ToPlayer   int64  `json:"to_player,omitempty"`
}

// Role reports whether the change is of the seat's card.
func (c SeatChange) Role() bool { return c.FromRole != c.ToRole }

// Name reports whether the change is of the seat's name or player profile.
func (c SeatChange) Name() bool { return c.FromName != c.ToName || c.FromPlayer != c.ToPlayer }

// Correction is a correction of a live game's seats: what it changes and why. Its JSON (without Seats) is the
// detail of the audit entry "correct_seats".
type Correction struct {
	Changes []SeatChange `json:"changes"`
	Reason  string       `json:"reason"`
	// Seats are the game's seats once corrected.
	Seats []Seat `json:"-"`
	// Log is the game's log once corrected, when the corrected deal moves a unanimous shot of the blacks to the
	// corrected blacks (record.Record.ForDeal); nil when the log stays as it is.
	Log []StoredEvent `json:"-"`
}

// Cards lists the seats whose card the correction changes.
func (c *Correction) Cards() []int {
	var out []int
	for _, ch := range c.Changes {
		if ch.Role() {
			out = append(out, ch.Seat)
		}
	}
	return out
}

// ParseCorrection reads the detail of an audit entry "correct_seats".
func ParseCorrection(detail string) (*Correction, error) {
	var c Correction
	if err := json.Unmarshal([]byte(detail), &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// BrokenEvent is why a correction of the cards is refused: with the corrected cards the game no longer replays
// from the start, and this event of its log is the first the engine refuses. Err is the engine's rule error.
type BrokenEvent struct {
	Index int // the event's number in the log, from 1
	Event record.Event
	Err   error
}

func (e *BrokenEvent) Error() string {
	return fmt.Sprintf("event %d (%s) becomes impossible with the corrected cards: %v", e.Index, e.Event.Type, e.Err)
}

// Unwrap returns the engine's rule error.
func (e *BrokenEvent) Unwrap() error { return e.Err }

// ErrDealtCards refuses a correction of the cards of a game whose roles the server dealt at random: they were
// not typed, so they cannot be mistyped, and nobody rewrites a random deal.
var ErrDealtCards = Errorf(Invalid, "the server dealt this game's cards at random: they cannot be corrected, only the names")

// ErrTournamentNames refuses a correction of a name in a tournament game: its seats are the stage's seating.
var ErrTournamentNames = Errorf(Invalid, "a tournament game's names are its seating's: only the cards can be corrected")

// ChosenGuests reports, seat by seat, which seats of a game are guests' by the host's choice: not linked to a club
// player though their name is one's nickname. The correction form shows them ticked as guests', so that they stay
// so; any other seat whose name changes is looked up among the club's players, as Start looks a name up.
func (s *Games) ChosenGuests(ctx context.Context, u *User, st *State) ([]bool, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	out := make([]bool, len(st.Game.Seats))
	for i, seat := range st.Game.Seats {
		if seat.PlayerID != 0 {
			continue
		}
		_, err := s.store.PlayerByNick(ctx, seat.Name)
		switch {
		case err == nil:
			out[i] = true
		case ErrorCode(err) != NotFound:
			return nil, err
		}
	}
	return out, nil
}

// PlanSeats checks a correction of a live game's seats made at version, without making it: fixes gives every
// seat, in order, as it should have been (its name, its card); reason says why. Whoever may change the game may
// correct it (not a player seated at it; a tournament table's judge or the chief judge). The corrected cards must
// be a deal of the rule set and the whole log must replay from the start with them: an event that becomes
// impossible refuses the correction (Rejected, with a *BrokenEvent naming it). A corrected name is checked as
// Start checks one, and a club player's nickname links the seat to him.
func (s *Games) PlanSeats(ctx context.Context, u *User, id, version int64, fixes []SeatFix, reason string) (*State, *Correction, error) {
	st, err := s.prepare(ctx, u, RoleHost, id, version, GameLive)
	if err != nil {
		return st, nil, err
	}
	g := st.Game
	if len(fixes) != len(g.Seats) {
		return st, nil, Errorf(Invalid, "give a name and a card for each of the %d seats", len(g.Seats))
	}
	why, err := cleanText(reason, record.MaxEventText, "reason", false)
	if err != nil {
		return st, nil, err
	}
	c := &Correction{Reason: why, Seats: slices.Clone(g.Seats)}
	seen := map[string]bool{}
	for i, f := range fixes {
		cur := g.Seats[i]
		next := cur
		if f.Role != cur.Role {
			if _, ok := mafia.ParseRole(f.Role); !ok {
				return st, nil, Errorf(Invalid, "seat %d has no role", cur.Seat)
			}
			next.Role = f.Role
		}
		name, err := cleanName(f.Name, MaxNick, "name", true)
		if err != nil {
			return st, nil, err
		}
		if name == "" {
			return st, nil, Errorf(Invalid, "seat %d has no name", cur.Seat)
		}
		// a seat is looked up again when its name changes, or when the host says it is (or is not) a guest's: a
		// linked seat ticked as a guest's is one from now on, a guest's seat not ticked is looked up (ChosenGuests)
		if name != cur.Name || f.Guest != (cur.PlayerID == 0) {
			next.Name, next.PlayerID = name, 0
			if !f.Guest {
				p, err := s.store.PlayerByNick(ctx, name)
				switch {
				case err == nil:
					next.PlayerID, next.Name = p.ID, p.Nick
				case ErrorCode(err) != NotFound:
					return st, nil, err
				}
			}
		}
		if seen[NickKey(next.Name)] {
			return st, nil, Errorf(Invalid, "%s sits twice", next.Name)
		}
		seen[NickKey(next.Name)] = true
		ch := SeatChange{Seat: cur.Seat}
		if next.Role != cur.Role {
			ch.FromRole, ch.ToRole = cur.Role, next.Role
		}
		if next.Name != cur.Name || next.PlayerID != cur.PlayerID {
			ch.FromName, ch.ToName, ch.FromPlayer, ch.ToPlayer = cur.Name, next.Name, cur.PlayerID, next.PlayerID
		}
		if ch.Role() || ch.Name() {
			c.Changes = append(c.Changes, ch)
		}
		c.Seats[i] = next
	}
	if len(c.Changes) == 0 {
		return st, nil, Errorf(Invalid, "nothing to correct: every seat is as it was")
	}
	cards := c.Cards()
	if len(cards) > 0 && g.Dealt {
		return st, nil, ErrDealtCards
	}
	for _, ch := range c.Changes {
		if ch.Name() && g.StageID != 0 {
			return st, nil, ErrTournamentNames
		}
	}
	if Seated(u, &Game{Seats: c.Seats}) {
		return st, nil, ErrHostSeated
	}
	if len(cards) > 0 {
		rs, ok := mafia.RuleSet(g.Rules)
		if !ok {
			return st, nil, &Error{Code: Internal, Message: "stored game has an unknown rule set " + g.Rules}
		}
		roles := make([]mafia.Role, len(c.Seats))
		for i, seat := range c.Seats {
			roles[i], _ = mafia.ParseRole(seat.Role)
		}
		if err := rs.ValidateRoles(roles); err != nil {
			return st, nil, &Error{Code: Invalid, Message: err.Error(), Cause: errors.Join(ErrRoles, err)}
		}
	}
	// the whole log again, from the start, with the corrected seats
	opts := map[string][]byte{}
	for k, v := range g.Options {
		opts[k] = v
	}
	rec, err := buildRecord(g.Rules, opts, c.Seats, st.Record.Events)
	if err != nil {
		return st, nil, &Error{Code: Internal, Message: "the corrected game is not a valid record", Cause: err}
	}
	// "all at #N" was the shot of whoever is black: it follows the corrected cards (a shot recorded for one
	// player stays his, and fails the replay if he turns out red)
	if events, from := rec.ForDeal(); from != nil {
		if len(st.Log) != len(st.Record.Events) {
			return st, nil, &Error{Code: Internal, Message: "the game's log and record differ"}
		}
		c.Log = make([]StoredEvent, len(events))
		for k, e := range events {
			se := st.Log[from[k]] // a moved shot keeps the time and the host of the tap that recorded it
			se.Seq = k + 1
			if e != st.Record.Events[from[k]] {
				se.JSON = record.EncodeEvent(e)
			}
			c.Log[k] = se
		}
		rec.Events = events
	}
	if _, err := rec.Replay(); err != nil {
		var re *mafia.ReplayError
		if errors.As(err, &re) && re.Index >= 1 && re.Index <= len(rec.Events) {
			be := &BrokenEvent{Index: re.Index, Event: rec.Events[re.Index-1], Err: re.Err}
			return st, nil, &Error{Code: Rejected, Message: be.Error(), Cause: be}
		}
		return st, nil, &Error{Code: Internal, Message: "the corrected game does not replay", Cause: err}
	}
	return st, c, nil
}

// CorrectSeats makes a correction PlanSeats accepts: the game's seats are replaced at version (a game changed since
// is a Conflict), the correction is logged with its reason in the game's chronology, and the game is loaded again,
// replayed from the start with the corrected seats.
func (s *Games) CorrectSeats(ctx context.Context, u *User, id, version int64, fixes []SeatFix, reason string) (*State, error) {
	st, c, err := s.PlanSeats(ctx, u, id, version, fixes, reason)
	if err != nil {
		return st, err
	}
	detail, err := json.Marshal(c)
	if err != nil {
		return st, &Error{Code: Internal, Message: "the correction cannot be written", Cause: err}
	}
	if err := s.takeOver(ctx, u, st.Game); err != nil {
		return st, err
	}
	if err := s.store.SetSeats(ctx, id, version, c.Seats, c.Log, AuditEntry{At: s.now(), By: u.ID, Action: "correct_seats", Detail: string(detail)}); err != nil {
		if ErrorCode(err) == Conflict {
			if fresh, lerr := s.load(ctx, id); lerr == nil {
				return fresh, err
			}
		}
		return st, err
	}
	return s.load(ctx, id)
}

// seatsAt returns a game's seats as they were at the moment cut: the cards of the corrections logged after it
// (audit, in order) are undone, so that the delayed broadcast shows a corrected deal only once its delay has passed,
// like everything else (a corrected name is public at once, as in the public view). next is when the first of those
// corrections was made (zero when there is none).
func seatsAt(seats []Seat, audit []AuditEntry, cut time.Time) (out []Seat, next time.Time) {
	out = seats
	for i := len(audit) - 1; i >= 0; i-- {
		a := audit[i]
		if a.Action != "correct_seats" || !a.At.After(cut) {
			continue
		}
		c, err := ParseCorrection(a.Detail)
		if err != nil {
			continue
		}
		if next.IsZero() {
			out = slices.Clone(seats)
		}
		next = a.At
		for _, ch := range c.Changes {
			if ch.Role() && ch.Seat >= 1 && ch.Seat <= len(out) {
				out[ch.Seat-1].Role = ch.FromRole
			}
		}
	}
	return out, next
}

// recordAt returns the record the delayed broadcast cut at cut shows: the game's, with the cards it had then
// (seatsAt), and when the first correction made since comes out of the delay (zero when none is waiting).
func (l *Live) recordAt(ctx context.Context, st *State, cut time.Time, delay time.Duration) (*record.Record, time.Time, error) {
	audit, err := l.store.Audit(ctx, st.Game.ID)
	if err != nil {
		return nil, time.Time{}, err
	}
	seats, next := seatsAt(st.Game.Seats, audit, cut)
	if next.IsZero() {
		return st.Record, time.Time{}, nil
	}
	rec := *st.Record // shared: copied, never changed
	rec.Seats = slices.Clone(rec.Seats)
	for i := range min(len(rec.Seats), len(seats)) {
		if role, ok := mafia.ParseRole(seats[i].Role); ok {
			rec.Seats[i].Role = role
		}
	}
	// a unanimous shot the correction moved to the corrected blacks was, before it, the blacks' of the first deal
	if events, from := rec.ForDeal(); from != nil {
		rec.Events = events
	}
	return &rec, next.Add(delay), nil
}
