package mafia_test

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

var update = flag.Bool("update", false, "rewrite the expected results of the golden games")

// A golden game is testdata/golden/RULESET/NAME.txtar: a comment whose "rows:" line names the matrix rows and
// contradictions (R.., C-..) it shows, a record.json, and the result.json that replaying it gives. Each file is
// written by hand and its result checked against the matrix by a person; -update only rewrites result.json.
func TestGolden(t *testing.T) {
	sets, _ := filepath.Glob("testdata/golden/*")
	if len(sets) == 0 {
		t.Fatal("no golden games")
	}
	for _, dir := range sets {
		files, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
		for _, file := range files {
			name := strings.TrimPrefix(file, "testdata/golden/")
			t.Run(strings.TrimSuffix(name, ".txtar"), func(t *testing.T) { runGolden(t, file) })
		}
	}
}

func runGolden(t *testing.T, file string) {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var recJSON, want []byte
	var resultIdx = -1
	for i, f := range ar.Files {
		switch f.Name {
		case "record.json":
			recJSON = f.Data
		case "result.json":
			want, resultIdx = f.Data, i
		default:
			t.Fatalf("unexpected section %q", f.Name)
		}
	}
	if rows(ar.Comment) == nil {
		t.Errorf("the comment has no \"rows:\" line")
	}
	rec, err := record.Decode(recJSON)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if rs := filepath.Base(filepath.Dir(file)); rec.Rules.ID != rs {
		t.Fatalf("record plays %s but sits in %s/", rec.Rules.ID, rs)
	}
	if again := record.Encode(mustDecode(t, record.Encode(rec))); !bytes.Equal(again, record.Encode(rec)) {
		t.Errorf("encode(decode(x)) is not stable")
	}
	g, replayErr := replayChecked(t, rec)
	got := record.ResultJSON(g, replayErr)
	if *update {
		if resultIdx < 0 {
			ar.Files = append(ar.Files, txtar.File{Name: "result.json", Data: got})
		} else {
			ar.Files[resultIdx].Data = got
		}
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("result differs (go test ./mafia -run TestGolden -update rewrites it)\n%s", lineDiff(string(want), string(got)))
	}
}

// replayChecked replays the record event by event, checking the invariants after each accepted event and that a
// rejected event changes nothing.
func replayChecked(t *testing.T, rec *record.Record) (*mafia.Game, error) {
	t.Helper()
	g, err := mafia.NewGame(rec.Rules, rec.Options, rec.Roles())
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range rec.EngineEvents() {
		before := g.Clone()
		if err := g.Apply(e); err != nil {
			if !mafia.SameGame(before, g) {
				t.Errorf("event %d was rejected but changed the game", i+1)
			}
			var re *mafia.RuleError
			if !errors.As(err, &re) {
				t.Errorf("event %d: the error %v names no rule", i+1, err)
			}
			return g, &mafia.ReplayError{Index: i + 1, Event: e, Err: err}
		}
		if err := mafia.CheckInvariants(before, g, e); err != nil {
			t.Errorf("event %d (%s): invariant broken: %v", i+1, e.Type, err)
		}
	}
	return g, nil
}

func mustDecode(t *testing.T, data []byte) *record.Record {
	t.Helper()
	rec, err := record.Decode(data)
	if err != nil {
		t.Fatalf("decode of encoded record: %v", err)
	}
	return rec
}

// rows returns the matrix rows a golden file names on its "rows:" line.
func rows(comment []byte) []string {
	sc := bufio.NewScanner(bytes.NewReader(comment))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(strings.ToLower(line), "rows:"); ok {
			return strings.FieldsFunc(strings.ToUpper(rest), func(r rune) bool { return r == ' ' || r == ',' })
		}
	}
	return nil
}

// TestGoldenCoverage checks that every matrix row listed in testdata/golden/RULESET/ROWS (the play rows the rule
// set has) is shown by at least one of that rule set's golden games.
func TestGoldenCoverage(t *testing.T) {
	for _, r := range mafia.RuleSets() {
		t.Run(r.ID, func(t *testing.T) {
			dir := filepath.Join("testdata/golden", r.ID)
			need, err := os.ReadFile(filepath.Join(dir, "ROWS"))
			if err != nil {
				t.Fatalf("no list of the rows %s must cover: %v", r.ID, err)
			}
			covered := map[string][]string{}
			files, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
			for _, f := range files {
				ar, err := txtar.ParseFile(f)
				if err != nil {
					t.Fatal(err)
				}
				for _, row := range rows(ar.Comment) {
					covered[row] = append(covered[row], filepath.Base(f))
				}
			}
			var missing []string
			for _, row := range strings.Fields(strings.ToUpper(stripComments(string(need)))) {
				if len(covered[row]) == 0 {
					missing = append(missing, row)
				}
			}
			sort.Strings(missing)
			if len(missing) > 0 {
				t.Errorf("%d rows have no golden game: %s", len(missing), strings.Join(missing, " "))
			}
		})
	}
}

func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// lineDiff shows the first differing lines of two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("line " + itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl + "\n")
			if shown++; shown == 8 {
				break
			}
		}
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }
