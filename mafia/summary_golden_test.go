package mafia_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// TestSummaryPointsOfGoldenGames: every finished golden game's facts, as a club's protocol keeps them, give the
// points its replay gives (the same facts, the same points).
func TestSummaryPointsOfGoldenGames(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*/*.txtar")
	checked := 0
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name != "record.json" {
				continue
			}
			rec, err := record.Decode(f.Data)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			events := rec.EngineEvents()
			g, err := mafia.Replay(rec.Rules, rec.Options, rec.Roles(), events)
			if err != nil || !g.Finished() || !rec.Rules.HasPoints() {
				continue // a golden game of a refused event, or one that stops before the end
			}
			sum, err := mafia.SummaryPoints(rec.Rules, rec.Options, mafia.SummaryOfReplay(g, events))
			if err != nil {
				t.Errorf("%s: the summary is refused: %v", file, err)
				continue
			}
			if d := mafia.SameSummaryPoints(g.Result().Seats, sum); d != "" {
				t.Errorf("%s: %s", file, d)
			}
			checked++
		}
	}
	if checked < 10 {
		t.Fatalf("only %d golden games checked", checked)
	}
	t.Logf("%d golden games", checked)
}
