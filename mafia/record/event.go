package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"mafiaclub/mafia"
)

// EncodeEvent writes one event as the single-line JSON object of the record's events list.
func EncodeEvent(e Event) []byte {
	var b bytes.Buffer
	writeEvent(&b, e)
	return b.Bytes()
}

// DecodeEvent reads one event of a game with n seats, with the same checks as Decode.
func DecodeEvent(data []byte, n int) (Event, error) {
	rec := &Record{Seats: make([]Seat, n)}
	list := append(append([]byte("["), data...), ']')
	if err := rec.decodeEvents(json.RawMessage(list)); err != nil {
		return Event{}, err
	}
	if len(rec.Events) != 1 {
		return Event{}, fmt.Errorf("not one event")
	}
	return rec.Events[0], nil
}

// New builds a record from its parts, validating them as Decode does.
func New(rulesID string, options map[string]json.RawMessage, seats []Seat, events []Event, extra map[string]json.RawMessage) (*Record, error) {
	var b bytes.Buffer
	b.WriteString(`{"format": 1, "rules": `)
	writeString(&b, rulesID)
	if len(options) > 0 {
		o, _ := json.Marshal(options)
		b.WriteString(`, "options": `)
		b.Write(o)
	}
	b.WriteString(`, "seats": [`)
	for i, s := range seats {
		if i > 0 {
			b.WriteString(", ")
		}
		m := map[string]any{"seat": s.Seat, "role": s.Role.String(), "name": s.Name}
		if s.Player != "" {
			m["player"] = s.Player
		}
		o, _ := json.Marshal(m)
		b.Write(o)
	}
	b.WriteString(`], "events": [`)
	for i, e := range events {
		if i > 0 {
			b.WriteString(", ")
		}
		writeEvent(&b, e)
	}
	b.WriteString("]")
	for k, v := range extra {
		b.WriteString(", ")
		writeString(&b, k)
		b.WriteString(": ")
		b.Write(v)
	}
	b.WriteString("}")
	return Decode(b.Bytes())
}

// DecodeEvents reads a JSON list of events of a game with n seats in one pass, with the same checks as Decode.
func DecodeEvents(list []byte, n int) ([]Event, error) {
	rec := &Record{Seats: make([]Seat, n)}
	if err := rec.decodeEvents(json.RawMessage(list)); err != nil {
		return nil, err
	}
	return rec.Events, nil
}

// Build makes a record from parts already in memory (a stored game), with the checks of Decode on the setup:
// the rule set, its options, the seats 1..N and the role table. The events are taken as they are (decode them
// with DecodeEvents); replaying the record checks them against the rules.
func Build(rulesID string, options map[string]json.RawMessage, seats []Seat, events []Event) (*Record, error) {
	rules, ok := mafia.RuleSet(rulesID)
	if !ok {
		return nil, errf("rules", "unknown rule set %q", rulesID)
	}
	rec := &Record{Rules: rules, Options: rules.DefaultOptions(), OptionJSON: map[string]json.RawMessage{}, Extra: map[string]json.RawMessage{},
		Events: events}
	if len(options) > 0 {
		raw, err := json.Marshal(options)
		if err != nil {
			return nil, errf("options", "%v", err)
		}
		if err := rec.decodeOptions(raw); err != nil {
			return nil, err
		}
	}
	if len(seats) == 0 || len(seats) > mafia.MaxSeats {
		return nil, errf("seats", "%d seats; 1 to %d", len(seats), mafia.MaxSeats)
	}
	rec.Seats = make([]Seat, len(seats))
	for _, s := range seats {
		if s.Seat < 1 || s.Seat > len(seats) || rec.Seats[s.Seat-1].Seat != 0 {
			return nil, errf("seats", "seat %d: seats are numbered 1 to %d, each once", s.Seat, len(seats))
		}
		if strings.TrimSpace(s.Name) == "" {
			return nil, errf("seats", "seat %d has no name", s.Seat)
		}
		rec.Seats[s.Seat-1] = s
	}
	if err := rules.ValidateRoles(rec.Roles()); err != nil {
		return nil, errf("seats", "%v", err)
	}
	if _, err := mafia.NewGame(rules, rec.Options, rec.Roles()); err != nil {
		return nil, errf("options", "%v", err)
	}
	return rec, nil
}
