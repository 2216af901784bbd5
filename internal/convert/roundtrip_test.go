package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// goldenRecord reads the record of one of the engine's golden games.
func goldenRecord(t *testing.T, file string) *record.Record {
	t.Helper()
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "record.json" {
			rec, err := record.Decode(f.Data)
			if err != nil {
				t.Fatal(err)
			}
			return rec
		}
	}
	t.Fatal("no record.json")
	return nil
}

// roundTrip exports rec to mafiaratings, imports it back, and checks that it replays to the same result as rec.
func roundTrip(t *testing.T, rec *record.Record) {
	t.Helper()
	g, err := rec.Replay()
	if err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	out, err := ExportRecord(rec, MRMeta{Draft: true})
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	im, err := ImportMafiaratings(out)
	if err != nil {
		t.Fatalf("import of the export: %v\n%s", err, out)
	}
	back, err := record.Decode(im.JSON())
	if err != nil {
		t.Fatalf("the imported record does not decode: %v", err)
	}
	g2, err := back.Replay()
	if err != nil {
		t.Fatalf("the imported record does not replay: %v", err)
	}
	want, got := record.ResultJSON(g, nil), record.ResultJSON(g2, nil)
	if string(want) != string(got) {
		t.Errorf("the round trip changes the result\nwant %s\ngot  %s\nexport %s", want, got, out)
	}
	if back.Rules.ID != rec.Rules.ID || len(back.OptionJSON) != len(rec.OptionJSON) {
		t.Errorf("rule set %s %v, want %s %v", back.Rules.ID, back.OptionJSON, rec.Rules.ID, rec.OptionJSON)
	}
	for i, s := range rec.Seats {
		if back.Seats[i] != s {
			t.Errorf("seat %d: %+v, want %+v", i+1, back.Seats[i], s)
		}
	}
}

// Every golden game of the sport rule sets goes to mafiaratings and back to the same result (up to the event the
// engine rejects, where a golden game has one: only the accepted part of a game exists to export). Games of 7 to
// 9 seats cannot be expressed on mafiaratings, which seats 10, and the export says so.
func TestRoundTripGolden(t *testing.T) {
	for _, set := range []string{"fiim-2025-club", "fsm-2026", "fiim-xcraft"} {
		files, _ := filepath.Glob(filepath.Join("../../mafia/testdata/golden", set, "*.txtar"))
		if len(files) == 0 {
			t.Fatalf("no golden games of %s", set)
		}
		for _, file := range files {
			name := set + "/" + strings.TrimSuffix(filepath.Base(file), ".txtar")
			t.Run(name, func(t *testing.T) {
				rec := goldenRecord(t, file)
				if len(rec.Seats) != 10 {
					_, err := ExportRecord(rec, MRMeta{Draft: true})
					var ge *GameError
					if !errors.As(err, &ge) || !strings.Contains(err.Error(), "seat 10 players") {
						t.Fatalf("a %d-seat game: want the export to refuse it, got %v", len(rec.Seats), err)
					}
					return
				}
				if _, err := rec.Replay(); err != nil {
					var re *mafia.ReplayError
					if !errors.As(err, &re) {
						t.Fatal(err)
					}
					_, xerr := ExportRecord(rec, MRMeta{Draft: true})
					if xerr == nil || !strings.Contains(xerr.Error(), fmt.Sprintf("event %d (%s)", re.Index, re.Event.Type)) {
						t.Errorf("exporting a record with a rejected event: want an error naming event %d, got %v", re.Index, xerr)
					}
					rec.Events = rec.Events[:re.Index-1]
				}
				roundTrip(t, rec)
			})
		}
	}
}

// The imported conformance games go to mafiaratings and back to the same result too.
func TestRoundTripConformance(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(conformance(t), "*", "[0-9]*.json"))
	for _, f := range files {
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		if _, ok := documentedDifferences[name]; ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var im *Imported
			if strings.HasPrefix(name, "polemica/") {
				im, err = ImportPolemica(data)
			} else {
				im, err = ImportMafiaratings(data)
			}
			if err != nil {
				t.Fatal(err)
			}
			roundTrip(t, im.Record)
		})
	}
}

