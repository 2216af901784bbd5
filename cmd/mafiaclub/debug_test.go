package main

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The profiles are served on a loopback address only, and serve refuses any other before it opens anything.
func TestDebugAddrLoopbackOnly(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.org:6060", "127.0.0.1"} {
		var out, errOut bytes.Buffer
		if code := serve([]string{"-data", t.TempDir(), "-engine", "off", "-debug-addr", addr}, &out, &errOut); code != 2 ||
			!strings.Contains(errOut.String(), "-debug-addr") {
			t.Errorf("-debug-addr %s: code %d, %q; want 2 naming the flag", addr, code, errOut.String())
		}
	}
	srv, at, err := startDebug("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	resp, err := http.Get("http://" + at.String() + "/debug/pprof/goroutine?debug=1")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "goroutine profile:") {
		t.Fatalf("goroutine profile: %d %.200s", resp.StatusCode, body)
	}
}
