package convert

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// validMafiaratings is a complete mafiaratings game: the golden full game, exported, with the export's own field
// taken out so that the importer reads only the platform's fields.
func validMafiaratings(t testing.TB) map[string]any {
	t.Helper()
	ar := goldenRecordTB(t, "../../mafia/testdata/golden/fiim-2025-club/full-game-red-wins.txtar")
	out, err := ExportRecord(ar, MRMeta{Draft: true})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "mafiaclub")
	return m
}

func goldenRecordTB(t testing.TB, file string) *record.Record {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), "-- record.json --\n")
	rec, err := record.Decode([]byte(strings.Split(rest, "-- result.json --")[0]))
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

func validPolemica(t testing.TB) map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/polemica-minimal.json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func player(m map[string]any, i int) map[string]any {
	return m["players"].([]any)[i].(map[string]any)
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestValidInputsImport(t *testing.T) {
	im, err := ImportMafiaratings(mustJSON(t, validMafiaratings(t)))
	if err != nil {
		t.Fatal(err)
	}
	if im.Game.Winner() != mafia.RedWins || im.Record.Rules.ID != "fiim-2025-club" {
		t.Errorf("winner %v, rules %s", im.Game.Winner(), im.Record.Rules.ID)
	}
	im, err = ImportPolemica(mustJSON(t, validPolemica(t)))
	if err != nil {
		t.Fatal(err)
	}
	if im.Game.Winner() != mafia.RedWins || im.Record.Rules.ID != "fsm-2026" {
		t.Errorf("winner %v, rules %s", im.Game.Winner(), im.Record.Rules.ID)
	}
}

// Malformed input is an *InputError naming the field and the player or round; a game whose facts fit no event
// sequence is a *GameError naming the round and the seat. Never a panic.
func TestMafiaratingsErrors(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(m map[string]any)
		raw   string
		game  bool // a GameError, not an InputError
		wants []string
	}{
		{name: "not JSON", raw: "{players", wants: []string{"not a JSON object"}},
		{name: "array", raw: "[1, 2]", wants: []string{"not a JSON object"}},
		{name: "no players", raw: "{}", wants: []string{"players: missing"}},
		{name: "players not a list", raw: `{"players": 5}`, wants: []string{"players: must be a list"}},
		{name: "nine players", edit: func(m map[string]any) { m["players"] = m["players"].([]any)[:9] }, wants: []string{"9 players"}},
		{name: "bad role", edit: func(m map[string]any) { player(m, 2)["role"] = "wolf" },
			wants: []string{"players[2] (seat 3).role", `unknown role "wolf"`}},
		{name: "two sheriffs", edit: func(m map[string]any) { player(m, 0)["role"] = "sheriff" },
			wants: []string{"players", "roles do not make a game"}},
		{name: "vote not a seat", edit: func(m map[string]any) { player(m, 0)["voting"] = []any{"x"} },
			wants: []string{"players[0] (seat 1).voting[0]"}},
		{name: "nomination of seat 11", edit: func(m map[string]any) { player(m, 4)["nominating"] = []any{11} },
			wants: []string{"players[4] (seat 5).nominating[0]", "seat 11 does not exist"}},
		{name: "red shooter", edit: func(m map[string]any) { player(m, 0)["shooting"] = []any{2} },
			wants: []string{"players[0] (seat 1).shooting", "red"}},
		{name: "foul time", edit: func(m map[string]any) { player(m, 1)["warnings"] = []any{map[string]any{"round": 0, "time": "lunch"}} },
			wants: []string{"players[1] (seat 2).warnings[0].time", `unknown game time "lunch"`}},
		{name: "foul without speaker", edit: func(m map[string]any) {
			player(m, 1)["warnings"] = []any{map[string]any{"round": 0, "time": "speaking"}}
		}, wants: []string{"players[1] (seat 2).warnings[0].speaker", "missing"}},
		{name: "death type", edit: func(m map[string]any) { player(m, 2)["death"] = map[string]any{"round": 0, "type": "flu"} },
			wants: []string{"players[2] (seat 3).death.type", `"flu"`}},
		{name: "check round", edit: func(m map[string]any) { player(m, 3)["sheriff"] = 0 },
			wants: []string{"players[3] (seat 4).sheriff", "night 0"}},
		{name: "winner", edit: func(m map[string]any) { m["winner"] = "town" }, wants: []string{"winner", `"town"`}},
		{name: "no winner, no time", edit: func(m map[string]any) { delete(m, "winner") }, wants: []string{"winner: missing"}},
		{name: "rules code", edit: func(m map[string]any) { m["rules"] = "abc" }, wants: []string{"rules", "13 digits"}},
		{name: "wrong winner", edit: func(m map[string]any) { m["winner"] = "maf" }, game: true,
			wants: []string{"winner", "the platform says black won", "red won"}},
		{name: "dead nominator", edit: func(m map[string]any) { player(m, 2)["nominating"] = []any{nil, 5} }, game: true,
			wants: []string{"players[2] (seat 3).nominating[1]", "day 2", "seat 3 nominated seat 5"}},
		{name: "vote for a non-candidate", edit: func(m map[string]any) { player(m, 0)["voting"] = []any{9} }, game: true,
			wants: []string{"day 1, round 1", "seat 1 voted against seat 9, who is not a candidate"}},
		{name: "rotation", edit: func(m map[string]any) { m["rules"] = "1000000000000" }, game: true,
			wants: []string{"rules", "rotation", "rule difference"}},
		{name: "unrecorded departure moment", edit: func(m map[string]any) {
			player(m, 5)["death"] = map[string]any{"round": 1, "type": "kickOut"}
		}, game: true, wants: []string{"players[5] (seat 6).death", "did not record when"}},
		{name: "missing votes", edit: func(m map[string]any) {
			for i := range 10 {
				delete(player(m, i), "voting")
			}
		}, game: true, wants: []string{"day 1", "recorded no votes"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.raw)
			if c.edit != nil {
				m := validMafiaratings(t)
				c.edit(m)
				data = mustJSON(t, m)
			}
			_, err := ImportMafiaratings(data)
			checkErr(t, err, c.game, c.wants)
		})
	}
}

