package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"

	"mafiaclub/internal/wasmengine"
)

// withQuickBrotli gives a checkout's engine its brotli at once: the server makes it at level 11 half a minute
// after it starts (wasmengine.Module.WithBrotli); the tests serve it in brotli from the start, at a quicker level.
func withQuickBrotli(m *wasmengine.Module) (*wasmengine.Module, error) {
	if m.WASMBrotli != nil {
		return m, nil
	}
	var br bytes.Buffer
	w := brotli.NewWriterLevel(&br, 5)
	w.Write(m.WASM)
	w.Close()
	return wasmengine.NewCompressed(m.WASM, m.WASMGzip, br.Bytes(), m.Exec)
}

// TestE2EHostAppEngineOverBrotli: Chromium, which accepts brotli, loads the host page's engine in brotli, and it
// runs (the engine is ready). The engine is fetched by the page's worker, whose requests the page's Network
// domain does not see, so the browser writes its whole network's log (NetLog) and the test reads the engine's
// response headers and its bytes on the wire there.
func TestE2EHostAppEngineOverBrotli(t *testing.T) {
	needBrowser(t)
	site, host, id := appSite(t)
	t.Cleanup(func() { site.checkLog(t) })
	netlog := filepath.Join(t.TempDir(), "netlog.json")
	bctx, bcancel := startBrowser(t, chromedp.Flag("log-net-log", netlog), chromedp.Flag("net-log-capture-mode", "Default"))
	t.Cleanup(bcancel)
	deadline := time.AfterFunc(3*time.Minute, bcancel)
	t.Cleanup(func() { deadline.Stop() })
	a := &appTest{t: t, site: site, host: host, id: id, ctx: bctx}
	m := testEngine(t)
	a.open()
	bcancel() // the browser writes the rest of its log as it stops
	time.Sleep(500 * time.Millisecond)

	loads := engineLoads(t, netlog)
	if len(loads) == 0 {
		t.Fatal("the browser's network log shows no load of the engine from the network")
	}
	for _, l := range loads {
		t.Logf("engine.wasm: Content-Encoding %q, %d bytes on the wire (the engine %d bytes, in brotli %d, in gzip %d)",
			l.encoding, l.wire, len(m.WASM), len(m.WASMBrotli), len(m.WASMGzip))
		if l.encoding != "br" {
			t.Errorf("the engine came with Content-Encoding %q, want br", l.encoding)
		}
		if l.wire != len(m.WASMBrotli) {
			t.Errorf("the engine's body took %d bytes on the wire; its brotli is %d bytes", l.wire, len(m.WASMBrotli))
		}
	}
}

type netLoad struct {
	encoding string
	wire     int // the body's bytes as received (its Content-Length)
}

// engineLoads reads a Chromium NetLog (one event a line) for the responses to engine.wasm that came from the
// network: their Content-Encoding and Content-Length.
func engineLoads(t *testing.T, path string) []netLoad {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type event struct {
		Source struct {
			ID int `json:"id"`
		} `json:"source"`
		Params struct {
			URL     string   `json:"url"`
			Headers []string `json:"headers"`
		} `json:"params"`
	}
	engine := map[int]bool{}
	var loads []netLoad
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		line := strings.TrimSuffix(strings.TrimSpace(sc.Text()), ",")
		if !strings.HasPrefix(line, `{"params"`) && !strings.HasPrefix(line, `{"phase"`) && !strings.HasPrefix(line, `{"source"`) && !strings.HasPrefix(line, `{"time"`) && !strings.HasPrefix(line, `{"type"`) {
			continue
		}
		var ev event
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		if strings.HasSuffix(ev.Params.URL, "/engine.wasm") {
			engine[ev.Source.ID] = true
		}
		if !engine[ev.Source.ID] || len(ev.Params.Headers) == 0 || !strings.HasPrefix(ev.Params.Headers[0], "HTTP/") {
			continue
		}
		l := netLoad{wire: -1}
		for _, h := range ev.Params.Headers[1:] {
			k, v, _ := strings.Cut(h, ":")
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "content-encoding":
				l.encoding = strings.TrimSpace(v)
			case "content-length":
				l.wire, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		loads = append(loads, l)
	}
	return loads
}
