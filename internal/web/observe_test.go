package web_test

import (
	"compress/gzip"
	"context"
	"fmt"
	"log/slog"
	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequestLog: one JSON line per request with its id (also in X-Request-Id), route, status and the account's
// id; never the password or the session token.
func TestRequestLog(t *testing.T) {
	h := newHarness(t)
	var buf lockedBuffer
	h.site.Log = slog.New(slog.NewJSONHandler(&buf, nil))
	c := h.client()
	r := h.post(c, "/login", url.Values{"login": {"host"}, "password": {"demo-host"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", r.StatusCode)
	}
	g := h.get(c, "/games")
	id := g.Header.Get("X-Request-Id")
	if len(id) != 16 {
		t.Fatalf("X-Request-Id %q", id)
	}
	log := buf.String()
	var line string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, id) {
			line = l
		}
	}
	for _, want := range []string{`"msg":"request"`, `"route":"/games"`, `"status":200`, `"method":"GET"`, `"user":2`} {
		if !strings.Contains(line, want) {
			t.Errorf("the log line of GET /games lacks %s: %s", want, line)
		}
	}
	u, _ := url.Parse(h.srv.URL)
	for _, ck := range c.Jar.Cookies(u) {
		if strings.Contains(log, ck.Value) {
			t.Errorf("the log holds the %s cookie's value", ck.Name)
		}
	}
	if strings.Contains(log, "demo-host") {
		t.Error("the log holds a password")
	}
}

// TestMetrics: /metrics speaks Prometheus' format with our metrics; it is for this machine or the token only.
func TestMetrics(t *testing.T) {
	h := newHarness(t)
	h.get(h.client(), "/rating")
	h.post(h.client(), "/login", url.Values{"login": {"nobody"}, "password": {"wrong-password"}})
	r := h.get(h.client(), "/metrics")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("/metrics from this machine: %d", r.StatusCode)
	}
	for _, want := range []string{`mafiaclub_http_requests_total{code="200",method="GET",route="/rating"} 1`,
		`mafiaclub_http_requests_total{code="401",method="POST",route="/login"} 1`,
		"mafiaclub_http_request_duration_seconds_bucket", "mafiaclub_live_games 0", "mafiaclub_sse_clients 0",
		"mafiaclub_internal_errors_total 0", "go_goroutines"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/metrics", nil)
	req.Header.Set("X-Forwarded-For", "203.0.113.9")
	if r := h.do(h.client(), req); r.StatusCode != http.StatusForbidden {
		t.Errorf("/metrics through a proxy: %d, want 403", r.StatusCode)
	}
	h.site.MetricsToken = "s3cret-token"
	req.Header.Set("Authorization", "Bearer s3cret-token")
	if r := h.do(h.client(), req); r.StatusCode != http.StatusOK {
		t.Errorf("/metrics with the token: %d", r.StatusCode)
	}
	req.Header.Set("Authorization", "Bearer wrong")
	if r := h.do(h.client(), req); r.StatusCode != http.StatusForbidden {
		t.Errorf("/metrics with a wrong token: %d", r.StatusCode)
	}
}

// TestBackupsPage: an admin takes a backup from the site and sees it as the last one; nobody else may.
func TestBackupsPage(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	svc := h.site.Services()
	svc.Backups = club.NewBackups(h.store, svc.Clock, dir)
	host := h.login("host", "demo-host")
	if r := h.post(host, "/admin/backups", nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("a host takes a backup: %d", r.StatusCode)
	}
	admin := h.login("admin", "demo-admin")
	if page := h.get(admin, "/admin/backups").Body; !strings.Contains(page, `id="backup-start"`) {
		t.Fatalf("the page offers no backup")
	}
	r := h.post(admin, "/admin/backups", nil)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("backup: %d %s", r.StatusCode, errorOf(r.Body))
	}
	files, _ := filepath.Glob(filepath.Join(dir, "mafiaclub-*.db"))
	if len(files) != 1 {
		t.Fatalf("backups in the folder: %v", files)
	}
	page := h.get(admin, r.Header.Get("Location")).Body
	if !strings.Contains(page, `id="backup-made"`) || !strings.Contains(page, filepath.Base(files[0])) {
		t.Errorf("the page does not show the backup just taken")
	}
	copyDB, err := sqlstore.Open(context.Background(), files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer copyDB.Close()
	if _, err := copyDB.UserByLogin(context.Background(), "admin"); err != nil {
		t.Errorf("the backup lacks the club: %v", err)
	}
}

// TestRetriedActionRecordedOnce: the same form sent twice (its first answer lost) is recorded once, and both
// answers say it is recorded; a new form's action on the old version is still someone else's change.
func TestRetriedActionRecordedOnce(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	form := url.Values{"version": {"0"}, "key": {"retry-key-0001"}, "type": {"foul"}, "seat": {"3"}}
	for i := 0; i < 2; i++ {
		if r := h.post(host, fmt.Sprintf("/games/%d/act", id), form); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("send %d: %d %s", i+1, r.StatusCode, errorOf(r.Body))
		}
	}
	if g := h.replay(id); g.Result().Seats[2].Fouls != 1 {
		t.Errorf("seat 3 has %d fouls, want 1", g.Result().Seats[2].Fouls)
	}
	form.Set("key", "another-key-0002")
	if r := h.post(host, fmt.Sprintf("/games/%d/act", id), form); r.StatusCode != http.StatusConflict {
		t.Errorf("a new action on the old version: %d, want 409", r.StatusCode)
	}
	form.Set("key", "bad key!")
	form.Set("version", "1")
	if r := h.post(host, fmt.Sprintf("/games/%d/act", id), form); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a malformed key: %d, want 400", r.StatusCode)
	}
	if page := h.get(host, fmt.Sprintf("/games/%d", id)).Body; !strings.Contains(page, `name="key" value="`) {
		t.Error("the host page's forms carry no key")
	}
}

