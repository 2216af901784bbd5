package convert

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// The values tools/mwt-oracle/oracle.php's fake database gives mafiaratings' converters.
const (
	oracleTZ         = "America/Edmonton"
	oracleTournament = 4242
	oracleIDOffset   = 100000
)

// oracleMWTMeta is what the oracle's database says of a game our mafiaratings export mr describes.
func oracleMWTMeta(t *testing.T, mr []byte) MWTMeta {
	t.Helper()
	var g mrGameOut
	if err := json.Unmarshal(mr, &g); err != nil {
		t.Fatal(err)
	}
	zone, err := time.LoadLocation(oracleTZ)
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	m := MWTMeta{Tournament: oracleTournament, Table: 1, Session: 1, Part: 1, Zone: zone, Players: map[int]int{}}
	if g.Moderator != nil {
		m.Referee = g.Moderator.ID + oracleIDOffset
	}
	for i, p := range g.Players {
		if p.ID != nil {
			m.Players[i+1] = *p.ID + oracleIDOffset
		}
	}
	return m
}

// mwtOracleGames are the games whose MWT mafiaratings' converter made (testdata/mwt): generated games of ours kept
// there as records. The real games of ../shared/conformance were checked the same way by hand (all ten equal), but
// what their converter made of them is not kept: those games come from mafiaratings' sample database, which
// carries no licence to copy it.
func mwtOracleGames(t *testing.T) map[string]*record.Record {
	t.Helper()
	games := map[string]*record.Record{}
	recs, _ := filepath.Glob("testdata/mwt/*.rec.json")
	for _, f := range recs {
		data, _ := os.ReadFile(f)
		rec, err := record.Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		games[strings.TrimSuffix(filepath.Base(f), ".rec.json")] = rec
	}
	if len(games) < 20 {
		t.Fatalf("only %d oracle games", len(games))
	}
	return games
}

