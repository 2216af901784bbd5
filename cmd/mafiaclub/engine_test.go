package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
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

// TestServeWithoutEngineSaysSo: a binary that does not carry the engine, run outside a checkout (as a plain `go
// build` installed on a club's server would be), warns at start that host pages work by plain form posts only and
// how to get a release, and every admin's page says the same; `version` says it too.
func TestServeWithoutEngineSaysSo(t *testing.T) {
	bin := testBinary(t)
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "mafiaclub dev (") || !strings.Contains(string(out), "does not carry the host page's engine") {
		t.Errorf("version: %q (%v), want the version and that the engine is not carried", out, err)
	}
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-cookie-secure", "never", "-engine", "auto",
		"-log-format", "json", "-data", t.TempDir())
	cmd.Dir = t.TempDir() // no go.mod here: nothing to build the engine from
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				addr <- a
			}
		}
	}()
	warned := make(chan map[string]any, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var line map[string]any
			if json.Unmarshal(sc.Bytes(), &line) == nil && line["level"] == "WARN" && strings.Contains(fmt.Sprint(line["msg"]), "ENGINE") {
				warned <- line
			}
		}
	}()
	select {
	case line := <-warned:
		msg := fmt.Sprint(line["msg"])
		for _, want := range []string{"plain form posts only", "Installing a club's server", "go run -C tools/release"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the warning does not say %q: %s", want, msg)
			}
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no warning within 30 s that the host page has no engine")
	}
	var base string
	select {
	case base = <-addr:
	case <-time.After(serverStartLimit):
		t.Fatalf("the server did not say where it listens within %s", serverStartLimit)
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	res, err := c.PostForm(base+"/login", url.Values{"login": {"admin"}, "password": {"demo-admin"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	req, _ := http.NewRequest("GET", base+"/admin/members", nil)
	req.AddCookie(&http.Cookie{Name: "lang", Value: "en"})
	res, err = c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), `id="no-engine"`) || !strings.Contains(string(body), "plain form posts only") {
		t.Errorf("the admin's page (%d) has no banner saying the host page has no engine: %.300s", res.StatusCode, body)
	}
}