// TestReusedKeyRefused: the same idempotency key sent with another action (issue 23, item 7) is refused as such,
// 422 with the reason, by the script and by the plain form; nothing is recorded, and the first action stands. A
// true retry with that key is still answered as done.
func TestReusedKeyRefused(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	act := fmt.Sprintf("/games/%d/act", id)
	first := url.Values{"version": {"0"}, "key": {"reused-key-0001"}, "type": {"foul"}, "seat": {"3"}}
	if r := h.jsonPost(host, act, first); r.StatusCode != http.StatusOK {
		t.Fatalf("first: %d %s", r.StatusCode, r.Body)
	}
	for _, version := range []string{"0", "1"} { // as the retry it pretends to be, and on the game as it is now
		other := url.Values{"version": {version}, "key": {"reused-key-0001"}, "type": {"foul"}, "seat": {"4"}}
		r := h.jsonPost(host, act, other)
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "ключ цієї дії вже використано для іншої дії") {
			t.Errorf("another action under the key, version %s, by the script: %d %s, want 422 naming the conflict", version, r.StatusCode, r.Body)
		}
		if r := h.post(host, act, other); r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(errorOf(r.Body), "ключ цієї дії вже використано") {
			t.Errorf("another action under the key, version %s, by the form: %d %q, want 422", version, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.jsonPost(host, act, first); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `"version":1`) {
		t.Errorf("the true retry: %d %s, want 200 at version 1", r.StatusCode, r.Body)
	}
	res := h.replay(id).Result()
	if res.Seats[2].Fouls != 1 || res.Seats[3].Fouls != 0 || h.version(id) != 1 {
		t.Errorf("fouls %d and %d at version %d, want 1 and 0 at 1", res.Seats[2].Fouls, res.Seats[3].Fouls, h.version(id))
	}
}

// TestCompressedAnswers: pages, scripts and JSON are gzipped for a browser that accepts it; a live stream is not
// (each event must reach the client when it is written), and a client that does not accept gzip gets plain text.
func TestCompressedAnswers(t *testing.T) {
	h := newHarness(t)
	get := func(path, enc string) *http.Response {
		req, _ := http.NewRequest("GET", h.srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", enc)
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	for _, path := range []string{"/", "/static/app.css", "/static/host.js", "/rating"} {
		if res := get(path, "gzip"); res.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: Content-Encoding %q, want gzip", path, res.Header.Get("Content-Encoding"))
		} else if _, err := gzip.NewReader(res.Body); err != nil {
			t.Errorf("%s: not gzip: %v", path, err)
		}
		if res := get(path, ""); res.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s without gzip accepted: Content-Encoding %q", path, res.Header.Get("Content-Encoding"))
		}
	}
	if res := get("/live/events", "gzip"); res.Header.Get("Content-Encoding") != "" || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Errorf("the live stream: %q %q", res.Header.Get("Content-Encoding"), res.Header.Get("Content-Type"))
	}
}
