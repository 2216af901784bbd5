package web_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/internal/wasmengine"
	"mafiaclub/mafia/record"
)

// The host page as a table app, as its script sees the server (no browser): the game's input as JSON, actions
// answered in JSON, the engine's files, the service worker and the catalogues.

// getWith sends a GET with the headers given (name, value, ...).
func (h *harness) getWith(c *http.Client, path string, headers ...string) response {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return h.do(c, req)
}

// actJSON posts a form to a game's action (or undo) address as the host page's script does, and decodes the answer.
func (h *harness) actJSON(c *http.Client, path string, form url.Values) (response, jsonAnswer) {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	r := h.do(c, req)
	var a jsonAnswer
	if err := json.Unmarshal([]byte(r.Body), &a); err != nil {
		h.t.Errorf("POST %s %v: the answer (%d) is not JSON: %v\n%.300s", path, form, r.StatusCode, err, r.Body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		h.t.Errorf("POST %s %v: Content-Type %q, want application/json", path, form, ct)
	}
	return r, a
}

type jsonAnswer struct {
	Version *int64 `json:"version"`
	Error   string `json:"error"`
	Code    string `json:"code"`
}

func (a jsonAnswer) version() int64 {
	if a.Version == nil {
		return -1
	}
	return *a.Version
}

// events is the number of events the game has recorded, as its saved record says.
func (h *harness) events(id int64) int {
	h.t.Helper()
	log, err := h.store.Events(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return len(log)
}

// TestGameStateJSON: the host page's input is given to those who may open the game, and to nobody else; it is the
// game as the server has it (its version, its record replaying to the same game).
func TestGameStateJSON(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	member := h.user("member1", club.RoleMember)
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	path := fmt.Sprintf("/games/%d/state.json", id)

	if r := h.get(h.client(), path); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
		t.Errorf("anonymous: %d to %q, want the login page", r.StatusCode, r.Header.Get("Location"))
	}
	if r := h.get(member, path); r.StatusCode != http.StatusForbidden || strings.Contains(r.Body, `"record"`) {
		t.Errorf("a member: %d, want 403 without the game", r.StatusCode)
	}
	if r := h.get(host, "/games/999999/state.json"); r.StatusCode != http.StatusNotFound {
		t.Errorf("a game that does not exist: %d, want 404", r.StatusCode)
	}

	h.mustAct(host, id, "type", "day")
	h.mustAct(host, id, "type", "speech", "seat", "1")
	h.mustAct(host, id, "type", "nominate", "by", "1", "target", "3")
	h.mustAct(host, id, "type", "foul", "seat", "4")
	r := h.get(host, path)
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("the host: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
	if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
		t.Errorf("Cache-Control %q: a stale game kept by the browser would be drawn again", cc)
	}
	var in hostview.Input
	if err := json.Unmarshal([]byte(r.Body), &in); err != nil {
		t.Fatalf("not the host page's input: %v\n%s", err, r.Body)
	}
	if in.Game != id || in.Version != h.version(id) || in.Version != 4 || !in.Live {
		t.Errorf("game %d version %d live %v; want %d, 4, live", in.Game, in.Version, in.Live, id)
	}
	if len(in.Times) != 4 || in.Times[0] == "" {
		t.Errorf("times %q, want the clock time of each of the 4 events", in.Times)
	}
	rec, err := record.Decode(in.Record)
	if err != nil {
		t.Fatalf("the record: %v", err)
	}
	if len(rec.Events) != 4 || rec.Events[3].Type.String() != "foul" || rec.Events[3].Seat != 4 {
		t.Errorf("the record's events %+v, want day, speech, nomination, #4's foul", rec.Events)
	}
	play, err := rec.Replay()
	if err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	if got, want := play.Result(), h.replay(id).Result(); !reflect.DeepEqual(got, want) {
		t.Errorf("the state's record replays to %+v, the game's to %+v", got, want)
	}
	// the engine reads it as it is
	if st, err := hostview.Read(in); err != nil || len(st.Record.Events) != 4 || st.Play.Fouls(4) != 1 {
		t.Errorf("hostview.Read: %v", err)
	}
}

// TestGameStateJSONTournament: a live tournament game's input is its table's judge's and the chief judge's only.
func TestGameStateJSONTournament(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	svc := h.site.Services()
	adminUser, _ := h.store.UserByLogin(ctx, "admin")
	admin := h.login("admin", "demo-admin") // the chief judge
	host := h.login("host", "demo-host")    // a host, not this table's judge
	judge := h.user("judge1", club.RoleHost)
	judgeUser, _ := h.store.UserByLogin(ctx, "judge1")

	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-02", Rules: club.ClubRules, ChiefJudge: adminUser.ID}
	if err := svc.Tournaments.Create(ctx, adminUser, tour); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Tournaments.AddParticipants(ctx, adminUser, tour.ID, "Joker\nBohdana\nCyborg\nDana\nEmil\nFantom\nHalyna\nIris\nJarvis\nKaiser"); err != nil {
		t.Fatal(err)
	}
	stage, _, err := svc.Tournaments.AddStage(ctx, adminUser, tour.ID, club.StageForm{Name: "Q", Rounds: 1, PerTable: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Tournaments.SetJudge(ctx, adminUser, tour.ID, stage.ID, 1, judgeUser.ID); err != nil {
		t.Fatal(err)
	}
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	g, err := svc.Tournaments.StartGame(ctx, adminUser, tour.ID, stage.ID, 1, 1, roles)
	if err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/games/%d/state.json", g.ID)
	if r := h.get(host, path); r.StatusCode != http.StatusForbidden || strings.Contains(r.Body, `"record"`) {
		t.Errorf("a host who is not the table's judge: %d, want 403 without the game", r.StatusCode)
	}
	for name, c := range map[string]*http.Client{"the table's judge": judge, "the chief judge": admin} {
		r := h.get(c, path)
		var in hostview.Input
		if r.StatusCode != http.StatusOK || json.Unmarshal([]byte(r.Body), &in) != nil || in.Game != g.ID {
			t.Errorf("%s: %d %.200s", name, r.StatusCode, r.Body)
		}
		if chief := c == admin; in.IsChief != chief {
			t.Errorf("%s: chief %v, want %v", name, in.IsChief, chief)
		}
	}
}

// TestActionsAnsweredInJSON: the host page's script sends its actions with a key and reads the answer as JSON:
// the version after the action, a retry recorded once, a stale version a conflict, a refused move and a bad form
// with their statuses and the reason in the host's language.
func TestActionsAnsweredInJSON(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	act := fmt.Sprintf("/games/%d/act", id)

	foul := url.Values{"version": {"0"}, "key": {"json-key-0001"}, "type": {"foul"}, "seat": {"3"}}
	if r, a := h.actJSON(host, act, foul); r.StatusCode != http.StatusOK || a.version() != 1 || a.Error != "" || a.Code != "" {
		t.Fatalf("a foul: %d %s, want 200 {\"version\": 1}", r.StatusCode, r.Body)
	}
	// the answer was lost: the script sends the same request again, on the version it knew
	if r, a := h.actJSON(host, act, foul); r.StatusCode != http.StatusOK || a.version() != 1 {
		t.Errorf("the retry: %d %s, want 200 at version 1", r.StatusCode, r.Body)
	}
	if n := h.events(id); n != 1 || h.version(id) != 1 {
		t.Errorf("after a retry the game has %d events at version %d, want 1 at 1", n, h.version(id))
	}
	if f := h.replay(id).Fouls(3); f != 1 {
		t.Errorf("#3 has %d fouls, want 1", f)
	}
	// another action on the version the game has left: a conflict, with the version the game is at
	stale := url.Values{"version": {"0"}, "key": {"json-key-0002"}, "type": {"foul"}, "seat": {"4"}}
	if r, a := h.actJSON(host, act, stale); r.StatusCode != http.StatusConflict || a.Code != "conflict" || a.version() != 1 || a.Error == "" {
		t.Errorf("a stale version: %d %s, want 409 code conflict at version 1", r.StatusCode, r.Body)
	}
	// night 1 is the acquaintance: no shots (the rules refuse, in the host's language)
	shot := url.Values{"version": {"1"}, "key": {"json-key-0003"}, "type": {"shot"}, "by": {"3"}, "target": {"1"}}
	if r, a := h.actJSON(host, act, shot); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(a.Error, "У першу ніч (знайомство) не стріляють") {
		t.Errorf("a shot on night 1: %d %s, want 422 with the reason in Ukrainian", r.StatusCode, r.Body)
	}
	day := url.Values{"version": {"1"}, "key": {"json-key-0004"}, "type": {"day"}}
	if r, a := h.actJSON(host, act, day); r.StatusCode != http.StatusOK || a.version() != 2 {
		t.Fatalf("day: %d %s", r.StatusCode, r.Body)
	}
	vote := url.Values{"version": {"2"}, "key": {"json-key-0005"}, "type": {"vote"}, "target": {"3"}, "voters": {"1"}}
	if r, a := h.actJSON(host, act, vote); r.StatusCode != http.StatusUnprocessableEntity || a.Error == "" || a.Code == "conflict" {
		t.Errorf("a vote before any nomination: %d %s, want 422 with a reason", r.StatusCode, r.Body)
	}
	for _, bad := range []url.Values{
		{"type": {"foul"}, "seat": {"11"}},
		{"type": {"foul"}, "seat": {"0"}},
		{"type": {"nominate"}, "by": {"1"}, "target": {"x"}},
		{"type": {"no-such-action"}},
	} {
		bad.Set("version", "2")
		bad.Set("key", "json-key-0006")
		if r, a := h.actJSON(host, act, bad); r.StatusCode != http.StatusBadRequest || a.Error == "" {
			t.Errorf("%v: %d %s, want 400 with a reason", bad, r.StatusCode, r.Body)
		}
	}
	if n := h.events(id); n != 2 || h.version(id) != 2 {
		t.Errorf("refused actions changed the game: %d events at version %d", n, h.version(id))
	}
	// undo through JSON: the new version, the last event gone
	undo := fmt.Sprintf("/games/%d/undo", id)
	if r, a := h.actJSON(host, undo, url.Values{"version": {"2"}, "confirm": {"yes"}, "key": {"json-key-0007"}}); r.StatusCode != http.StatusOK || a.version() != h.version(id) || a.version() <= 2 {
		t.Errorf("undo: %d %s, want 200 with the game's new version (%d)", r.StatusCode, r.Body, h.version(id))
	}
	if n := h.events(id); n != 1 {
		t.Errorf("after the undo the game has %d events, want 1", n)
	}
	if r, a := h.actJSON(host, undo, url.Values{"version": {"2"}, "confirm": {"yes"}}); r.StatusCode != http.StatusConflict || a.Code != "conflict" {
		t.Errorf("an undo on a stale version: %d %s, want 409", r.StatusCode, r.Body)
	}
	if n := h.events(id); n != 1 {
		t.Errorf("a stale undo removed an event: %d left", n)
	}
}

// tinyEngine is a module of the smallest valid WebAssembly header and a loader.
func tinyEngine(t *testing.T) *wasmengine.Module {
	t.Helper()
	m, err := wasmengine.New([]byte("\x00asm\x01\x00\x00\x00"), []byte("// the loader\n"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEngineFiles: the engine and its loader are served under their build's hash, kept for good by browsers,
// compressed for those that accept it; the host page names them once the engine is ready, and not before.
func TestEngineFiles(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	m := tinyEngine(t)
	wasmPath := "/static/engine/" + m.Hash + "/engine.wasm"
	execPath := "/static/engine/" + m.Hash + "/wasm_exec.js"

	if r := h.getWith(host, wasmPath, "Accept-Encoding", "identity"); r.StatusCode != http.StatusNotFound {
		t.Errorf("the engine before it is set: %d, want 404", r.StatusCode)
	}
	page := h.get(host, fmt.Sprintf("/games/%d", id)).Body
	if !strings.Contains(page, `data-engine=""`) || !strings.Contains(page, `data-exec=""`) {
		t.Error(`before the engine is ready the host page does not say so (data-engine="")`)
	}

	h.site.SetEngine(m)
	page = h.get(host, fmt.Sprintf("/games/%d", id)).Body
	if !strings.Contains(page, `data-engine="`+wasmPath+`"`) || !strings.Contains(page, `data-exec="`+execPath+`"`) {
		t.Errorf("the host page does not name the engine %s", wasmPath)
	}

	r := h.getWith(h.client(), wasmPath, "Accept-Encoding", "gzip")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "application/wasm" || r.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("the engine, gzip accepted: %d %q %q", r.StatusCode, r.Header.Get("Content-Type"), r.Header.Get("Content-Encoding"))
	}
	if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") || !strings.Contains(cc, "max-age=31536000") {
		t.Errorf("the engine's Cache-Control %q, want it kept for good", cc)
	}
	zr, err := gzip.NewReader(strings.NewReader(r.Body))
	if err != nil {
		t.Fatalf("the engine is not gzip: %v", err)
	}
	if b, err := io.ReadAll(zr); err != nil || !bytes.Equal(b, m.WASM) {
		t.Errorf("the engine gunzips to %q (%v), want the module's bytes", b, err)
	}
	r = h.getWith(h.client(), wasmPath, "Accept-Encoding", "identity")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Encoding") != "" || r.Body != string(m.WASM) {
		t.Errorf("the engine without gzip: %d %q %q", r.StatusCode, r.Header.Get("Content-Encoding"), r.Body)
	}
	r = h.getWith(h.client(), execPath, "Accept-Encoding", "identity")
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") || r.Body != string(m.Exec) ||
		!strings.Contains(r.Header.Get("Cache-Control"), "immutable") {
		t.Errorf("the loader: %d %q %q", r.StatusCode, r.Header.Get("Content-Type"), r.Body)
	}
	for _, path := range []string{"/static/engine/0123456789abcdef/engine.wasm", "/static/engine/" + m.Hash + "/other.js"} {
		if r := h.getWith(h.client(), path, "Accept-Encoding", "identity"); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, r.StatusCode)
		}
	}
}

// assets reads the list of files the service worker keeps, and its build's name.
func assets(t *testing.T, body string) ([]string, string) {
	t.Helper()
	first, rest, _ := strings.Cut(body, "\n")
	list := strings.TrimSuffix(strings.TrimPrefix(first, "const ASSETS = "), ";")
	var out []string
	if err := json.Unmarshal([]byte(list), &out); err != nil {
		t.Fatalf("ASSETS %q: %v", first, err)
	}
	build, _, _ := strings.Cut(rest, "\n")
	if !strings.HasPrefix(build, "const BUILD = ") {
		t.Fatalf("no BUILD after ASSETS: %q", build)
	}
	return out, build
}

// TestServiceWorkerAndCatalogues: the service worker lists the files a host page needs offline (the engine once
// it is ready, and then under another build), and a language's catalogue is served with a validator.
func TestServiceWorkerAndCatalogues(t *testing.T) {
	h := newHarness(t)
	anon := h.client()
	r := h.get(anon, "/sw.js")
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/javascript") || !strings.HasPrefix(r.Body, "const ASSETS = [") {
		t.Fatalf("/sw.js: %d %q %.60q", r.StatusCode, r.Header.Get("Content-Type"), r.Body)
	}
	before, build := assets(t, r.Body)
	for _, want := range []string{"/static/host.js", "/static/engine-worker.js", "/static/app.js", "/static/i18n/uk.json"} {
		if !slices.Contains(before, want) {
			t.Errorf("the service worker does not keep %s: %q", want, before)
		}
	}
	for _, a := range before {
		if strings.HasPrefix(a, "/static/engine/") {
			t.Errorf("the service worker keeps %s before the engine is set", a)
		}
	}
	m := tinyEngine(t)
	h.site.SetEngine(m)
	after, build2 := assets(t, h.get(anon, "/sw.js").Body)
	for _, want := range []string{"/static/host.js", "/static/engine-worker.js", "/static/engine/" + m.Hash + "/engine.wasm", "/static/engine/" + m.Hash + "/wasm_exec.js"} {
		if !slices.Contains(after, want) {
			t.Errorf("with the engine set the service worker does not keep %s: %q", want, after)
		}
	}
	if build2 == build {
		t.Errorf("the engine changed but the worker's %s did not: browsers would keep the old files", build)
	}
	// every file the worker keeps is there (a missing one fails the worker's installation)
	for _, a := range after {
		if r := h.getWith(anon, a, "Accept-Encoding", "identity"); r.StatusCode != http.StatusOK {
			t.Errorf("the service worker keeps %s, which answers %d", a, r.StatusCode)
		}
	}

	r = h.get(anon, "/static/i18n/uk.json")
	var cat map[string]string
	if r.StatusCode != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") || json.Unmarshal([]byte(r.Body), &cat) != nil {
		t.Fatalf("uk.json: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
	if !strings.Contains(cat["host.pending.n"], "Ще не збережено") {
		t.Errorf("uk.json host.pending.n = %q", cat["host.pending.n"])
	}
	if r := h.get(anon, "/static/i18n/en.json"); !strings.Contains(r.Body, "Not yet saved") {
		t.Error("en.json lacks host.pending.n in English")
	}
	// the browser revalidates with the tag it got, plain or compressed
	for _, enc := range []string{"identity", "gzip"} {
		r := h.getWith(anon, "/static/i18n/uk.json", "Accept-Encoding", enc)
		etag := r.Header.Get("ETag")
		if r.StatusCode != http.StatusOK || etag == "" {
			t.Errorf("uk.json (%s): %d, ETag %q", enc, r.StatusCode, etag)
			continue
		}
		if r := h.getWith(anon, "/static/i18n/uk.json", "Accept-Encoding", enc, "If-None-Match", etag); r.StatusCode != http.StatusNotModified || r.Body != "" {
			t.Errorf("uk.json (%s) revalidated with %s: %d, want 304", enc, etag, r.StatusCode)
		}
	}
	if r := h.get(anon, "/static/i18n/xx.json"); r.StatusCode != http.StatusNotFound {
		t.Errorf("xx.json: %d, want 404", r.StatusCode)
	}
}

// TestContentSecurityPolicyAllowsTheEngine: every answer lets the page compile the engine ('wasm-unsafe-eval')
// and still runs no inline script.
func TestContentSecurityPolicyAllowsTheEngine(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	h.site.SetEngine(tinyEngine(t))
	for _, path := range []string{"/", "/login", "/rating", "/games", fmt.Sprintf("/games/%d", id), fmt.Sprintf("/games/%d/state.json", id),
		"/sw.js", "/static/host.js", "/static/i18n/uk.json", "/no-such-page"} {
		r := h.get(host, path)
		csp := r.Header.Get("Content-Security-Policy")
		var script []string
		for _, d := range strings.Split(csp, ";") {
			if f := strings.Fields(d); len(f) > 0 && f[0] == "script-src" {
				script = f[1:]
			}
		}
		if !slices.Contains(script, "'wasm-unsafe-eval'") || slices.Contains(script, "'unsafe-inline'") || slices.Contains(script, "'unsafe-eval'") {
			t.Errorf("%s (%d): script-src %q, want 'wasm-unsafe-eval' and no 'unsafe-inline'", path, r.StatusCode, script)
		}
	}
}

// TestActionWithoutVersionAnsweredInJSON: the script reads every refusal as JSON, also a form without a version.
func TestActionWithoutVersionAnsweredInJSON(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	req, _ := http.NewRequest("POST", fmt.Sprintf("%s/games/%d/act", h.srv.URL, id), strings.NewReader("type=day&key=k-0000000001"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := host.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var a struct{ Error, Code string }
	if err := json.NewDecoder(res.Body).Decode(&a); err != nil || res.StatusCode != http.StatusBadRequest || a.Code != "invalid" || a.Error == "" {
		t.Fatalf("%d %+v %v", res.StatusCode, a, err)
	}
}
