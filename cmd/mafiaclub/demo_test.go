package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServeRefusesBadDemoPace: a pace that is no duration, from its flag or its variable, or a negative one,
// stops the server at start with the value named.
func TestServeRefusesBadDemoPace(t *testing.T) {
	for _, c := range []struct{ env, flag, named string }{{"fast", "", `"fast"`}, {"", "-1s", `"-1s"`}, {"-3s", "", `"-3s"`}} {
		t.Setenv("MAFIACLUB_DEMO_PACE", c.env)
		args := []string{"-data", t.TempDir(), "-engine", "off"}
		if c.flag != "" {
			args = append(args, "-demo-pace", c.flag)
		}
		var out, errOut strings.Builder
		if code := serve(args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "-demo-pace") || !strings.Contains(errOut.String(), c.named) {
			t.Errorf("MAFIACLUB_DEMO_PACE=%q %v: exit %d, %q; want 2 and %s named", c.env, args, code, errOut.String(), c.named)
		}
	}
}

// TestDemoOnlyWhenAsked: a database that has accounts gets neither the demo's season nor its live game, unless
// -demo is given; with it, the season is made and the demo host plays a game live, which moves on by itself, and
// SIGTERM stops the server promptly.
func TestDemoOnlyWhenAsked(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; not in -short")
	}
	bin := testBinary(t)
	data := filepath.Join(t.TempDir(), "data")
	var out, errOut strings.Builder
	if code := run([]string{"admin", "create", "-data", data, "-login", "anna", "-name", "Anna"}, strings.NewReader("long-password\n"), &out, &errOut); code != 0 {
		t.Fatalf("admin create: %d %s", code, errOut.String())
	}
	get := func(s *server, path string) string {
		t.Helper()
		resp, err := http.Get(s.base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	nights := func(s *server) int {
		var list []json.RawMessage
		if err := json.Unmarshal([]byte(get(s, "/api/nights")), &list); err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	liveGame := regexp.MustCompile(`href="/live/(\d+)"`)
	stop := func(s *server) {
		t.Helper()
		if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- s.cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the server's exit: %v", err)
			}
		case <-time.After(15 * time.Second):
			t.Fatal("the server did not stop within 15 s of SIGTERM")
		}
	}

	srv := startServerArgs(t, bin, "-data", data, "-demo-pace", "5ms")
	time.Sleep(200 * time.Millisecond)
	if n, m := nights(srv), liveGame.FindStringSubmatch(get(srv, "/live")); n != 0 || m != nil {
		t.Errorf("a club with an account got %d club nights and the live game %v without -demo", n, m)
	}
	stop(srv)

	srv = startServerArgs(t, bin, "-data", data, "-demo", "-demo-pace", "5ms")
	if n := nights(srv); n != 2 {
		t.Errorf("with -demo: %d club nights to come, want the season's 2", n)
	}
	var id string
	for deadline := time.Now().Add(20 * time.Second); id == ""; time.Sleep(20 * time.Millisecond) {
		if m := liveGame.FindStringSubmatch(get(srv, "/live")); m != nil {
			id = m[1]
		} else if time.Now().After(deadline) {
			t.Fatal("no live game within 20 s")
		}
	}
	first := get(srv, "/api/live/"+id)
	moved := false
	for deadline := time.Now().Add(20 * time.Second); !moved && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		moved = get(srv, fmt.Sprintf("/api/live/%s", id)) != first
	}
	if !moved {
		t.Errorf("the live game %s did not move on by itself", id)
	}
	stop(srv)
}
