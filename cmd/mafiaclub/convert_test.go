package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mafiaclub/mafia/record"
)

const polemicaMinimal = "../../internal/convert/testdata/polemica-minimal.json"

func runConvert(f func([]string, io.Reader, io.Writer, io.Writer) int, stdin string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := f(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func oneStderrLine(t *testing.T, stderr string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line: %q", stderr)
	}
}

func TestImportCmd(t *testing.T) {
	code, out, stderr := runConvert(importCmd, "", "--from", "polemica", polemicaMinimal)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if _, err := record.Decode([]byte(out)); err != nil {
		t.Fatalf("the output is not a record: %v", err)
	}
	data, err := os.ReadFile(polemicaMinimal)
	if err != nil {
		t.Fatal(err)
	}
	code, out2, _ := runConvert(importCmd, string(data), "--from=polemica", "-")
	if code != 0 || out2 != out {
		t.Errorf("from standard input: exit %d, same output %v", code, out2 == out)
	}
	// the start, which Polemica writes without an offset, in the club's zone (MAFIACLUB_TZ, or --tz)
	t.Setenv("MAFIACLUB_TZ", "Europe/Kyiv")
	for _, args := range [][]string{{"--from", "polemica", polemicaMinimal}, {"--tz", "Europe/Kyiv", "--from", "polemica", polemicaMinimal}} {
		if code, out, stderr := runConvert(importCmd, "", args...); code != 0 || !strings.Contains(out, `"started": "2024-11-14T21:28:35+02:00"`) {
			t.Errorf("%v: exit %d %s, started not in Kyiv:\n%s", args, code, stderr, out)
		}
	}
	if code, _, stderr := runConvert(importCmd, "", "--tz", "Mars/Olympus", "--from", "polemica", polemicaMinimal); code != 2 || !strings.Contains(stderr, "Mars/Olympus") {
		t.Errorf("an unknown zone: exit %d %q", code, stderr)
	}

	for _, c := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"no arguments", "", nil, 2, "usage"},
		{"no file", "", []string{"--from", "polemica"}, 2, "usage"},
		{"two files", "", []string{"--from", "polemica", "a", "b"}, 2, "usage"},
		{"unknown flag", "", []string{"--from", "polemica", "--x", "a"}, 2, "usage"},
		{"unknown platform", "", []string{"--from", "lichess", "a"}, 2, `unknown platform "lichess"`},
		{"missing file", "", []string{"--from", "mafiaratings", filepath.Join(t.TempDir(), "none.json")}, 2, "none.json"},
		{"malformed", "{\"players\": 5}", []string{"--from", "mafiaratings", "-"}, 2, "players: must be a list"},
		{"not JSON", "\x00\x01", []string{"--from", "polemica", "-"}, 2, "not a JSON object"},
		{"cannot be converted", strings.Replace(string(data), `"result": 0`, `"result": 1`, 1), []string{"--from", "polemica", "-"}, 1,
			"cannot be converted"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := runConvert(importCmd, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
			if out != "" {
				t.Errorf("output on failure: %q", out)
			}
			oneStderrLine(t, stderr)
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not say %q", stderr, c.want)
			}
		})
	}
}

