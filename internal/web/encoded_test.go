package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"mafiaclub/internal/wasmengine"
)

func gunzip(t *testing.T, b string) []byte {
	t.Helper()
	zr, err := gzip.NewReader(strings.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("gzip: %v", err)
	}
	return out
}

func unbrotli(t *testing.T, b string) []byte {
	t.Helper()
	out, err := io.ReadAll(brotli.NewReader(strings.NewReader(b)))
	if err != nil {
		t.Fatalf("not brotli: %v", err)
	}
	return out
}

// checkEncodings asks for path with Accept-Encoding headers of every kind: brotli where it is accepted (before
// gzip, q-values read), gzip where only it is, the plain bytes where neither is; each answer decodes to want,
// with its own Content-Length and ETag, Vary: Accept-Encoding, and a 304 for its own ETag.
func checkEncodings(t *testing.T, h *harness, path string, want []byte) {
	t.Helper()
	etags := map[string]string{}
	for _, c := range []struct{ accept, enc string }{
		{"gzip, deflate, br, zstd", "br"}, // Chromium's
		{"br", "br"},
		{"br;q=0.5, gzip;q=0.5", "br"}, // a tie: brotli
		{"*", "br"},
		{"gzip;q=1.0, br;q=0.9", "gzip"},
		{"gzip, deflate", "gzip"},
		{"x-gzip", "gzip"},
		{"br;q=0, *", "gzip"},
		{"BR;Q=0, GZIP", "gzip"},
		{"identity", ""},
		{"", ""},
		{"gzip;q=0, br;q=0", ""},
		{"deflate", ""},
		{"*;q=0, identity", ""},
	} {
		r := h.getWith(h.client(), path, "Accept-Encoding", c.accept)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s with %q: %d", path, c.accept, r.StatusCode)
		}
		if got := r.Header.Get("Content-Encoding"); got != c.enc {
			t.Errorf("%s with Accept-Encoding %q: Content-Encoding %q, want %q", path, c.accept, got, c.enc)
			continue
		}
		if v := r.Header.Values("Vary"); len(v) != 1 || v[0] != "Accept-Encoding" {
			t.Errorf("%s with %q: Vary %q, want Accept-Encoding once", path, c.accept, v)
		}
		if cl := r.Header.Get("Content-Length"); cl != strconv.Itoa(len(r.Body)) {
			t.Errorf("%s with %q: Content-Length %q, the body %d bytes", path, c.accept, cl, len(r.Body))
		}
		var got []byte
		switch c.enc {
		case "br":
			got = unbrotli(t, r.Body)
		case "gzip":
			got = gunzip(t, r.Body)
		default:
			got = []byte(r.Body)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s with %q (%s): decodes to %d bytes that are not the file's %d", path, c.accept, c.enc, len(got), len(want))
		}
		if c.enc != "" && len(r.Body) >= len(want) {
			t.Errorf("%s in %s: %d bytes, not smaller than the file's %d", path, c.enc, len(r.Body), len(want))
		}
		etag := r.Header.Get("ETag")
		if etag == "" {
			t.Errorf("%s with %q: no ETag", path, c.accept)
		}
		if old, ok := etags[c.enc]; ok && old != etag {
			t.Errorf("%s in %q: ETags %s and %s", path, c.enc, old, etag)
		}
		etags[c.enc] = etag
		if r := h.getWith(h.client(), path, "Accept-Encoding", c.accept, "If-None-Match", etag); r.StatusCode != http.StatusNotModified || r.Body != "" {
			t.Errorf("%s with %q and its ETag: %d, %d bytes; want 304", path, c.accept, r.StatusCode, len(r.Body))
		}
	}
	if etags["br"] == etags["gzip"] || etags["br"] == etags[""] || etags["gzip"] == etags[""] {
		t.Errorf("%s: the encodings share an ETag: %q", path, etags)
	}
	// a browser holding the gzip answer asks with its ETag: it has not the brotli one
	if r := h.getWith(h.client(), path, "Accept-Encoding", "br", "If-None-Match", etags["gzip"]); r.StatusCode != http.StatusOK {
		t.Errorf("%s in brotli with the gzip answer's ETag: %d, want 200", path, r.StatusCode)
	}
}