// Home rule sets cannot be expressed on mafiaratings.
func TestExportRefusesHomeRules(t *testing.T) {
	files, _ := filepath.Glob("../../mafia/testdata/golden/home-*/*.txtar")
	if len(files) == 0 {
		t.Fatal("no home golden games")
	}
	rec := goldenRecord(t, files[0])
	_, err := ExportRecord(rec, MRMeta{Draft: true})
	var ge *GameError
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "cannot be expressed there") {
		t.Fatalf("got %v", err)
	}
}

// withoutNote is a record's canonical JSON without its "note", which says how the record was made (an import of
// the platform's game, or of our own export).
func withoutNote(t *testing.T, rec *record.Record) string {
	t.Helper()
	extra := map[string]json.RawMessage{}
	for k, v := range rec.Extra {
		if k != "note" {
			extra[k] = v
		}
	}
	again, err := record.New(rec.Rules.ID, rec.OptionJSON, rec.Seats, rec.Events, extra)
	if err != nil {
		t.Fatal(err)
	}
	return string(record.Encode(again))
}

// Every mafiaratings conformance game both ways: import, export to mafiaratings' JSON (complete: create would
// store it, with the fields the import carried), import again, and the record is the same. And the export, read
// only through the platform's own fields (our "mafiaclub" field taken out, as their server reads it), replays to
// what the platform derived from the original: the same winner, roles, deaths (who, when, how) and fouls.
func TestRoundTripMafiaratingsConformance(t *testing.T) {
	derived := readDerived(t)
	files, _ := filepath.Glob(filepath.Join(conformance(t), "mafiaratings", "[0-9]*.json"))
	if len(files) != 11 {
		t.Errorf("%d mafiaratings games, want 11", len(files))
	}
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(id, func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			im, err := ImportMafiaratings(data)
			if err != nil {
				t.Fatal(err)
			}
			out, err := ExportRecord(im.Record, MRMeta{})
			if err != nil {
				t.Fatalf("export: %v", err)
			}
			back, err := ImportMafiaratings(out)
			if err != nil {
				t.Fatalf("import of the export: %v\n%s", err, out)
			}
			if a, b := withoutNote(t, im.Record), withoutNote(t, back.Record); a != b {
				t.Errorf("import, export, import changes the record\nfirst  %s\nagain  %s", a, b)
			}
			// their side: only the platform's fields
			var m map[string]json.RawMessage
			if err := json.Unmarshal(out, &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "mafiaclub")
			theirs, _ := json.Marshal(m)
			plain, err := ImportMafiaratings(theirs)
			if err != nil {
				t.Fatalf("the export without our field does not import: %v", err)
			}
			checkDerived(t, replayImported(t, plain), data, derived[id])
			// what was reconstructed is not written as recorded fact
			for _, e := range im.Record.Events {
				if e.Reconstructed && e.Type == mafia.EvLift && strings.Contains(string(m["features"]), "k") {
					t.Errorf("a reconstructed lift vote, yet the export says its kill-all votes are recorded (features %s)", m["features"])
				}
			}
		})
	}
}

// checkGametime is mafiaratings' own check of a game time (include/game.php check_gametime): a time its server
// finds wrong makes it drop the moments of every foul in the game.
func checkGametime(t map[string]any) string {
	r, ok := t["round"].(float64)
	if !ok || r < 0 {
		return "round must be set"
	}
	num := func(k string) (float64, bool) { v, ok := t[k].(float64); return v, ok }
	switch t["time"] {
	case "start", "arrangement", "relaxed sitting", "day start", "voting start", "night kill speaking", "night start",
		"shooting", "don", "sheriff", "end":
	case "voting kill all":
		if _, ok := num("votingRound"); !ok {
			return "votingRound must be set"
		}
	case "voting":
		if v, ok := num("votingRound"); !ok || v < 0 {
			return "votingRound must be set"
		}
		for _, k := range []string{"speaker", "nominee"} {
			if v, ok := num(k); ok && (v < 1 || v > 10) {
				return "incorrect " + k
			}
		}
	case "speaking", "day kill speaking":
		if v, ok := num("speaker"); !ok || v < 1 || v > 10 {
			return "speaker must be set"
		}
	default:
		return fmt.Sprintf("incorrect time %v", t["time"])
	}
	return ""
}

