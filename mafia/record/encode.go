package record

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"mafiaclub/mafia"
)

// Encode writes the record in its canonical form: format, rules, options (by key), the other top-level fields (by
// key), seats by number, then the events one per line. Encode(Decode(x)) is a fixed point.
func Encode(rec *Record) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"format\": 1,\n  \"rules\": ")
	writeString(&b, rec.Rules.ID)
	if len(rec.OptionJSON) > 0 {
		b.WriteString(",\n  \"options\": {")
		for i, k := range sortedKeys(rec.OptionJSON) {
			if i > 0 {
				b.WriteString(", ")
			}
			writeString(&b, k)
			b.WriteString(": ")
			b.Write(rec.OptionJSON[k])
		}
		b.WriteString("}")
	}
	for _, k := range sortedKeys(rec.Extra) {
		b.WriteString(",\n  ")
		writeString(&b, k)
		b.WriteString(": ")
		b.Write(rec.Extra[k])
	}
	b.WriteString(",\n  \"seats\": [")
	for i, s := range rec.Seats {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    {\"seat\": " + strconv.Itoa(s.Seat) + ", \"role\": ")
		writeString(&b, s.Role.String())
		b.WriteString(", \"name\": ")
		writeString(&b, s.Name)
		if s.Player != "" {
			b.WriteString(", \"player\": ")
			writeString(&b, s.Player)
		}
		b.WriteString("}")
	}
	b.WriteString("\n  ],\n  \"events\": [")
	for i, e := range rec.Events {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		writeEvent(&b, e)
	}
	if len(rec.Events) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	return b.Bytes()
}

func writeEvent(b *bytes.Buffer, e Event) {
	b.WriteString("{\"type\": ")
	writeString(b, e.Type.String())
	num := func(k string, v int) { b.WriteString(", \"" + k + "\": " + strconv.Itoa(v)) }
	switch e.Type {
	case mafia.EvSpeech, mafia.EvFoul, mafia.EvWarning, mafia.EvDisqualify, mafia.EvTeamLoss, mafia.EvAdjust:
		num("seat", int(e.Seat))
	case mafia.EvNominate, mafia.EvShot, mafia.EvCheck, mafia.EvHeal:
		num("by", int(e.Seat))
		num("target", int(e.Target))
	case mafia.EvVote:
		num("target", int(e.Target))
	case mafia.EvBestMove:
		num("by", int(e.Seat))
	}
	if e.VotersGiven {
		b.WriteString(", \"voters\": ")
		writeInts(b, e.Voters.List())
	}
	if e.Type == mafia.EvBestMove {
		t := make([]int, e.NTargets)
		for i := range t {
			t[i] = int(e.Targets[i])
		}
		b.WriteString(", \"targets\": ")
		writeInts(b, t)
	}
	if e.Type == mafia.EvAdjust {
		b.WriteString(", \"points\": " + FormatPoints(int(e.Points)))
	}
	if e.Reason != "" {
		b.WriteString(", \"reason\": ")
		writeString(b, e.Reason)
	}
	if e.During.Kind != mafia.DuringUnknown {
		b.WriteString(", \"during\": ")
		writeString(b, e.During.Kind.String())
		switch e.During.Kind {
		case mafia.DuringVote:
			num("candidate", int(e.During.Seat))
		case mafia.DuringSpeech, mafia.DuringTieSpeech, mafia.DuringLastWord:
			num("speaker", int(e.During.Seat))
		}
	}
	if e.Unanimous && e.Type == mafia.EvShot {
		b.WriteString(", \"unanimous\": true")
	}
	if e.Reconstructed {
		b.WriteString(", \"reconstructed\": true")
	}
	if e.At != "" {
		b.WriteString(", \"at\": ")
		writeString(b, e.At)
	}
	if e.Note != "" {
		b.WriteString(", \"note\": ")
		writeString(b, e.Note)
	}
	b.WriteString("}")
}

func writeInts(b *bytes.Buffer, v []int) {
	b.WriteString("[")
	for i, x := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteString("]")
}

func writeString(b *bytes.Buffer, s string) {
	out, _ := json.Marshal(s)
	b.Write(out)
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ResultJSON writes the replay result of spec section 3: the game's state and, when an event was rejected, the
// error naming it.
func ResultJSON(g *mafia.Game, replayErr error) []byte {
	r := g.Result()
	var b bytes.Buffer
	b.WriteString("{\n  \"rules\": ")
	writeString(&b, r.Rules)
	b.WriteString(",\n  \"finished\": " + strconv.FormatBool(r.Finished) + ",\n  \"winner\": ")
	if r.Winner == mafia.NoWinner {
		b.WriteString("null")
	} else {
		writeString(&b, r.Winner.String())
	}
	b.WriteString(",\n  \"seats\": [")
	for i, s := range r.Seats {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    {\"seat\": " + strconv.Itoa(s.Seat) + ", \"role\": ")
		writeString(&b, s.Role.String())
		b.WriteString(", \"team\": ")
		writeString(&b, s.Team.String())
		b.WriteString(", \"alive\": " + strconv.FormatBool(s.Alive))
		b.WriteString(", \"fouls\": " + strconv.Itoa(s.Fouls) + ", \"warnings\": " + strconv.Itoa(s.Warnings))
		b.WriteString(", \"out\": ")
		if s.Out.How == mafia.NotOut {
			b.WriteString("null")
		} else {
			b.WriteString("{\"how\": ")
			writeString(&b, s.Out.How.String())
			b.WriteString(", \"" + s.Out.Phase.String() + "\": " + strconv.Itoa(int(s.Out.Number)) + "}")
		}
		b.WriteString(", \"points\": " + FormatPoints(s.Points) + ", \"score\": [")
		for j, it := range s.Score {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("{\"item\": ")
			writeString(&b, it.Item.String())
			b.WriteString(", \"points\": " + FormatPoints(it.Points) + "}")
		}
		b.WriteString("]}")
	}
	b.WriteString("\n  ],\n  \"days\": [")
	for i, d := range r.Days {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    {\"day\": " + strconv.Itoa(d.Day) + ", \"nominated\": ")
		writeInts(&b, d.Nominated)
		b.WriteString(", \"voting\": ")
		writeString(&b, d.Voting.String())
		b.WriteString(", \"rounds\": [")
		for j, rd := range d.Rounds {
			if j > 0 {
				b.WriteString(", ")
			}
			if rd.Lift {
				b.WriteString("{\"lift\": " + strconv.Itoa(rd.Yes) + "}")
				continue
			}
			b.WriteString("{")
			for k, c := range rd.Counts {
				if k > 0 {
					b.WriteString(", ")
				}
				b.WriteString("\"" + strconv.Itoa(c.Seat) + "\": " + strconv.Itoa(c.Votes))
			}
			b.WriteString("}")
		}
		b.WriteString("], \"out\": ")
		writeInts(&b, d.Out)
		b.WriteString("}")
	}
	if len(r.Days) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("],\n  \"error\": ")
	if replayErr == nil {
		b.WriteString("null")
	} else {
		idx, msg := 0, replayErr.Error()
		if re, ok := replayErr.(*mafia.ReplayError); ok {
			idx, msg = re.Index, re.Err.Error()
		}
		b.WriteString("{\"event\": " + strconv.Itoa(idx) + ", \"message\": ")
		writeString(&b, msg)
		b.WriteString("}")
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}
