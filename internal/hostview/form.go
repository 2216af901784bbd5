package hostview

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// FormError is a host's form that cannot be read: a seat out of range, a missing reason. Its Format and Args
// are the catalogue's "msg:" key and arguments; Error gives the English text.
type FormError struct {
	Format string
	Args   []any
}

func (e *FormError) Error() string { return fmt.Sprintf(e.Format, e.Args...) }

func formErr(format string, args ...any) error { return &FormError{Format: format, Args: args} }

// EventsFromForm turns the host's action form into record events. It only reads the form; whether the rules allow
// the events is the engine's answer. "shoot_all" (all at seat N in one tap) is one shot by each black player who
// has not shot yet, as the engine lists them (Game.Shooters), each marked Unanimous: the host saw all the black
// hands, not who is black, so a later correction of the cards gives the shot to the corrected blacks.
func EventsFromForm(f url.Values, play *mafia.Game) ([]record.Event, error) {
	n := play.Players()
	seat := func(name string) (uint8, error) {
		v, err := strconv.Atoi(f.Get(name))
		if err != nil || v < 1 || v > n {
			return 0, formErr("choose a seat from 1 to %d", n)
		}
		return uint8(v), nil
	}
	// seats reads the seats a form names: as a set, and as given (a seat named twice stays twice: whether that is
	// allowed is the engine's answer)
	seats := func(name string) (mafia.Seats, []int, error) {
		var set mafia.Seats
		var list []int
		for _, x := range f[name] {
			v, err := strconv.Atoi(x)
			if err != nil || v < 1 || v > n {
				return 0, nil, formErr("choose seats from 1 to %d", n)
			}
			list = append(list, v)
			set = set.Add(v)
		}
		return set, list, nil
	}
	typ := f.Get("type")
	if typ == "shoot_all" {
		target, err := seat("target")
		if err != nil {
			return nil, err
		}
		var out []record.Event
		for _, by := range play.Shooters().List() {
			out = append(out, record.Event{Event: mafia.Shot(by, int(target)), Unanimous: true})
		}
		if len(out) == 0 {
			return nil, formErr("nobody is left to shoot")
		}
		return out, nil
	}
	t, ok := mafia.ParseEventType(typ)
	if !ok {
		return nil, formErr("unknown action %q", typ)
	}
	if err := honestHands(f, t, play); err != nil {
		return nil, err
	}
	e := record.Event{Event: mafia.Event{Type: t}, Reason: strings.TrimSpace(f.Get("reason")), Note: strings.TrimSpace(f.Get("note"))}
	var err error
	switch t {
	case mafia.EvSpeech, mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify, mafia.EvTeamLoss, mafia.EvAdjust:
		e.Seat, err = seat("seat")
	case mafia.EvNominate, mafia.EvShot, mafia.EvCheck, mafia.EvHeal:
		if e.Seat, err = seat("by"); err == nil {
			e.Target, err = seat("target")
		}
	case mafia.EvVote:
		if e.Target, err = seat("target"); err == nil {
			e.Voters, _, err = seats("voters")
			e.VotersGiven = true
		}
	case mafia.EvLift:
		e.Voters, _, err = seats("voters")
		e.VotersGiven = true
	case mafia.EvBestMove:
		// how many seats a best move names is the engine's rule (R56, ErrBadBestMove): the form only reads them
		var by uint8
		var list []int
		if by, err = seat("by"); err == nil {
			if _, list, err = seats("targets"); err == nil {
				e.Event = mafia.BestMove(int(by), list...)
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if t == mafia.EvAdjust {
		// a decimal comma as the Ukrainian and Russian pages write points, or a point
		h, perr := record.Hundredths([]byte(i18n.ReadDecimal(f.Get("points"))))
		if perr != nil {
			return nil, formErr("the points: a number with at most two decimals, like 0.3 or -0.5")
		}
		e.Points = int32(h)
	}
	if (t == mafia.EvDisqualify || t == mafia.EvTeamLoss) && e.Reason == "" {
		return nil, formErr("give the reason")
	}
	// the record's bound (the club's too), checked as the form is read, so that the browser's engine does not draw
	// and keep an action the server will refuse
	if utf8.RuneCountInString(e.Reason) > record.MaxEventText || utf8.RuneCountInString(e.Note) > record.MaxEventText {
		return nil, formErr("a reason or note is at most %d characters", record.MaxEventText)
	}
	return []record.Event{e}, nil
}