// gametimes lists every game time of an export: each foul's, each departure's, and the game's own.
func gametimes(t *testing.T, out []byte) map[string]map[string]any {
	t.Helper()
	var g struct {
		Time    map[string]any `json:"time"`
		Players []struct {
			Warnings []map[string]any `json:"warnings"`
			Death    *struct {
				Time map[string]any `json:"time"`
			} `json:"death"`
		} `json:"players"`
	}
	if err := json.Unmarshal(out, &g); err != nil {
		t.Fatal(err)
	}
	all := map[string]map[string]any{}
	if g.Time != nil && g.Time["time"] != "day kill speaking" {
		// where an unfinished game stops (a --draft export only: create refuses it); after a day's voting
		// that left nobody with a last word the platform has no time that names no speaker
		all["time"] = g.Time
	}
	for i, p := range g.Players {
		for j, w := range p.Warnings {
			all[fmt.Sprintf("players[%d].warnings[%d]", i, j)] = w
		}
		if p.Death != nil && p.Death.Time != nil {
			all[fmt.Sprintf("players[%d].death.time", i)] = p.Death.Time
		}
	}
	return all
}

// Every game time our exports write passes mafiaratings' own check (the issue seen with games 1 and 4874: a foul
// during a last word written as "day kill speaking" without its speaker, a foul during a lift vote as "voting kill
// all" without its round, made their server drop the moments of every foul in the game).
func TestExportTimesPassTheirCheck(t *testing.T) {
	var recs []*record.Record
	files, _ := filepath.Glob(filepath.Join(conformance(t), "mafiaratings", "[0-9]*.json"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		im, err := ImportMafiaratings(data)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, im.Record)
	}
	golden, _ := filepath.Glob("../../mafia/testdata/golden/f*/*.txtar")
	for _, f := range golden {
		rec := goldenRecord(t, f)
		if _, err := rec.Replay(); err == nil && len(rec.Seats) == 10 {
			recs = append(recs, rec)
		}
	}
	seen := map[string]bool{}
	for i, rec := range recs {
		out, err := ExportRecord(rec, MRMeta{Draft: true})
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		for where, gt := range gametimes(t, out) {
			if msg := checkGametime(gt); msg != "" {
				t.Errorf("record %d (%s), %s %v: %s", i, rec.Extra["id"], where, gt, msg)
			}
			seen[fmt.Sprint(gt["time"])] = true
		}
	}
	for _, want := range []string{"speaking", "voting", "day kill speaking", "night kill speaking", "shooting"} {
		if !seen[want] {
			t.Errorf("no export wrote a %q time: the check saw too little", want)
		}
	}
}

// The moments the issue names, each written as the record says: a foul in a day last word names the speaker,
// one in the lift vote its round, one in a tie speech stays a tie speech ("voting" with the speaker, not the
// nominee), one in the last speech after its nomination stays a speech.
func TestExportMoments(t *testing.T) {
	base := `{"format": 1, "rules": "fiim-2025-club", "options": {"club_extras": false}, "seats": [
 {"seat": 1, "role": "citizen", "name": "A"}, {"seat": 2, "role": "citizen", "name": "B"},
 {"seat": 3, "role": "mafia", "name": "C"}, {"seat": 4, "role": "citizen", "name": "D"},
 {"seat": 5, "role": "sheriff", "name": "E"}, {"seat": 6, "role": "citizen", "name": "F"},
 {"seat": 7, "role": "don", "name": "G"}, {"seat": 8, "role": "citizen", "name": "H"},
 {"seat": 9, "role": "mafia", "name": "I"}, {"seat": 10, "role": "citizen", "name": "J"}], "events": [
 {"type": "day"}, {"type": "speech", "seat": 1}, {"type": "nominate", "by": 1, "target": 3},
 {"type": "speech", "seat": 2}, {"type": "nominate", "by": 2, "target": 4},
 {"type": "speech", "seat": 3}, {"type": "speech", "seat": 4}, {"type": "speech", "seat": 5}, {"type": "speech", "seat": 6},
 {"type": "speech", "seat": 7}, {"type": "speech", "seat": 8}, {"type": "speech", "seat": 9},
 {"type": "speech", "seat": 10}, {"type": "nominate", "by": 10, "target": 9},
 {"type": "foul", "seat": 1},
 {"type": "vote", "target": 3, "voters": [1, 2, 5, 6]}, {"type": "vote", "target": 4, "voters": [3, 8, 10, 7]}, {"type": "vote", "target": 9},
 {"type": "foul", "seat": 2, "during": "tie_speech", "speaker": 4},
 {"type": "vote", "target": 3, "voters": [1, 2, 5, 6, 9]}, {"type": "vote", "target": 4},
 {"type": "foul", "seat": 5},
 {"type": "lift", "voters": [1, 2, 5, 6, 8, 10]},
 {"type": "foul", "seat": 6, "during": "last_word", "speaker": 4}
]}`
	out, err := ExportMafiaratings([]byte(base), MRMeta{Draft: true})
	if err != nil {
		t.Fatal(err)
	}
	times := gametimes(t, out)
	want := map[string]string{
		"players[0].warnings[0]": `{"round":0,"speaker":10,"time":"speaking"}`,              // after #10's nomination: still his speech
		"players[1].warnings[0]": `{"round":0,"speaker":4,"time":"voting","votingRound":1}`, // a tie speech, not "voting for X"
		"players[4].warnings[0]": `{"round":0,"time":"voting kill all","votingRound":2}`,    // the lift vote, with its round
		"players[5].warnings[0]": `{"round":0,"speaker":4,"time":"day kill speaking"}`,      // a day last word names its speaker
	}
	for where, w := range want {
		got, _ := json.Marshal(times[where])
		if string(got) != w {
			t.Errorf("%s: %s, want %s", where, got, w)
		}
	}
}

