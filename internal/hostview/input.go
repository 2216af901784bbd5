// Package hostview draws the host's game page from a game's record: the table, what happens next as the engine
// says, the actions it allows, the points and the chronology. It is pure (no database, no HTTP), so the server
// draws the page with it and the host's browser, running this package compiled to WebAssembly, draws the same page
// after each tap without waiting for the network. Both read the host's form with the same code (EventsFromForm):
// no rule and no view is written twice.
package hostview

import (
	"encoding/json"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// Input is everything the page is drawn from. The server sends it with the page (as JSON), and the browser's
// engine draws from it, with the actions not yet saved applied on top.
type Input struct {
	Game    int64           `json:"game"`
	Version int64           `json:"version"`
	Live    bool            `json:"live"`
	Rated   bool            `json:"rated"`
	Saved   string          `json:"saved,omitempty"` // when it was saved, in the club's time
	Record  json.RawMessage `json:"record"`          // the game's record in the spec's form
	Times   []string        `json:"times"`           // the club's clock time of each event, "19:42:05"
	IsChief bool            `json:"chief,omitempty"` // the viewer agrees to a winner's 0.6 or 0.7 here (the chief judge, or the organiser in his place)
	IsAdmin bool            `json:"admin,omitempty"`
	Audit   []string        `json:"audit,omitempty"` // undo, save and reopen entries, already in words
	// Notes are lines of the chronology that are no event of the record (another host took the game over), already
	// in words, each after the events it followed.
	Notes []ChronoNote `json:"notes,omitempty"`
	// Host is the account hosting the game now, and TakenOver says, in words, who took it over and when (empty
	// while nobody has): the page of the host it was taken from tells him once (host.js).
	Host      int64  `json:"host,omitempty"`
	TakenOver string `json:"taken_over,omitempty"`
	Lang      string `json:"lang"`
	// Base is the club's path prefix ("" or "/c/SLUG", web.Server.Base): the page's forms and links start with it,
	// as the server draws them and as the browser's engine does.
	Base  string `json:"base,omitempty"`
	Error string `json:"-"`
	// Dealt: the roles were dealt at random on the server, so the host hands them out by gestures on night 1.
	Dealt bool `json:"dealt,omitempty"`
	// Page: drawn by the host page's own engine. The forms of actions (and the undo), which the page reads and
	// sends itself with their key and version, carry neither, so that a form the action did not change is the
	// same node as before and the page's morph passes it by; the forms the page leaves to the server (saving)
	// keep the version.
	Page bool `json:"-"`
}

// ChronoNote is a line of the chronology that is no event: Text (with its time, without the phase, which the
// chronology adds) comes after the first After events of the log.
type ChronoNote struct {
	After int    `json:"after"`
	Text  string `json:"text"`
}

// State is an Input read: the record decoded and replayed.
type State struct {
	In     Input
	Record *record.Record
	Play   *mafia.Game
}

// Read decodes and replays an input's record.
func Read(in Input) (*State, error) {
	rec, err := record.Decode(in.Record)
	if err != nil {
		return nil, err
	}
	play, err := rec.Replay()
	if err != nil {
		return nil, err
	}
	return &State{In: in, Record: rec, Play: play}, nil
}

// Apply applies events on top of the state (the host's actions not yet saved, in the browser), as the server
// will: a foul's moment is taken from the game where it falls. The state is left as it was on an error.
func (st *State) Apply(events []record.Event, at string) (*State, error) {
	play := st.Play.Clone()
	out := make([]record.Event, 0, len(events))
	for _, e := range events {
		switch e.Type {
		case mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify:
			if e.During.Kind == mafia.DuringUnknown {
				e.During = play.During()
			}
		}
		if err := play.Apply(e.Event); err != nil {
			return st, err
		}
		out = append(out, e)
	}
	next := *st
	rec := *st.Record
	rec.Events = append(append(make([]record.Event, 0, len(rec.Events)+len(out)), rec.Events...), out...)
	next.Record = &rec
	next.Play = play
	next.In.Times = append(append([]string(nil), st.In.Times...), make([]string, len(out))...)
	for i := len(st.In.Times); i < len(next.In.Times); i++ {
		next.In.Times[i] = at
	}
	return &next, nil
}

// Undo removes the last event, as the server's undo does.
func (st *State) Undo() (*State, error) {
	if len(st.Record.Events) == 0 {
		return st, formErr("there is nothing to undo") // the catalogue has its words
	}
	rec := *st.Record
	rec.Events = rec.Events[:len(rec.Events)-1]
	play, err := rec.Replay()
	if err != nil {
		return st, err
	}
	next := *st
	next.Record = &rec
	next.Play = play
	if len(next.In.Times) > len(rec.Events) {
		next.In.Times = next.In.Times[:len(rec.Events)]
	}
	return &next, nil
}
