package main

import (
	"bytes"
	"io"
	"net/http"
	"regexp"
	"testing"
	"time"
)

// TestServeBuildsTheEngine: the program run from a checkout builds the host page's engine at start-up with the Go
// toolchain at hand, and serves it: the service worker then names it, and its address answers the WebAssembly
// module.
func TestServeBuildsTheEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the engine")
	}
	s := startServerArgs(t, testBinary(t), "-data", t.TempDir(), "-engine", "auto")
	wasm := regexp.MustCompile(`/static/engine/[0-9a-f]{16}/engine\.wasm`)
	deadline := time.Now().Add(4 * time.Minute)
	var url string
	for url == "" {
		res, err := http.Get(s.base + "/sw.js")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		url = wasm.FindString(string(body))
		if url == "" {
			if time.Now().After(deadline) {
				t.Fatalf("no engine after 4 minutes; the service worker lists: %.300s", body)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	req, _ := http.NewRequest("GET", s.base+url, nil)
	req.Header.Set("Accept-Encoding", "identity")
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/wasm" || !bytes.HasPrefix(body, []byte("\x00asm")) {
		t.Fatalf("%s: %d %q, %d bytes starting %q", url, res.StatusCode, res.Header.Get("Content-Type"), len(body), body[:min(8, len(body))])
	}
}
