package record

import (
	"bytes"
	"encoding/json"
	"fmt"
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
