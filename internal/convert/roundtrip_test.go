package convert

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
