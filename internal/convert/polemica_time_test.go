package convert

import (
	"encoding/json"
	"os"
	"testing"
	"time"
)

// Polemica writes a game's start without an offset: the record's "started" is that clock time in the zone it is
// read in, RFC 3339 with the offset (UTC by ImportPolemica); one with an offset keeps it.
func TestPolemicaStartedHasTheZonesOffset(t *testing.T) {
	data, err := os.ReadFile("testdata/polemica-minimal.json") // "started": "2024-11-14T21:28:35"
	if err != nil {
		t.Fatal(err)
	}
	kyiv, _ := time.LoadLocation("Europe/Kyiv")
	started := func(im *Imported, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var s string
		_ = json.Unmarshal(im.Record.Extra["started"], &s)
		return s
	}
	if got := started(ImportPolemicaIn(data, kyiv)); got != "2024-11-14T21:28:35+02:00" {
		t.Errorf("in Kyiv: %q", got)
	}
	if got := started(ImportPolemica(data)); got != "2024-11-14T21:28:35Z" {
		t.Errorf("in UTC: %q", got)
	}
	for in, want := range map[string]string{
		"2024-11-21T22:30:00.426086": "2024-11-21T22:30:00+02:00",
		"2025-04-05T13:00:00.000":    "2025-04-05T13:00:00+03:00",
		"2024-11-21 19:32:20":        "2024-11-21T19:32:20+02:00",
		"2024-11-21T19:32:20+05:00":  "2024-11-21T19:32:20+05:00",
	} {
		tm, ok := polemicaTime(in, kyiv)
		if got := tm.Format(time.RFC3339); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, ok, want)
		}
	}
	if _, ok := polemicaTime("yesterday", kyiv); ok {
		t.Error("a start that is no time is read")
	}
}