// What an importer reconstructed is not exported as recorded fact (spec section 2, "reconstructed"): game 4877's
// don shot by his partners has no shot of his own in the export, and game 4870's unrecorded lift vote gives no
// kill-all votes; importing either export reconstructs them again.
func TestExportLeavesOutReconstructed(t *testing.T) {
	for _, c := range []struct {
		file  string
		check func(t *testing.T, out []byte)
	}{
		{"4877.json", func(t *testing.T, out []byte) {
			var g struct {
				Players []struct {
					Shooting []*int `json:"shooting"`
				} `json:"players"`
			}
			json.Unmarshal(out, &g)
			if s := g.Players[2].Shooting; len(s) >= 2 && s[1] != nil {
				t.Errorf("seat 3's reconstructed shot on night 3 is exported: %v", *s[1])
			}
		}},
		{"4870.json", func(t *testing.T, out []byte) {
			if bytes.Contains(out, []byte(`"features": "gsdutclhvknwr"`)) || bytes.Contains(out, []byte("true]")) || bytes.Contains(out, []byte("false]")) {
				t.Errorf("the reconstructed lift vote is exported as recorded kill-all votes")
			}
		}},
	} {
		t.Run(c.file, func(t *testing.T) {
			im, err := ImportMafiaratings(readConformance(t, "mafiaratings/"+c.file))
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, e := range im.Record.Events {
				if e.Reconstructed {
					n++
				}
			}
			if n == 0 {
				t.Fatalf("nothing is marked reconstructed")
			}
			out, err := ExportRecord(im.Record, MRMeta{})
			if err != nil {
				t.Fatal(err)
			}
			c.check(t, out)
		})
	}
}

// TestExportUnanimousShots: shots the host page recorded as the blacks' unanimous shot ("unanimous": true) export
// to mafiaratings and MWT exactly as the same shots recorded one by one: the mark is ours, and stays out.
func TestExportUnanimousShots(t *testing.T) {
	file := "../../mafia/testdata/golden/fiim-2025-club/full-game-red-wins.txtar"
	plain, marked := goldenRecord(t, file), goldenRecord(t, file)
	n := 0
	for i := range marked.Events {
		if marked.Events[i].Type == mafia.EvShot {
			marked.Events[i].Unanimous = true
			n++
		}
	}
	if n == 0 {
		t.Fatal("the game has no shot")
	}
	for name, export := range map[string]func(*record.Record) ([]byte, error){
		"mafiaratings": func(r *record.Record) ([]byte, error) { return ExportRecord(r, MRMeta{Draft: true}) },
		"mwt": func(r *record.Record) ([]byte, error) {
			m := MWTMeta{Tournament: 1, Table: 1, Session: 1, Part: 1, Referee: 1, Start: 1784160000, End: 1784166000, Zone: time.UTC, Players: map[int]int{}}
			for s := 1; s <= len(r.Seats); s++ {
				m.Players[s] = 100 + s
			}
			return ExportMWTRecord(r, m)
		},
	} {
		want, err := export(plain)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := export(marked)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the export of unanimous shots differs (%v):\n%s\nwant\n%s", name, err, got, want)
		}
	}
	roundTrip(t, marked)
}