// TestStaticFilesPrecompressed: the static files are served in brotli, gzip or as they are, by Accept-Encoding.
func TestStaticFilesPrecompressed(t *testing.T) {
	h := newHarness(t)
	for _, name := range []string{"host.js", "app.css"} {
		want, err := os.ReadFile(filepath.Join("static", name))
		if err != nil {
			t.Fatal(err)
		}
		checkEncodings(t, h, "/static/"+name, want)
	}
	r := h.getWith(h.client(), "/static/host.js", "Accept-Encoding", "br")
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("host.js: Content-Type %q", ct)
	}
	if cc := r.Header.Get("Cache-Control"); cc != "public, max-age=300" {
		t.Errorf("host.js: Cache-Control %q", cc)
	}
	// the browser's catalogues are made once per language and kept compressed too
	r = h.getWith(h.client(), "/static/i18n/en.json", "Accept-Encoding", "identity")
	checkEncodings(t, h, "/static/i18n/en.json", []byte(r.Body))
	if cc := r.Header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("en.json: Cache-Control %q", cc)
	}
	for _, path := range []string{"/static/", "/static/nothing.js"} {
		if r := h.getWith(h.client(), path, "Accept-Encoding", "br"); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, r.StatusCode)
		}
	}
}

// TestEngineBrotli: the engine is served in the encodings its module carries (brotli once WithBrotli has made
// it, kept in the user's cache folder for the next start), the loader compressed here.
func TestEngineBrotli(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	h := newHarness(t)
	wasm := []byte("\x00asm\x01\x00\x00\x00" + strings.Repeat("an engine's body, long enough to compress ", 2000))
	execJS := []byte(strings.Repeat("// the loader, long enough to compress\n", 100))
	m, err := wasmengine.New(wasm, execJS)
	if err != nil {
		t.Fatal(err)
	}
	wasmPath := "/static/engine/" + m.Hash + "/engine.wasm"
	h.site.SetEngine(m)
	if r := h.getWith(h.client(), wasmPath, "Accept-Encoding", "gzip, deflate, br"); r.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("the engine before its brotli is made: Content-Encoding %q, want gzip", r.Header.Get("Content-Encoding"))
	}
	mb := m.WithBrotli()
	if mb.Hash != m.Hash || mb.WASMBrotli == nil {
		t.Fatalf("WithBrotli: hash %s (was %s), %d bytes of brotli", mb.Hash, m.Hash, len(mb.WASMBrotli))
	}
	dir, _ := os.UserCacheDir()
	kept, err := os.ReadFile(filepath.Join(dir, "mafiaclub", "engine-"+m.Hash+".wasm.br"))
	if err != nil || !bytes.Equal(kept, mb.WASMBrotli) {
		t.Errorf("the brotli is not kept in the cache folder: %v", err)
	}
	if again := m.WithBrotli(); !bytes.Equal(again.WASMBrotli, mb.WASMBrotli) {
		t.Error("WithBrotli from the cache gives other bytes")
	}
	h.site.SetEngine(mb)
	checkEncodings(t, h, wasmPath, wasm)
	checkEncodings(t, h, "/static/engine/"+m.Hash+"/wasm_exec.js", execJS)
	r := h.getWith(h.client(), wasmPath, "Accept-Encoding", "br")
	if r.Header.Get("Content-Type") != "application/wasm" || !strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("the engine in brotli: %q %q", r.Header.Get("Content-Type"), r.Header.Get("Cache-Control"))
	}
	if r.Body != string(mb.WASMBrotli) {
		t.Error("the engine's brotli is not the module's bytes as they are")
	}
}

// TestNewCompressedKeepsTheBytes: a release's engine, compressed at go generate time, is served as it is.
func TestNewCompressedKeepsTheBytes(t *testing.T) {
	h := newHarness(t)
	wasm := []byte("\x00asm\x01\x00\x00\x00" + strings.Repeat("x", 5000))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(wasm)
	zw.Close()
	var br bytes.Buffer
	bw := brotli.NewWriter(&br)
	bw.Write(wasm)
	bw.Close()
	m, err := wasmengine.NewCompressed(wasm, gz.Bytes(), br.Bytes(), []byte("// loader"))
	if err != nil {
		t.Fatal(err)
	}
	h.site.SetEngine(m)
	path := "/static/engine/" + m.Hash + "/engine.wasm"
	if r := h.getWith(h.client(), path, "Accept-Encoding", "br"); r.Body != br.String() {
		t.Error("the engine in brotli is not the bytes given")
	}
	if r := h.getWith(h.client(), path, "Accept-Encoding", "gzip"); r.Body != gz.String() {
		t.Error("the engine in gzip is not the bytes given")
	}
	if _, err := wasmengine.NewCompressed(wasm, []byte("not gzip"), nil, nil); err == nil {
		t.Error("NewCompressed took a gzip that is not")
	}
}
