package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"mafiaclub/internal/wasmengine"
)

// The engine and the static files are compressed once, at their highest levels (brotli and gzip), and kept in
// memory in every encoding; each request picks the one its browser accepts and sends those bytes as they are.
// Brotli at level 11 makes the engine 28 % smaller than gzip at 9 (docs/host-app.md), but takes half a minute
// for its 7.7 MB, which is why a release carries it compressed (internal/wasmengine) and pages never compress
// it per request.

// encodedFile is one file in each encoding it is kept in: identity always, gzip and brotli where they are
// smaller.
type encodedFile struct {
	name  string // for http.ServeContent's Content-Type by extension, when no type is set
	ctype string
	plain []byte
	gz    []byte
	br    []byte
	etag  string // of the plain bytes; the encoded ones add -gz or -br
}

// newEncodedFile compresses body once in both encodings, but for those given (a release's engine, compressed at
// go generate time).
func newEncodedFile(name, ctype string, body, gz, br []byte, etag string) *encodedFile {
	f := &encodedFile{name: name, ctype: ctype, plain: body, gz: gz, br: br, etag: etag}
	if f.etag == "" {
		sum := sha256.Sum256(body)
		f.etag = hex.EncodeToString(sum[:8])
	}
	// what is compressed here is kept only where it saves something (a tiny file is not worth a decoder's
	// work); what was given is kept as given, and an empty one means none
	if f.gz == nil {
		if f.gz = wasmengine.GzipBest(body); len(f.gz) >= len(body) {
			f.gz = nil
		}
	}
	if f.br == nil {
		if f.br = wasmengine.BrotliBest(body); len(f.br) >= len(body) {
			f.br = nil
		}
	}
	if len(f.gz) == 0 {
		f.gz = nil
	}
	if len(f.br) == 0 {
		f.br = nil
	}
	return f
}

// serve answers with the encoding the request accepts (brotli before gzip), its own Content-Length and ETag, and
// Vary: Accept-Encoding; a 304 to the ETag of the answer the browser holds. A range is answered from the plain
// bytes.
func (f *encodedFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Add("Vary", "Accept-Encoding")
	if f.ctype != "" {
		h.Set("Content-Type", f.ctype)
	} else if t := mime.TypeByExtension(path.Ext(f.name)); t != "" {
		h.Set("Content-Type", t)
	}
	body, tag := f.plain, f.etag
	if r.Header.Get("Range") == "" {
		switch preferredEncoding(r.Header.Get("Accept-Encoding"), f.br != nil, f.gz != nil) {
		case "br":
			body, tag = f.br, f.etag+"-br"
			h.Set("Content-Encoding", "br")
		case "gzip":
			body, tag = f.gz, f.etag+"-gz"
			h.Set("Content-Encoding", "gzip")
		}
	}
	etag := `"` + tag + `"`
	h.Set("ETag", etag)
	if h.Get("Content-Encoding") == "" {
		http.ServeContent(w, r, f.name, time.Time{}, bytes.NewReader(body)) // ranges too
		return
	}
	// http.ServeContent leaves out the length of an encoded answer, so the encoded ones are answered here
	if noneMatch(r.Header.Get("If-None-Match"), etag) {
		h.Del("Content-Type")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// noneMatch: If-None-Match names etag (a weak comparison, RFC 9110 13.1.2) or is "*".
func noneMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == etag {
			return true
		}
	}
	return false
}

// preferredEncoding reads Accept-Encoding (RFC 9110, 12.5.3) with its q-values: the acceptable coding of the
// highest q among those at hand, brotli on a tie, else "" (identity). A coding not listed takes the q of "*",
// or is not acceptable.
func preferredEncoding(accept string, haveBr, haveGzip bool) string {
	q := acceptedCodings(accept)
	qOf := func(c string) float64 {
		if v, ok := q[c]; ok {
			return v
		}
		if c == "gzip" {
			if v, ok := q["x-gzip"]; ok {
				return v
			}
		}
		return q["*"] // 0 when absent
	}
	best, bestQ := "", 0.0
	if haveBr {
		if v := qOf("br"); v > bestQ {
			best, bestQ = "br", v
		}
	}
	if haveGzip {
		if v := qOf("gzip"); v > bestQ {
			best = "gzip"
		}
	}
	return best
}

// acceptsGzip: the request's Accept-Encoding allows gzip (by name or by "*", with a q above 0).
func acceptsGzip(accept string) bool { return preferredEncoding(accept, false, true) == "gzip" }

// acceptedCodings maps each coding of an Accept-Encoding header (lower case) to its q-value (1 when not given;
// a malformed q counts as 0).
func acceptedCodings(accept string) map[string]float64 {
	m := map[string]float64{}
	for _, part := range strings.Split(accept, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || f < 0 || f > 1 {
				f = 0
			}
			q = f
		}
		if old, ok := m[coding]; !ok || q > old {
			m[coding] = q
		}
	}
	return m
}

// staticFiles serves the embedded static files, each compressed once, when it is first asked for. Folders are
// not listed.
func staticFiles(fsys fs.FS) http.Handler {
	var mu sync.Mutex
	files := map[string]*sync.Once{}
	encoded := map[string]*encodedFile{}
	get := func(name string) *encodedFile {
		mu.Lock()
		once, ok := files[name]
		if !ok {
			once = new(sync.Once)
			files[name] = once
		}
		mu.Unlock()
		once.Do(func() {
			b, err := fs.ReadFile(fsys, name)
			var f *encodedFile
			if err == nil {
				f = newEncodedFile(name, "", b, nil, nil, "")
			}
			mu.Lock()
			encoded[name] = f
			mu.Unlock()
		})
		mu.Lock()
		defer mu.Unlock()
		return encoded[name]
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		if !fs.ValidPath(name) || name == "." {
			http.NotFound(w, r)
			return
		}
		if st, err := fs.Stat(fsys, name); err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		get(name).serve(w, r)
	})
}
