package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunSideBySide: the load tool asks both sides for each pair's page, reads every body, prints each side's
// size on the wire, and counts a side's failed answers (naming the first) and exits with 1 for them.
func TestRunSideBySide(t *testing.T) {
	ours := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/players/7" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(strings.Repeat("o", 1234)))
	}))
	defer ours.Close()
	theirs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("id") != "10007" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(strings.Repeat("t", 4321)))
	}))
	defer theirs.Close()
	pages := filepath.Join(t.TempDir(), "pages.tsv")
	if err := os.WriteFile(pages, []byte("# name, our path, theirs\nplayer\t/players/7\t/user_info.php?id=10007\nmissing\t/players/8\t/user_info.php?id=10008\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	run1 := func(only string) (int, string) {
		var out, errs bytes.Buffer
		code := run([]string{"run", "-base", "ours=" + ours.URL, "-base", "theirs=" + theirs.URL, "-pages", pages, "-only", only,
			"-clients", "1,2", "-rounds", "2", "-duration", "50ms", "-warmup", "2"}, &out, &errs)
		return code, out.String()
	}
	code, out := run1("player")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"player", "1234 / 4321", "ours p50 / p99", "theirs req/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "player") != 2 {
		t.Errorf("not one line for each client count:\n%s", out)
	}
	code, out = run1("missing")
	if code != 1 || !strings.Contains(out, "status 404") {
		t.Errorf("a page both sides refuse: exit %d, want 1 with the status named:\n%s", code, out)
	}
}
