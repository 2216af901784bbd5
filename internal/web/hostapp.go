package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"mafiaclub/internal/club"
	"mafiaclub/internal/wasmengine"
)

// The host page as a table app: the engine compiled to WebAssembly draws each action at once in the browser, the
// actions wait in the browser's storage while the network is down, and a service worker keeps the page and its
// engine for a reload in a dead spot. The server stays the authority: every action comes back here and is checked
// again by the same engine. See static/host.js and cmd/engine.

// SetEngine makes the engine available to host pages (nil: pages work by plain form posts). The program builds
// it at start-up, so pages drawn before that work without it.
func (s *Server) SetEngine(m *wasmengine.Module) { s.engine.Store(m) }

func (s *Server) engineURLs() (wasm, execJS string) {
	m := s.engine.Load()
	if m == nil {
		return "", ""
	}
	return "/static/engine/" + m.Hash + "/engine.wasm", "/static/engine/" + m.Hash + "/wasm_exec.js"
}

// engineFile serves the engine and its loader. Their address names their build, so browsers keep them for good.
func (s *Server) engineFile(w http.ResponseWriter, r *http.Request) {
	m := s.engine.Load()
	if m == nil || r.PathValue("hash") != m.Hash {
		http.NotFound(w, r)
		return
	}
	wasm, execJS := s.engineEncoded(m)
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	switch r.PathValue("file") {
	case "engine.wasm":
		wasm.serve(w, r)
	case "wasm_exec.js":
		execJS.serve(w, r)
	default:
		http.NotFound(w, r)
	}
}

// engineEncoded is the engine and its loader in each encoding, made once per module: the engine as the module
// carries it compressed (a release's, at go generate time; a checkout's brotli comes half a minute after its
// start, see wasmengine.Module.WithBrotli, and gzip is served until then), the loader compressed here.
func (s *Server) engineEncoded(m *wasmengine.Module) (wasm, execJS *encodedFile) {
	s.files.mu.Lock()
	defer s.files.mu.Unlock()
	if s.files.engFor != m {
		if s.files.engFor == nil || s.files.engFor.Hash != m.Hash || !bytes.Equal(s.files.engFor.Exec, m.Exec) {
			s.files.engExec = newEncodedFile("wasm_exec.js", "text/javascript; charset=utf-8", m.Exec, nil, nil, m.Hash+"-exec")
		}
		br := m.WASMBrotli
		if br == nil {
			br = []byte{} // not compressed yet: never compress it here, per request
		}
		s.files.engWASM = newEncodedFile("engine.wasm", "application/wasm", m.WASM, m.WASMGzip, br, m.Hash)
		s.files.engFor = m
	}
	return s.files.engWASM, s.files.engExec
}

// hostFiles are the browser's catalogues and the service worker as served, made once (the service worker once
// per engine build) rather than for each request: anyone may ask for them.
type hostFiles struct {
	mu    sync.Mutex
	cat   map[string]*encodedFile
	sw    []byte
	swFor string // the engine's address the service worker was made for
	// the engine's files in their encodings, for the module engFor
	engFor           *wasmengine.Module
	engWASM, engExec *encodedFile
}

// catalogJSON is one language's catalogue for the browser's engine, English filling what the language lacks, as
// the server's own lookups do; made and compressed (brotli, gzip) once.
func (s *Server) catalogJSON(lang string) *encodedFile {
	s.files.mu.Lock()
	defer s.files.mu.Unlock()
	if f, ok := s.files.cat[lang]; ok {
		return f
	}
	m := map[string]string{}
	for k, v := range s.Catalog["en"] {
		m[k] = v
	}
	for k, v := range s.Catalog[lang] {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	if s.files.cat == nil {
		s.files.cat = map[string]*encodedFile{}
	}
	s.files.cat[lang] = newEncodedFile(lang+".json", "application/json", b, nil, nil, "")
	return s.files.cat[lang]
}

func (s *Server) catalogFile(w http.ResponseWriter, r *http.Request) {
	lang := strings.TrimSuffix(r.PathValue("file"), ".json")
	if _, ok := s.Catalog[lang]; !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	s.catalogJSON(lang).serve(w, r) // its ETag per encoding, a 304 to the one the browser holds
}

// serviceWorker serves the service worker from the club's site's root (Base + "/sw.js", its scope the club's pages
// only), so that it may answer for the game pages when the server cannot be reached. Its text names the engine's build: a new build makes browsers install it again.
func (s *Server) serviceWorker(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(s.serviceWorkerJS())
}

// serviceWorkerJS is the service worker's text for the engine at hand.
func (s *Server) serviceWorkerJS() []byte {
	wasm, execJS := s.engineURLs()
	s.files.mu.Lock()
	defer s.files.mu.Unlock()
	if s.files.sw != nil && s.files.swFor == wasm {
		return s.files.sw
	}
	src, _ := staticFS.ReadFile("static/sw.js") // embedded: it is there
	assets := []string{"/static/app.css", "/static/app.js", "/static/host.js", "/static/engine-worker.js"}
	for _, lang := range Languages {
		assets = append(assets, "/static/i18n/"+lang+".json")
	}
	if wasm != "" {
		assets = append(assets, wasm, execJS)
	}
	list, _ := json.Marshal(assets)
	h := sha256.New()
	for _, name := range []string{"static/app.css", "static/app.js", "static/host.js", "static/engine-worker.js", "static/sw.js"} {
		b, _ := staticFS.ReadFile(name)
		h.Write(b)
	}
	h.Write(list)
	base, _ := json.Marshal(s.Base)
	body := fmt.Appendf(nil, "const ASSETS = %s;\nconst BUILD = %q;\nconst BASE = %s;\n", list, hex.EncodeToString(h.Sum(nil))[:16], base)
	s.files.sw, s.files.swFor = append(body, src...), wasm
	return s.files.sw
}

// gameState is the host page's input as JSON: what the browser's engine draws the page from when the game moved
// on (another device's action, or the answer to a conflict). Only those who may open the game get it.
func (s *Server) gameState(w http.ResponseWriter, r *http.Request) {
	st, ok := s.loadGame(w, r)
	if !ok {
		return
	}
	in := s.hostInput(r, s.page(r), st)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(in)
}

// wantsJSON: the host page's script sends its actions itself and reads the answer as JSON.
func wantsJSON(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "application/json")
}

// actAnswer is the answer to an action sent by the host page's script.
type actAnswer struct {
	Version int64  `json:"version"`
	Error   string `json:"error,omitempty"`
	Code    string `json:"code,omitempty"`
}

// answerJSON answers an action sent by the script: the game's version after it, or the reason it was refused
// (with the version the game is at, for a conflict).
func (s *Server) answerJSON(w http.ResponseWriter, r *http.Request, st *club.State, err error) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	var a actAnswer
	if st != nil {
		a.Version = st.Game.Version
	}
	code := http.StatusOK
	if err != nil {
		ce := club.ErrorCode(err)
		code = status(ce)
		a.Code = string(ce)
		lang := s.page(r).Lang
		a.Error = s.errorText(lang, err) + s.sanctionHint(lang, st, err)
		if ce == club.NoSpace {
			s.diskFull(r, err)
		} else if code >= 500 {
			s.Log.Error("host action", "path", r.URL.Path, "err", err)
		}
	}
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(a)
}