// Our MWT export of each game equals what mafiaratings' convert_game_to_mwt makes of our mafiaratings export of
// it (testdata/mwt/NAME.mwt.json), field for field after parsing, our own "mafiaclub" field taken out.
func TestMWTExportEqualsTheirConverter(t *testing.T) {
	for name, rec := range mwtOracleGames(t) {
		t.Run(name, func(t *testing.T) {
			theirs, err := os.ReadFile(filepath.Join("testdata/mwt", name+".mwt.json"))
			if err != nil {
				t.Fatal(err)
			}
			mr, err := ExportRecord(rec, MRMeta{})
			if err != nil {
				t.Fatal(err)
			}
			ours, err := ExportMWTRecord(rec, oracleMWTMeta(t, mr))
			if err != nil {
				t.Fatal(err)
			}
			var a, b map[string]any
			if err := json.Unmarshal(theirs, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(ours, &b); err != nil {
				t.Fatal(err)
			}
			if b["mafiaclub"] == nil {
				t.Error("our export carries no mafiaclub field")
			}
			delete(b, "mafiaclub")
			if d := mwtDiff(a, b, "mwt"); d != "" {
				t.Errorf("%s: theirs %s, ours %s", d, mwtShow(a, strings.TrimPrefix(d, "mwt")), mwtShow(b, strings.TrimPrefix(d, "mwt")))
			}
		})
	}
}

// Their MWT (no field of ours) is read as mafiaratings' convert_mwt_game reads it (testdata/mwt/NAME.mr.json):
// the same roles, deaths (type and round), checks, best move, foul counts and points.
func TestMWTReadAsTheirConverterReadsIt(t *testing.T) {
	for name := range mwtOracleGames(t) {
		t.Run(name, func(t *testing.T) {
			theirMWT, err := os.ReadFile(filepath.Join("testdata/mwt", name+".mwt.json"))
			if err != nil {
				t.Fatal(err)
			}
			theirMR, err := os.ReadFile(filepath.Join("testdata/mwt", name+".mr.json"))
			if err != nil {
				t.Fatal(err)
			}
			f, err := ReadMWT(theirMWT, nil)
			if err != nil {
				t.Fatal(err)
			}
			ours, err := mwtToMR(f, [2]int64{})
			if err != nil {
				t.Fatal(err)
			}
			var a, b struct {
				Winner  string `json:"winner"`
				Players []map[string]any
			}
			_ = json.Unmarshal(theirMR, &a)
			_ = json.Unmarshal(ours, &b)
			if a.Winner != b.Winner || len(a.Players) != 10 || len(b.Players) != 10 {
				t.Fatalf("winner %q, theirs %q", b.Winner, a.Winner)
			}
			for i := range a.Players {
				for _, k := range []string{"role", "warnings", "death", "don", "sheriff", "legacy", "bonus"} {
					x, y := a.Players[i][k], b.Players[i][k]
					if k == "bonus" && fmt.Sprint(x) != fmt.Sprint(y) {
						// their reading turns MWT's (negative) penalties into positive bonuses; ours deducts them
						if xf, ok := x.(float64); ok && xf > 0 && a.Players[i]["death"] != nil {
							continue
						}
					}
					if d := mwtDiff(x, y, k); d != "" {
						t.Errorf("seat %d %s: theirs %v, ours %v", i+1, d, x, y)
					}
				}
			}
		})
	}
}

// mwtCycle exports rec to MWT, imports it, exports and imports again: the records replay to the same result as
// rec, the seats stay, the first two MWT games agree on every MWT field and the last two are the same bytes.
func mwtCycle(t *testing.T, rec *record.Record, meta MWTMeta) {
	t.Helper()
	g, err := rec.Replay()
	if err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	m1, err := ExportMWTRecord(rec, meta)
	if err != nil {
		t.Fatalf("export: %v", err)
	}
	im, err := ImportMWT(m1, meta.Zone)
	if err != nil {
		t.Fatalf("import of the export: %v\n%s", err, m1)
	}
	g2, err := im.Record.Replay()
	if err != nil {
		t.Fatalf("the imported record does not replay: %v", err)
	}
	if want, got := record.ResultJSON(g, nil), record.ResultJSON(g2, nil); string(want) != string(got) {
		t.Fatalf("the round trip changes the result\nwant %s\ngot  %s", want, got)
	}
	for i, s := range rec.Seats {
		if im.Record.Seats[i] != s {
			t.Errorf("seat %d: %+v, want %+v", i+1, im.Record.Seats[i], s)
		}
	}
	m2, err := ExportMWTRecord(im.Record, MWTMeta{Zone: meta.Zone})
	if err != nil {
		t.Fatalf("export of the import: %v", err)
	}
	var a, b map[string]any
	_ = json.Unmarshal(m1, &a)
	_ = json.Unmarshal(m2, &b)
	delete(a, "mafiaclub")
	delete(b, "mafiaclub")
	if d := mwtDiff(a, b, "mwt"); d != "" {
		t.Errorf("MWT -> ours -> MWT changes %s", d)
	}
	im2, err := ImportMWT(m2, meta.Zone)
	if err != nil {
		t.Fatalf("second import: %v", err)
	}
	m3, err := ExportMWTRecord(im2.Record, MWTMeta{Zone: meta.Zone})
	if err != nil {
		t.Fatal(err)
	}
	if string(m2) != string(m3) {
		t.Errorf("MWT -> ours -> MWT is not the same MWT\n%s\n%s", m2, m3)
	}
}

func mwtTestMeta(t *testing.T) MWTMeta {
	zone, err := time.LoadLocation(oracleTZ)
	if err != nil {
		t.Skipf("no time zone data: %v", err)
	}
	m := MWTMeta{Tournament: 7, Table: 2, Session: 3, Part: 1, Referee: 99, Zone: zone, Start: 1784160000, End: 1784163600, Players: map[int]int{}}
	for s := 1; s <= 10; s++ {
		m.Players[s] = 500 + s
	}
	return m
}

// ours -> MWT -> ours -> MWT over every real game we have: the mafiaratings and Polemica conformance games, the
// golden games of the sport rule sets, and the generated games; each replays to the same game and gives the
// same MWT. A game MWT cannot hold (a draw, an unfinished game, 7-9 seats, a game mafiaratings cannot hold) is
// refused with a GameError saying why.
func TestMWTRoundTrip(t *testing.T) {
	meta := mwtTestMeta(t)
	var recs []*record.Record
	var names []string
	for _, platform := range []string{"mafiaratings", "polemica"} {
		files, _ := filepath.Glob(filepath.Join(conformance(t), platform, "[0-9]*.json"))
		for _, f := range files {
			data, _ := os.ReadFile(f)
			var im *Imported
			var err error
			if platform == "mafiaratings" {
				im, err = ImportMafiaratings(data)
			} else {
				im, err = ImportPolemica(data)
			}
			if err != nil {
				continue // a documented difference of rules (conformance_test.go)
			}
			recs, names = append(recs, im.Record), append(names, platform+"/"+filepath.Base(f))
		}
	}
	golden, _ := filepath.Glob("../../mafia/testdata/golden/f*/*.txtar")
	for _, f := range golden {
		rec := goldenRecord(t, f)
		if _, err := rec.Replay(); err == nil {
			recs, names = append(recs, rec), append(names, filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f))
		}
	}
	rng := rand.New(rand.NewSource(26))
	for i := 0; i < 400; i++ {
		if rec := genRecord(rng); rec != nil {
			recs, names = append(recs, rec), append(names, fmt.Sprintf("generated-%d", i))
		}
	}
	exported := 0
	for i, rec := range recs {
		t.Run(names[i], func(t *testing.T) {
			if !mrRoundTrips(rec) {
				t.Fatal("ours -> mafiaratings -> ours does not replay to the same game, and MWT carries that export")
			}
			if _, err := ExportMWTRecord(rec, meta); err != nil {
				var ge *GameError
				if !errors.As(err, &ge) {
					t.Fatalf("want a GameError, got %v", err)
				}
				g, _ := rec.Replay()
				if len(rec.Seats) == 10 && g != nil && g.Finished() && g.Winner() != mafia.Draw && !strings.Contains(err.Error(), "mafiaratings") {
					t.Fatalf("a finished 10-seat game refused: %v", err)
				}
				return
			}
			exported++
			mwtCycle(t, rec, meta)
		})
	}
	if exported < 200 {
		t.Errorf("%d games exported to MWT", exported)
	}
}

