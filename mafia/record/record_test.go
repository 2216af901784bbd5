package record

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"mafiaclub/mafia"
)

const seats10 = `[
 {"seat": 1, "role": "citizen", "name": "A"}, {"seat": 2, "role": "citizen", "name": "B"},
 {"seat": 3, "role": "mafia", "name": "C"}, {"seat": 4, "role": "citizen", "name": "D"},
 {"seat": 5, "role": "sheriff", "name": "E"}, {"seat": 6, "role": "citizen", "name": "F"},
 {"seat": 7, "role": "don", "name": "G"}, {"seat": 8, "role": "citizen", "name": "H"},
 {"seat": 9, "role": "mafia", "name": "I"}, {"seat": 10, "role": "citizen", "name": "J", "player": "p-10"}]`

func doc(rules, options, seats, events string) string {
	s := `{"format": 1, "rules": "` + rules + `"`
	if options != "" {
		s += `, "options": ` + options
	}
	return s + `, "seats": ` + seats + `, "events": ` + events + `}`
}

func TestDecodeRefuses(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"not JSON", `{"format": 1,`, "not a JSON object"},
		{"no format", `{"rules": "fsm-2026"}`, "format: missing"},
		{"unknown format", `{"format": 2, "rules": "fsm-2026"}`, "format: 2 is not a format this reader knows"},
		{"unknown rule set", doc("fiim-2030", "", seats10, "[]"), `rules: unknown rule set "fiim-2030"`},
		{"unknown option", doc("fsm-2026", `{"club_extras": true}`, seats10, "[]"), `options.club_extras: fsm-2026 has no such option`},
		{"option of the wrong type", doc("fiim-2025-club", `{"club_extras": "yes"}`, seats10, "[]"), "options.club_extras: must be true or false"},
		{"bm_points with three decimals", doc("fiim-2025-club", `{"bm_points": [0.5, 0.705]}`, seats10, "[]"), "options.bm_points: 0.705 is not a number of points"},
		{"home-doctor without its options", doc("home-doctor", "", strings.Replace(seats10, `"sheriff"`, `"commissar"`, 1), "[]"), "options: home-doctor needs these options decided before the deal"},
		{"night order without the doctor at the table", doc("home-doctor", `{"night_order": ["mafia", "doctor"], "default_vote_to_last": true, "tie_model": "lift", "reveal_on_elimination": true, "last_word": true, "doctor_self_heal": true, "doctor_repeat_target": true}`, strings.Replace(seats10, `"sheriff"`, `"commissar"`, 1), "[]"), "option night_order: doctor is not at the table"},
		{"tie_model not a choice", doc("home-doctor", `{"tie_model": "maybe"}`, seats10, "[]"), `options.tie_model: option tie_model: "maybe" is not one of`},
		{"no seats", doc("fsm-2026", "", "[]", "[]"), "seats: the list is empty"},
		{"seat out of range", doc("fsm-2026", "", strings.Replace(seats10, `"seat": 10,`, `"seat": 11,`, 1), "[]"), "seats entry 10: seat 11: seats are numbered 1 to 10"},
		{"seat twice", doc("fsm-2026", "", strings.Replace(seats10, `"seat": 10,`, `"seat": 9,`, 1), "[]"), "seat 9 is listed twice"},
		{"unknown role", doc("fsm-2026", "", strings.Replace(seats10, `"don"`, `"godfather"`, 1), "[]"), `seat 7: unknown role "godfather"`},
		{"role counts", doc("fsm-2026", "", strings.Replace(seats10, `"sheriff"`, `"citizen"`, 1), "[]"), "fsm-2026 with 10 players needs 6 citizen, 1 sheriff, 2 mafia, 1 don"},
		{"wrong player count", doc("fiim-xcraft", "", `[{"seat": 1, "role": "mafia", "name": "A"}]`, "[]"), "fiim-xcraft is played by exactly 10 players, not 1"},
		{"nameless seat", doc("fsm-2026", "", strings.Replace(seats10, `"name": "A"`, `"name": " "`, 1), "[]"), "seat 1 has no name"},
		{"no events", doc("fsm-2026", "", seats10, "null"), "events: missing"},
		{"unknown event", doc("fsm-2026", "", seats10, `[{"type": "day"}, {"type": "sunrise"}]`), `event 2: unknown event type "sunrise"`},
		{"missing field", doc("fsm-2026", "", seats10, `[{"type": "nominate", "by": 1}]`), "event 1 (nominate): missing target"},
		{"unexpected field", doc("fsm-2026", "", seats10, `[{"type": "speech", "seat": 1, "target": 2}]`), `event 1 (speech): unexpected field "target"`},
		{"seat not at the table", doc("fsm-2026", "", seats10, `[{"type": "speech", "seat": 11}]`), "event 1 (speech): seat must be a seat from 1 to 10, not 11"},
		{"fractional seat", doc("fsm-2026", "", seats10, `[{"type": "foul", "seat": 1.5}]`), "seat must be a seat from 1 to 10, not 1.5"},
		{"voter twice", doc("fsm-2026", "", seats10, `[{"type": "vote", "target": 1, "voters": [2, 2]}]`), "voters: seat 2 is listed twice"},
		{"four best-move targets", doc("fsm-2026", "", seats10, `[{"type": "best_move", "by": 1, "targets": [2, 3, 4, 5]}]`), "targets: at most 3 seats"},
		{"bad time stamp", doc("fsm-2026", "", seats10, `[{"type": "day", "at": "yesterday"}]`), `at "yesterday" is not an RFC 3339 time stamp`},
		{"points in thousandths", doc("fiim-2025-club", "", seats10, `[{"type": "adjust", "seat": 1, "points": 0.125}]`), "points: 0.125 is not a number of points"},
		{"points as text", doc("fiim-2025-club", "", seats10, `[{"type": "adjust", "seat": 1, "points": "0.1"}]`), `points: "0.1" is not a number of points`},
		{"trailing data", doc("fsm-2026", "", seats10, "[]") + "{}", "not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.in))
			if err == nil {
				t.Fatalf("accepted; want an error containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestDecodeCarriesExtrasAndIsStable(t *testing.T) {
	in := `{"id": "g-1", "format": 1, "rules": "fiim-2025-club", "table": {"n": 2, "room": "A"},
	"options": {"club_extras": false, "bm_points": [0.50, 0.7]}, "seats": ` + seats10 + `,
	"events": [{"type": "day", "at": "2026-07-15T19:04:11-06:00", "note": "late start"},
	 {"type": "speech", "seat": 1}, {"type": "nominate", "by": 1, "target": 7},
	 {"type": "adjust", "seat": 3, "points": -0.30, "reason": "knocking"}]}`
	rec, err := Decode([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if rec.Options.ClubExtras || rec.Options.BMPoints != [2]int{50, 70} {
		t.Errorf("options not applied: %+v", rec.Options)
	}
	out := Encode(rec)
	for _, want := range []string{`"id": "g-1"`, `"table": {"n":2,"room":"A"}`, `"bm_points": [0.5, 0.7]`,
		`"note": "late start"`, `"points": -0.3, "reason": "knocking"`, `"player": "p-10"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("encoded record lacks %s:\n%s", want, out)
		}
	}
	rec2, err := Decode(out)
	if err != nil {
		t.Fatalf("the encoded record does not decode: %v\n%s", err, out)
	}
	if again := Encode(rec2); !bytes.Equal(again, out) {
		t.Errorf("encode(decode(x)) is not stable:\n%s\n---\n%s", out, again)
	}
	if !json.Valid(out) {
		t.Error("the encoded record is not valid JSON")
	}
}

func TestHundredths(t *testing.T) {
	good := map[string]int{"0": 0, "1": 100, "1.3": 130, "0.05": 5, "-0.8": -80, "0.70": 70, "2.00": 200, "-0.03": -3, "12.34": 1234}
	for in, want := range good {
		got, err := Hundredths(json.RawMessage(in))
		if err != nil || got != want {
			t.Errorf("Hundredths(%s) = %d, %v; want %d", in, got, err, want)
		}
		if back, _ := Hundredths(json.RawMessage(FormatPoints(want))); back != want {
			t.Errorf("FormatPoints(%d) = %s does not read back", want, FormatPoints(want))
		}
	}
	for _, in := range []string{"", "1.", ".5", "0.001", "1e2", "+1", "01", "1.2.3", "abc", `"1"`, "1234567"} {
		if _, err := Hundredths(json.RawMessage(in)); err == nil {
			t.Errorf("Hundredths(%q) accepted", in)
		}
	}
	for h, want := range map[int]string{130: "1.3", 200: "2", -5: "-0.05", 0: "0", 135: "1.35", -80: "-0.8"} {
		if got := FormatPoints(h); got != want {
			t.Errorf("FormatPoints(%d) = %s, want %s", h, got, want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(doc("fiim-2025-club", `{"club_extras": true}`, seats10, `[{"type": "day"}, {"type": "speech", "seat": 1}]`)))
	f.Add([]byte(doc("home-doctor", `{"night_order": ["mafia", "doctor"], "tie_model": "lift"}`, seats10, "[]")))
	f.Add([]byte(`{"format": 1}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Decode(data)
		if err != nil {
			return
		}
		out := Encode(rec)
		rec2, err := Decode(out)
		if err != nil {
			t.Fatalf("the encoding of a valid record does not decode: %v\n%s", err, out)
		}
		if again := Encode(rec2); !bytes.Equal(again, out) {
			t.Fatalf("encode(decode(x)) is not a fixed point:\n%s\n---\n%s", out, again)
		}
		g, _ := rec.Replay()
		_ = ResultJSON(g, nil)
	})
}

func TestEventRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{"type": "vote", "target": 3, "voters": [1, 2, 4]}`,
		`{"type": "vote", "target": 3}`,
		`{"type": "best_move", "by": 5, "targets": [7, 9, 1], "at": "2026-11-29T19:04:11-07:00"}`,
		`{"type": "adjust", "seat": 2, "points": -0.3, "reason": "late"}`,
		`{"type": "disqualify", "seat": 4, "reason": "oath", "note": "checked the video"}`,
	} {
		e, err := DecodeEvent([]byte(in), 10)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if got := string(EncodeEvent(e)); got != in {
			t.Errorf("got %s, want %s", got, in)
		}
	}
	if _, err := DecodeEvent([]byte(`{"type": "speech", "seat": 12}`), 10); err == nil {
		t.Error("a seat off the table was accepted")
	}
}

// home-ua and home-doctor have no upper limit in the seeds (001 L57: "шесть и больше"); the engine plays up to
// mafia.MaxSeats (63), and a record with more seats is refused saying so.
func TestLargeHomeTables(t *testing.T) {
	seats := func(n int) string {
		var b strings.Builder
		b.WriteString("[")
		for i := 1; i <= n; i++ {
			role := "citizen"
			switch {
			case i == 1:
				role = "commissar"
			case i <= 4:
				role = "mafia"
			}
			if i > 1 {
				b.WriteString(", ")
			}
			b.WriteString(`{"seat": ` + strconv.Itoa(i) + `, "role": "` + role + `", "name": "P` + strconv.Itoa(i) + `"}`)
		}
		return b.String() + "]"
	}
	last := `[{"type": "day"}, {"type": "speech", "seat": 1}, {"type": "nominate", "by": 1, "target": 63}]`
	rec, err := Decode([]byte(doc("home-ua", "", seats(63), last)))
	if err != nil {
		t.Fatalf("a 63-seat home-ua record: %v", err)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("a 63-seat game does not replay: %v", err)
	}
	_, err = Decode([]byte(doc("home-ua", "", seats(64), "[]")))
	if err == nil || !strings.Contains(err.Error(), "seats: 64 seats; at most 63") {
		t.Fatalf("a 64-seat record: got %v", err)
	}
}

// "during" (with "speaker" or "candidate") and "reconstructed" (spec section 2, documented in
// docs/record-extensions.md) are read, written back the same, and checked for shape.
func TestDuringAndReconstructed(t *testing.T) {
	events := `[{"type": "day"}, {"type": "speech", "seat": 1, "reconstructed": true},
 {"type": "foul", "seat": 2, "during": "speech", "speaker": 1},
 {"type": "warning", "seat": 3, "during": "nominations_closed"},
 {"type": "disqualify", "seat": 4, "reason": "insult", "during": "vote", "candidate": 5},
 {"type": "foul", "seat": 6, "during": "last_word", "speaker": 7}]`
	rec, err := Decode([]byte(doc("fsm-2026", "", seats10, events)))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		d mafia.During
		r bool
	}{{}, {r: true}, {d: mafia.During{Kind: mafia.DuringSpeech, Seat: 1}}, {d: mafia.During{Kind: mafia.DuringNominationsClosed}},
		{d: mafia.During{Kind: mafia.DuringVote, Seat: 5}}, {d: mafia.During{Kind: mafia.DuringLastWord, Seat: 7}}}
	for i, w := range want {
		if e := rec.Events[i]; e.During != w.d || e.Reconstructed != w.r {
			t.Errorf("event %d: during %v reconstructed %v, want %v %v", i+1, e.During, e.Reconstructed, w.d, w.r)
		}
	}
	out := Encode(rec)
	for _, s := range []string{`"during": "speech", "speaker": 1`, `"during": "vote", "candidate": 5`, `"during": "nominations_closed"}`, `"reconstructed": true`} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("the encoded record lacks %s:\n%s", s, out)
		}
	}
	if again := Encode(mustDecodeRecord(t, out)); !bytes.Equal(again, out) {
		t.Errorf("encode(decode(x)) is not stable")
	}
	for _, c := range []struct{ ev, want string }{
		{`{"type": "foul", "seat": 2, "during": "morning"}`, `during "morning" is not a moment`},
		{`{"type": "foul", "seat": 2, "during": "speech"}`, `during "speech" needs speaker`},
		{`{"type": "foul", "seat": 2, "during": "lift", "speaker": 3}`, `during "lift" has no speaker`},
		{`{"type": "foul", "seat": 2, "during": "vote", "speaker": 3}`, `during "vote" has no speaker`},
		{`{"type": "foul", "seat": 2, "during": "vote", "candidate": 11}`, `candidate must be a seat from 1 to 10`},
		{`{"type": "foul", "seat": 2, "speaker": 3}`, `unexpected field "speaker"`},
		{`{"type": "speech", "seat": 2, "during": "night"}`, `unexpected field "during"`},
		{`{"type": "shot", "by": 3, "target": 2, "reconstructed": "yes"}`, `reconstructed must be true or false`},
	} {
		_, err := Decode([]byte(doc("fsm-2026", "", seats10, "["+c.ev+"]")))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.ev, err, c.want)
		}
	}
}

func mustDecodeRecord(t *testing.T, data []byte) *Record {
	t.Helper()
	rec, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}