func checkErr(t *testing.T, err error, game bool, wants []string) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	var ie *InputError
	var ge *GameError
	if game && !errors.As(err, &ge) {
		t.Errorf("want a GameError, got %T: %v", err, err)
	}
	if !game && !errors.As(err, &ie) {
		t.Errorf("want an InputError, got %T: %v", err, err)
	}
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("the message is not one line: %q", err)
	}
}

func TestPolemicaErrors(t *testing.T) {
	vote := func(m map[string]any, i int) map[string]any { return m["votes"].([]any)[i].(map[string]any) }
	cases := []struct {
		name  string
		edit  func(m map[string]any)
		raw   string
		game  bool
		wants []string
	}{
		{name: "not JSON", raw: "nope", wants: []string{"not a JSON object"}},
		{name: "version", edit: func(m map[string]any) { m["version"] = 3 }, wants: []string{"version", "version 3"}},
		{name: "role", edit: func(m map[string]any) { player(m, 0)["role"] = 7 },
			wants: []string{"players[0] (seat 1).role", "unknown role 7"}},
		{name: "position twice", edit: func(m map[string]any) { player(m, 1)["position"] = 1 },
			wants: []string{"players[1].position", "seat 1 is listed twice"}},
		{name: "voter", edit: func(m map[string]any) { vote(m, 0)["voter"] = 11 },
			wants: []string{"votes[0].voter", "seat 11 does not exist"}},
		{name: "vote day", edit: func(m map[string]any) { vote(m, 3)["day"] = "one" },
			wants: []string{"votes[3].day", "whole number"}},
		{name: "shot night", edit: func(m map[string]any) { delete(m["shots"].([]any)[0].(map[string]any), "night") },
			wants: []string{"shots[0].night: missing"}},
		{name: "check role", edit: func(m map[string]any) { m["checks"].([]any)[0].(map[string]any)["role"] = 2 },
			wants: []string{"checks[0].role", "does not check"}},
		{name: "foul stage", edit: func(m map[string]any) {
			player(m, 5)["fouls"] = []any{map[string]any{"stage": map[string]any{"type": "nap", "day": 1}}}
		}, wants: []string{"players (seat 6).fouls[0].stage.type", `unknown stage "nap"`}},
		{name: "no result", edit: func(m map[string]any) { delete(m, "result") }, wants: []string{"result: missing"}},
		{name: "technical foul", edit: func(m map[string]any) {
			player(m, 5)["techs"] = []any{map[string]any{"stage": map[string]any{"type": "speech", "day": 1, "player": 6}}}
		}, game: true, wants: []string{"players (seat 6).techs", "technical fouls", "rule difference"}},
		{name: "wrong result", edit: func(m map[string]any) { m["result"] = 1 }, game: true,
			wants: []string{"no rule set of ours fits", "the platform says black won"}},
		{name: "nominates twice", edit: func(m map[string]any) {
			m["votes"] = append(m["votes"].([]any), map[string]any{"day": 1, "num": 0, "voter": 4, "candidate": 7})
		}, game: true, wants: []string{"seat 4 nominates twice on day 1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.raw)
			if c.edit != nil {
				m := validPolemica(t)
				c.edit(m)
				data = mustJSON(t, m)
			}
			_, err := ImportPolemica(data)
			checkErr(t, err, c.game, c.wants)
		})
	}
}

