package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeWritesBothSides builds a small history and checks what the peer's import reads: every game exported,
// each a finished game of ten with every seat's user in the manifest and its event there too, and the page pairs.
func TestMakeWritesBothSides(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	if code := run([]string{"make", "-data", filepath.Join(dir, "data"), "-peer", filepath.Join(dir, "peer"), "-games", "41", "-players", "30"}, &out, &errs); code != 0 {
		t.Fatalf("make: %d\n%s%s", code, out.String(), errs.String())
	}
	data, err := os.ReadFile(filepath.Join(dir, "peer", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if len(m.Games) != 41 || len(m.Skipped) != 0 {
		t.Fatalf("%d games exported, %d skipped (%v); want all 41", len(m.Games), len(m.Skipped), m.Skipped)
	}
	users := map[int]bool{}
	for _, u := range m.Users {
		users[u.Theirs] = true
	}
	events := map[int]bool{}
	for _, e := range m.Events {
		events[e.Theirs] = true
	}
	if len(m.Tournaments) != 1 {
		t.Errorf("%d tournaments, want the Demo Cup", len(m.Tournaments))
	}
	for _, f := range m.Games {
		var g struct {
			EventID   int    `json:"eventId"`
			Winner    string `json:"winner"`
			Moderator struct {
				ID int `json:"id"`
			} `json:"moderator"`
			Players []struct {
				ID int `json:"id"`
			} `json:"players"`
		}
		b, err := os.ReadFile(filepath.Join(dir, "peer", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(g.Players) != 10 || g.Winner == "" || !events[g.EventID] || !users[g.Moderator.ID] {
			t.Errorf("%s: %d players, winner %q, event %d known %v, moderator %d known %v", f, len(g.Players), g.Winner,
				g.EventID, events[g.EventID], g.Moderator.ID, users[g.Moderator.ID])
		}
		for _, p := range g.Players {
			if !users[p.ID] {
				t.Errorf("%s: user %d is not in the manifest", f, p.ID)
			}
		}
	}
	var names []string
	for _, p := range m.Pages {
		names = append(names, p.Name)
	}
	for _, want := range []string{"front door", "rating", "player", "game", "club night", "tournament standings"} {
		if !strings.Contains(strings.Join(names, "|"), want) {
			t.Errorf("no page pair %q in %v", want, names)
		}
	}
}