func TestExportCmd(t *testing.T) {
	args := []string{"--to", "mafiaratings", "--event-id", "7", "--club-id=3", "--moderator", "25", "--language", "ru",
		"--start", "2026-07-15T19:00:00-06:00", "--end", "1784166000"}
	for s := 1; s <= 10; s++ {
		args = append(args, "--player", fmt.Sprintf("%d=%d", s, 100+s))
	}
	code, out, stderr := runConvert(exportCmd, "", append(args, "../../examples/club-game.json")...)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var game map[string]any
	if err := json.Unmarshal([]byte(out), &game); err != nil || game["winner"] != "civ" {
		t.Fatalf("not a mafiaratings game: %v %v", err, game["winner"])
	}
	for k, want := range map[string]any{"eventId": 7.0, "clubId": 3.0, "language": "ru", "startTime": 1784163600.0, "endTime": 1784166000.0} {
		if game[k] != want {
			t.Errorf("%s: %v, want %v", k, game[k], want)
		}
	}
	if m, _ := game["moderator"].(map[string]any); m["id"] != 25.0 {
		t.Errorf("moderator %v", game["moderator"])
	}
	if p, _ := game["players"].([]any)[9].(map[string]any); p["id"] != 110.0 {
		t.Errorf("seat 10's id %v", p["id"])
	}
	// without the fields create needs, the export is refused with the list; --draft writes it anyway
	code, _, stderr = runConvert(exportCmd, "", "--to", "mafiaratings", "../../examples/club-game.json")
	if code != 1 || !strings.Contains(stderr, "it needs eventId (--event-id); clubId (--club-id); moderator (--moderator); language (--language)") ||
		!strings.Contains(stderr, "the mafiaratings ids of seats 1, 2, 3, 4, 5, 6, 7, 8, 9, 10") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if code, draft, _ := runConvert(exportCmd, "", "--draft", "--to", "mafiaratings", "../../examples/club-game.json"); code != 0 || !strings.Contains(draft, `"winner": "civ"`) {
		t.Errorf("--draft: exit %d", code)
	}
	code, rec, stderr := runConvert(importCmd, out, "--from", "mafiaratings", "-")
	if code != 0 {
		t.Fatalf("importing the export: exit %d, %s", code, stderr)
	}
	orig, _ := os.ReadFile("../../examples/club-game.json")
	a, _ := record.Decode(orig)
	b, err := record.Decode([]byte(rec))
	if err != nil {
		t.Fatal(err)
	}
	ga, _ := a.Replay()
	gb, _ := b.Replay()
	if !bytes.Equal(record.ResultJSON(ga, nil), record.ResultJSON(gb, nil)) {
		t.Errorf("the round trip changes the result")
	}

	orig10, _ := os.ReadFile("../../examples/club-game.json")
	unfinished := string(orig10[:bytes.Index(orig10, []byte(`{"type": "night"}`))]) + `{"type": "night"}]}`
	home := `{"format": 1, "rules": "home-ua", "seats": [{"seat": 1, "role": "commissar", "name": "A"},
		{"seat": 2, "role": "citizen", "name": "B"}, {"seat": 3, "role": "mafia", "name": "C"}], "events": []}`
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"no arguments", "", nil, 2, "usage"},
		{"unknown platform", "", []string{"--to", "polemica", "-"}, 2, `unknown platform "polemica"`},
		{"invalid record", `{"format": 1}`, []string{"--to", "mafiaratings", "-"}, 2, "not a valid game record"},
		{"home rules", home, []string{"--to", "mafiaratings", "-"}, 1, "cannot be converted"},
		{"unfinished", unfinished, append(args, "-"), 1, "the game is unfinished; mafiaratings' create refuses a game without a result"},
		{"unknown flag", "", []string{"--to", "mafiaratings", "--colour", "red", "-"}, 2, "usage"},
		{"bad player", "", []string{"--to", "mafiaratings", "--player", "3", "-"}, 2, "usage"},
		{"bad time", "", []string{"--to", "mafiaratings", "--start", "noon", "-"}, 2, "usage"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := runConvert(exportCmd, c.stdin, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, c.code, stderr)
			}
			if out != "" {
				t.Errorf("output on failure: %q", out)
			}
			oneStderrLine(t, stderr)
			if !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q does not say %q", stderr, c.want)
			}
		})
	}
}

// `mafiaclub rules` lists every rule set with its options and defaults, the new import options among them.
func TestRulesCmd(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"rules"}, strings.NewReader(""), &out, &errb); code != 0 || errb.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	text := out.String()
	for _, want := range []string{
		"fiim-2025-club\tFIIM 2025, club rules (7-10 players; the club's default; exports to mafiaratings)\n",
		"fsm-2026\tFSM 2026 (10-10 players; exports to mafiaratings)\n",
		"home-doctor\tHome rules with a doctor (6-63 players)\n",
		"\tcandidate_self_vote\tdefault false\n",
		"\tday1_lift_only\tdefault false\n",
		"\tdoctor_self_heal\trequired\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the list lacks %q:\n%s", want, text)
		}
	}
	// day1_lift_only belongs to fsm-2026 and fiim-2025-club only
	if strings.Count(text, "\tday1_lift_only\t") != 2 || strings.Count(text, "\tcandidate_self_vote\t") != 1 {
		t.Errorf("the new options are listed for the wrong rule sets:\n%s", text)
	}
}
