package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// goldenRecord returns the record of a golden game of the engine's tests.
func goldenRecord(t *testing.T, name string) []byte {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "mafia", "testdata", "golden", name))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == "record.json" {
			return f.Data
		}
	}
	t.Fatalf("%s has no record", name)
	return nil
}

func TestReplayFullGame(t *testing.T) {
	rec := goldenRecord(t, "fiim-2025-club/full-game-red-wins.txtar")
	var out, errOut bytes.Buffer
	if code := run([]string{"replay", "-"}, bytes.NewReader(rec), &out, &errOut); code != 0 {
		t.Fatalf("exit %d, stderr %s", code, errOut.String())
	}
	var res struct {
		Finished bool
		Winner   string
		Seats    []struct {
			Seat   int
			Points json.Number
		}
		Error any
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out.String())
	}
	if !res.Finished || res.Winner != "red" || res.Error != nil {
		t.Errorf("got finished=%v winner=%q error=%v, want a red win", res.Finished, res.Winner, res.Error)
	}
	if len(res.Seats) != 10 || res.Seats[4].Points != "1.95" {
		t.Errorf("the sheriff's points: got %+v, want 1.95", res.Seats)
	}
}

func TestReplayExitStatus(t *testing.T) {
	good := goldenRecord(t, "fiim-2025-club/full-game-red-wins.txtar")
	rejected := bytes.Replace(good, []byte(`{"type": "speech", "seat": 2},`), []byte(`{"type": "speech", "seat": 3},`), 1)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	goodF, rejF := write("good.json", good), write("rejected.json", rejected)
	badF := write("bad.json", []byte(`{"format": 7}`))
	tests := []struct {
		name     string
		args     []string
		code     int
		docs     int
		stderr   string
		errEvent int
	}{
		{"all accepted", []string{goodF}, 0, 1, "", 0},
		{"an event rejected", []string{rejF}, 1, 1, "", 3},
		{"not a record", []string{badF}, 2, 0, "not a valid game record: format: 7 is not a format", 0},
		{"missing file", []string{filepath.Join(dir, "nope.json")}, 2, 0, "no such file", 0},
		{"several files: the worst status", []string{goodF, rejF, badF}, 2, 2, "bad.json", 0},
		{"no file named", nil, 2, 0, "name at least one file", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append([]string{"replay"}, tt.args...), strings.NewReader(""), &out, &errOut)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %s)", code, tt.code, errOut.String())
			}
			dec := json.NewDecoder(&out)
			docs := 0
			for dec.More() {
				var res struct {
					Error *struct {
						Event   int
						Message string
					}
				}
				if err := dec.Decode(&res); err != nil {
					t.Fatalf("document %d is not JSON: %v", docs+1, err)
				}
				if tt.errEvent != 0 && docs == 0 {
					if res.Error == nil || res.Error.Event != tt.errEvent || !strings.Contains(res.Error.Message, "another player's turn") {
						t.Errorf("error: got %+v, want event %d, another player's turn", res.Error, tt.errEvent)
					}
				}
				docs++
			}
			if docs != tt.docs {
				t.Errorf("%d documents, want %d", docs, tt.docs)
			}
			if tt.stderr != "" && !strings.Contains(errOut.String(), tt.stderr) {
				t.Errorf("stderr %q lacks %q", errOut.String(), tt.stderr)
			}
			if strings.Count(strings.TrimSpace(errOut.String()), "\n") > strings.Count(tt.stderr, "\n")+len(tt.args) {
				t.Errorf("stderr is not one line per bad file: %q", errOut.String())
			}
		})
	}
}

// TestExampleMatchesGolden keeps the README's example the same game as the golden one.
func TestExampleMatchesGolden(t *testing.T) {
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "club-game.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bytes.TrimSpace(example), bytes.TrimSpace(goldenRecord(t, "fiim-2025-club/full-game-red-wins.txtar"))) {
		t.Error("examples/club-game.json differs from the golden game full-game-red-wins; copy it again")
	}
}

func TestAdminCreateNeedsAPublicName(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"admin", "create", "-data", t.TempDir(), "-login", "anna.k"}, strings.NewReader("long-password\n"), &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), "-name") {
		t.Errorf("exit %d, %q: want a refusal asking for -name (the login stays private)", code, errOut.String())
	}
	code = run([]string{"admin", "create", "-data", t.TempDir(), "-login", "anna.k", "-name", "Anna"}, strings.NewReader("long-password\n"), &out, &errOut)
	if code != 0 {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
}
