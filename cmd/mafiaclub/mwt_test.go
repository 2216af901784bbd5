package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// `export --to mwt` writes an MWT game with the flags' fields and the club's zone; `import --from mwt` reads it
// back as the same game; a record without the MWT fields is refused with the list of what is missing; a flag of
// the other platform's export is a usage error.
func TestExportImportMWT(t *testing.T) {
	rec, err := os.ReadFile("../../examples/club-game.json")
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--to", "mwt", "--tournament", "9", "--table", "2", "--game", "3", "--referee", "5",
		"--start", "2026-07-15T19:00:00-06:00", "--end", "2026-07-15T20:01:00-06:00", "--tz", "Europe/Kyiv"}
	for s := 1; s <= 10; s++ {
		args = append(args, "--player", itoa(s)+"="+itoa(700+s))
	}
	code, out, stderr := runConvert(exportCmd, string(rec), append(args, "-")...)
	if code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	var m struct {
		Tournament int `json:"tournament_id"`
		Session    int `json:"session_number"`
		Result     struct {
			Start   string `json:"start_time"`
			Players []int  `json:"players"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if m.Tournament != 9 || m.Session != 3 || m.Result.Start != "2026-07-16 4:00:00" || m.Result.Players[9] != 710 {
		t.Errorf("got %+v", m)
	}
	code, back, stderr := runConvert(importCmd, out, "--from", "mwt", "--tz", "Europe/Kyiv", "-")
	if code != 0 {
		t.Fatalf("import: %d %s", code, stderr)
	}
	if !strings.Contains(back, `"source": "mwt"`) || !strings.Contains(back, `"tournament_id":9`) {
		t.Errorf("the import carries no MWT fields: %.400s", back)
	}
	code, _, stderr = runConvert(exportCmd, string(rec), "--to", "mwt", "-")
	if code != 1 || !strings.Contains(stderr, "tournament_id (--tournament)") {
		t.Errorf("a record without MWT fields: %d %q", code, stderr)
	}
	oneStderrLine(t, stderr)
	if code, _, stderr := runConvert(exportCmd, string(rec), "--to", "mwt", "--event-id", "1", "-"); code != 2 || !strings.Contains(stderr, "usage") {
		t.Errorf("mafiaratings' flag with --to mwt: %d %q", code, stderr)
	}
	if code, _, stderr := runConvert(exportCmd, string(rec), "--to", "mafiaratings", "--tournament", "1", "-"); code != 2 || !strings.Contains(stderr, "usage") {
		t.Errorf("an MWT flag with --to mafiaratings: %d %q", code, stderr)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