// mrRoundTrips says whether rec goes to mafiaratings and back to the same result.
func mrRoundTrips(rec *record.Record) bool {
	g, err := rec.Replay()
	if err != nil {
		return false
	}
	out, err := ExportRecord(rec, MRMeta{Draft: true})
	if err != nil {
		return true // not expressible there: the MWT export refuses it too, which the test checks
	}
	im, err := ImportMafiaratings(out)
	if err != nil {
		return false
	}
	g2, err := im.Record.Replay()
	return err == nil && string(record.ResultJSON(g, nil)) == string(record.ResultJSON(g2, nil))
}

// An MWT game whose fields disagree with the game our field carries is refused, naming the field.
func TestMWTImportRefusesDisagreement(t *testing.T) {
	meta := mwtTestMeta(t)
	data, _ := os.ReadFile(filepath.Join(conformance(t), "mafiaratings", "4842.json"))
	im, err := ImportMafiaratings(data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := ExportMWTRecord(im.Record, meta)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	res := m["result"].(map[string]any)
	fouls := res["player_fouls"].([]any)
	fouls[3] = 3.0
	bad, _ := json.Marshal(m)
	_, err = ImportMWT(bad, meta.Zone)
	var ge *GameError
	if !errors.As(err, &ge) || ge.Where != "result.player_fouls[3]" {
		t.Fatalf("want a GameError at result.player_fouls[3], got %v", err)
	}
}

// The MWT input errors name the field.
func TestMWTInputErrors(t *testing.T) {
	for _, c := range []struct{ in, where string }{
		{`[]`, ""},
		{`{}`, "tournament_id"},
		{`{"tournament_id": 1}`, "result"},
		{`{"tournament_id": 1, "result": {}}`, "result.players"},
		{`{"tournament_id": 1, "result": {"players": [1,2,3]}}`, "result.players"},
		{`{"tournament_id": 1, "result": {"players": [1,2,3,4,5,6,7,8,9,"x"]}}`, "result.players[9] (seat 10)"},
	} {
		_, err := ImportMWT([]byte(c.in), time.UTC)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Where != c.where {
			t.Errorf("%s: want an InputError at %q, got %v", c.in, c.where, err)
		}
	}
}

// TestWriteMWTOracleInputs writes the inputs of the by-hand MWT oracle run (testdata/mwt/README.md): our
// mafiaratings export of each oracle game to DIR, and, with MAFIACLUB_MWT_NEW=N, N new generated games kept as
// records in testdata/mwt first.
func TestWriteMWTOracleInputs(t *testing.T) {
	dir := os.Getenv("MAFIACLUB_MWT_ORACLE")
	if dir == "" {
		t.Skip("MAFIACLUB_MWT_ORACLE not set: the by-hand oracle's inputs are written only on request")
	}
	if n, _ := strconv.Atoi(os.Getenv("MAFIACLUB_MWT_NEW")); n > 0 {
		rng := rand.New(rand.NewSource(2026))
		for k := 0; k < n; {
			rec := genRecord(rng)
			if rec == nil {
				continue
			}
			seats := append([]record.Seat(nil), rec.Seats...)
			for i := range seats {
				seats[i].Player = fmt.Sprintf("mafiaratings:%d", 1001+i)
			}
			extra := map[string]json.RawMessage{
				"mafiaratings": json.RawMessage(`{"clubId":1,"eventId":1,"moderator":77,"language":"ru"}`),
				"started":      json.RawMessage(`"2026-07-15T19:00:00-06:00"`), "ended": json.RawMessage(`"2026-07-15T20:01:02-06:00"`),
			}
			rec, err := record.New(rec.Rules.ID, rec.OptionJSON, seats, rec.Events, extra)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ExportMWTRecord(rec, mwtTestMeta(t)); err != nil {
				continue // a draw or a game MWT cannot hold
			}
			if err := os.WriteFile(fmt.Sprintf("testdata/mwt/gen%02d.rec.json", k), record.Encode(rec), 0o644); err != nil {
				t.Fatal(err)
			}
			k++
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, rec := range mwtOracleGames(t) {
		mr, err := ExportRecord(rec, MRMeta{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), mr, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// An MWT game without our field (theirs) is a summary. One whose departures need no nomination or vote would
// import, replay and export to the same MWT fields (ImportMWT checks that), with its shots reconstructed; the
// others are refused with a GameError saying what the summary lacks, never with nominations or votes made up.
func TestMWTSummaryImport(t *testing.T) {
	zone, err := time.LoadLocation(oracleTZ)
	if err != nil {
		t.Skip(err)
	}
	imported, refused := 0, 0
	for name := range mwtOracleGames(t) {
		data, err := os.ReadFile(filepath.Join("testdata/mwt", name+".mwt.json"))
		if err != nil {
			t.Fatal(err)
		}
		im, err := ImportMWT(data, zone)
		if err != nil {
			var ge *GameError
			if !errors.As(err, &ge) || !strings.Contains(ge.What, "summary without nominations, votes or shots") || !strings.Contains(ge.What, "/admin/summaries") {
				t.Errorf("%s: want a GameError saying what the summary lacks, got %v", name, err)
			}
			refused++
			continue
		}
		imported++
		for _, e := range im.Record.Events {
			if e.Type == mafia.EvShot && !e.Reconstructed {
				t.Errorf("%s: a shot not marked reconstructed", name)
			}
			if e.Type == mafia.EvNominate || e.Type == mafia.EvVote {
				t.Errorf("%s: the summary import made up a %s", name, e.Type)
			}
		}
	}
	t.Logf("%d imported, %d refused", imported, refused)
	if refused == 0 {
		t.Error("no summary needed a vote it does not record: the test saw too little")
	}
	// a summary whose only departures are night kills and a disqualification replays: its shots are filled in
	data, _ := os.ReadFile("testdata/mwt/summary-kills.mwt.json")
	im, err := ImportMWT(data, zone)
	if err != nil {
		t.Fatal(err)
	}
	g, err := im.Record.Replay()
	if err != nil || g.Winner() != mafia.BlackWins {
		t.Fatalf("winner %v, %v", g.Winner(), err)
	}
	if o := g.Out(1); o.How != mafia.OutKilled || o.Number != 2 {
		t.Errorf("seat 1 %+v, want killed on night 2", o)
	}
}