func TestExportErrors(t *testing.T) {
	_, err := ExportMafiaratings([]byte(`{"format": 2}`), MRMeta{})
	checkErr(t, err, false, []string{"not a valid game record", "format"})
	rec := goldenRecordTB(t, "../../mafia/testdata/golden/fiim-2025-club/reject-self-vote.txtar")
	_, err = ExportRecord(rec, MRMeta{Draft: true})
	checkErr(t, err, true, []string{"rejected by fiim-2025-club", "only the accepted part"})
}

// fuzzSeeds are the conformance games (when present) and this package's test data.
func fuzzSeeds(f *testing.F, platform string) {
	dir := filepath.Join(conformanceDir, platform)
	files, _ := filepath.Glob(filepath.Join(dir, "[0-9]*.json"))
	files = append(files, mustGlob("testdata/"+platform+"-*.json")...)
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
}

func mustGlob(p string) []string {
	m, _ := filepath.Glob(p)
	return m
}

// checkImported holds for every successful import: the record is canonical and replays with every event
// accepted.
func checkImported(t *testing.T, im *Imported) {
	rec, err := record.Decode(im.JSON())
	if err != nil {
		t.Fatalf("the imported record does not decode: %v", err)
	}
	if _, err := rec.Replay(); err != nil {
		t.Fatalf("the imported record does not replay: %v", err)
	}
}

func FuzzImportMafiaratings(f *testing.F) {
	fuzzSeeds(f, "mafiaratings")
	f.Add(mustJSON(f, validMafiaratings(f)))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkImportOutcome(t, ImportMafiaratings, data)
	})
}

func FuzzImportPolemica(f *testing.F) {
	fuzzSeeds(f, "polemica")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkImportOutcome(t, ImportPolemica, data)
	})
}

// checkImportOutcome: an importer either refuses the input with an InputError or a GameError (so the page can say
// where and why), or gives games that replay.
func checkImportOutcome(t *testing.T, importer func([]byte) (*Imported, error), data []byte) {
	im, err := importer(data)
	if err != nil {
		var ie *InputError
		var ge *GameError
		if !errors.As(err, &ie) && !errors.As(err, &ge) {
			t.Fatalf("an error of type %T: %v", err, err)
		}
		return
	}
	checkImported(t, im)
}

// Whatever record exports, importing the export gives the same result.
func FuzzExportMafiaratings(f *testing.F) {
	files, _ := filepath.Glob("../../mafia/testdata/golden/f*/*.txtar")
	for _, file := range files {
		rec := goldenRecordTB(f, file)
		if _, err := rec.Replay(); err == nil {
			f.Add(record.Encode(rec))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := ExportMafiaratings(data, MRMeta{Draft: true})
		if err != nil {
			return
		}
		rec, _ := record.Decode(data)
		roundTripFrom(t, rec, out)
	})
}

func roundTripFrom(t *testing.T, rec *record.Record, out []byte) {
	g, _ := rec.Replay()
	im, err := ImportMafiaratings(out)
	if err != nil {
		t.Fatalf("the export does not import: %v\n%s", err, out)
	}
	if want, got := record.ResultJSON(g, nil), record.ResultJSON(im.Game, nil); string(want) != string(got) {
		t.Fatalf("the round trip changes the result\nwant %s\ngot  %s", want, got)
	}
}
