package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/web"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

type harness struct {
	t     *testing.T
	srv   *httptest.Server
	site  *web.Server
	store *sqlstore.DB
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessOn(t, filepath.Join(t.TempDir(), "club.db"))
}

// newHarnessOn is newHarness on the database dsn names: an SQLite file, or a postgres:// URL
// (storetest.FreshPostgres).
func newHarnessOn(t *testing.T, dsn string) *harness {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := club.SeedDemo(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	return newHarnessWith(t, db, db)
}

// newHarnessWith is a harness on the seeded database db whose services use store: db itself, or a test's wrapper
// around it.
func newHarnessWith(t *testing.T, db *sqlstore.DB, store club.Store) *harness {
	t.Helper()
	zone, _ := time.LoadLocation("America/Edmonton")
	site, err := web.New(club.NewServices(store, club.NewClock(zone, nil)))
	if err != nil {
		t.Fatal(err)
	}
	site.Cookies = web.CookieSecureNever                      // Go's cookie jar sends Secure cookies only over HTTPS
	site.Log = slog.New(slog.NewTextHandler(testLog{t}, nil)) // shown with a failing test's output
	srv := httptest.NewServer(site.Handler())
	t.Cleanup(srv.Close)
	return &harness{t: t, srv: srv, site: site, store: db}
}

// mustCatalog loads the site's catalogues, or fails the test.
func mustCatalog(t *testing.T) web.Catalog {
	t.Helper()
	cat, err := web.LoadCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// testLog writes the site's log into the test's.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// user adds an account with a role and returns a logged-in client for it.
func (h *harness) user(login string, role club.Role) *http.Client {
	h.t.Helper()
	hash, _ := club.HashPassword("password-" + login)
	if err := h.store.CreateUser(context.Background(), &club.User{Login: login, Name: login, Role: role, PasswordHash: hash}); err != nil {
		h.t.Fatal(err)
	}
	return h.login(login, "password-"+login)
}

func (h *harness) client() *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func (h *harness) login(login, pass string) *http.Client {
	h.t.Helper()
	c := h.client()
	resp := h.post(c, "/login", url.Values{"login": {login}, "password": {pass}})
	if resp.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("login %s: %d %s", login, resp.StatusCode, resp.Body)
	}
	return c
}

type response struct {
	StatusCode int
	Header     http.Header
	Body       string
}

func (h *harness) do(c *http.Client, req *http.Request) response {
	h.t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, string(b)}
}

func (h *harness) post(c *http.Client, path string, form url.Values) response {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return h.do(c, req)
}

func (h *harness) get(c *http.Client, path string) response {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	return h.do(c, req)
}

var tenRoles = []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}

// newGame creates a club game with the roles dealt by hand; it returns the game's id.
func (h *harness) newGame(c *http.Client, rules string, roles []string, extra url.Values) int64 {
	h.t.Helper()
	f := url.Values{"form": {"1"}, "rules": {rules}, "n": {strconv.Itoa(len(roles))}, "deal": {"hand"}, "rated": {"on"}}
	for i, r := range roles {
		f.Set(fmt.Sprintf("name%d", i+1), fmt.Sprintf("Guest %d", i+1))
		f.Set(fmt.Sprintf("role%d", i+1), r)
	}
	for k, v := range extra {
		f[k] = v
	}
	resp := h.post(c, "/games", f)
	if resp.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("new game: %d\n%s", resp.StatusCode, errorOf(resp.Body))
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(resp.Header.Get("Location"), "/games/"), 10, 64)
	return id
}

func (h *harness) version(id int64) int64 {
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return g.Version
}

// act posts one action at the game's current version.
func (h *harness) act(c *http.Client, id int64, fields ...string) response {
	h.t.Helper()
	f := url.Values{"version": {strconv.FormatInt(h.version(id), 10)}}
	for i := 0; i+1 < len(fields); i += 2 {
		f.Add(fields[i], fields[i+1])
	}
	return h.post(c, fmt.Sprintf("/games/%d/act", id), f)
}

func (h *harness) mustAct(c *http.Client, id int64, fields ...string) {
	h.t.Helper()
	if r := h.act(c, id, fields...); r.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("%v: %d %s", fields, r.StatusCode, errorOf(r.Body))
	}
}

var errRE = regexp.MustCompile(`(?s)role="alert"[^>]*>(.*?)</p>`)

func errorOf(body string) string {
	if m := errRE.FindStringSubmatch(body); m != nil {
		return m[1]
	}
	if len(body) > 300 {
		return body[:300]
	}
	return body
}

func (h *harness) replay(id int64) *mafia.Game {
	h.t.Helper()
	c := h.user(fmt.Sprintf("reader%d", time.Now().UnixNano()), club.RoleHost)
	r := h.get(c, fmt.Sprintf("/games/%d/record.json", id))
	rec, err := record.Decode([]byte(r.Body))
	if err != nil {
		h.t.Fatalf("record: %v\n%s", err, r.Body)
	}
	g, err := rec.Replay()
	if err != nil {
		h.t.Fatalf("replay: %v", err)
	}
	return g
}

func TestLoginAndSessionCookie(t *testing.T) {
	h := newHarness(t)
	h.site.Cookies = web.CookieSecureAuto
	c := h.client()
	if r := h.post(c, "/login", url.Values{"login": {"host"}, "password": {"wrong-password"}}); r.StatusCode != http.StatusUnauthorized || !strings.Contains(r.Body, "Неправильний логін або пароль") {
		t.Errorf("wrong password: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(c, "/login", url.Values{"login": {"nobody"}, "password": {"whatever-pass"}}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("unknown login: %d", r.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/login", strings.NewReader("login=host&password=demo-host&next=//evil.example/"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		t.Errorf("login: %d to %q, want 303 to / (never off-site)", resp.StatusCode, resp.Header.Get("Location"))
	}
	var sc *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == "mafiaclub_session" {
			sc = ck
		}
	}
	if sc == nil || !sc.HttpOnly || !sc.Secure || sc.SameSite != http.SameSiteLaxMode || len(sc.Value) < 40 {
		t.Fatalf("session cookie: %+v; want HttpOnly, Secure on loopback, SameSite=Lax, a long random value", sc)
	}
	// the cookie works, and logging out ends the session on the server
	get := func() int {
		req, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/games", nil)
		req.AddCookie(&http.Cookie{Name: sc.Name, Value: sc.Value})
		r := h.do(h.client(), req)
		return r.StatusCode
	}
	if got := get(); got != http.StatusOK {
		t.Errorf("with the session: %d", got)
	}
	req, _ = http.NewRequest(http.MethodPost, h.srv.URL+"/logout", nil)
	req.AddCookie(&http.Cookie{Name: sc.Name, Value: sc.Value})
	h.do(h.client(), req)
	if got := get(); got != http.StatusSeeOther {
		t.Errorf("after logout: %d, want a redirect to the login page", got)
	}
}

func TestPermissions(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	admin := h.login("admin", "demo-admin")
	member := h.user("member1", club.RoleMember)
	anon := h.client()
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)

	if r := h.get(anon, "/games"); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
		t.Errorf("anonymous /games: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	if r := h.get(anon, fmt.Sprintf("/games/%d/record.json", id)); r.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous record: %d", r.StatusCode)
	}
	if r := h.act(anon, id, "type", "day"); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("anonymous act: %d", r.StatusCode)
	}
	for _, path := range []string{"/games", "/games/new", fmt.Sprintf("/games/%d", id)} {
		r := h.get(member, path)
		if r.StatusCode != http.StatusForbidden {
			t.Errorf("member GET %s: %d, want 403", path, r.StatusCode)
		}
		if msg := errorOf(r.Body); !strings.Contains(msg, "потрібна роль ведучий") {
			t.Errorf("member GET %s: the refusal says %q, want the role named in Ukrainian", path, msg)
		}
	}
	if r := h.act(member, id, "type", "day"); r.StatusCode != http.StatusForbidden {
		t.Errorf("member act: %d", r.StatusCode)
	}
	if r := h.post(member, "/games", url.Values{"rules": {"fiim-2025-club"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("member creates a game: %d", r.StatusCode)
	}
	if h.version(id) != 0 {
		t.Fatal("a refused action changed the game")
	}
	// play to a quick end (three disqualified blacks), save; a host may not reopen, an admin may
	before := h.version(id)
	if r := h.act(host, id, "type", "disqualify", "seat", "3", "reason", strings.Repeat("ї", 501)); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "не довше 500 символів") || h.version(id) != before {
		t.Errorf("a 501-character reason: %d %q", r.StatusCode, errorOf(r.Body))
	}
	h.mustAct(host, id, "type", "disqualify", "seat", "3", "reason", strings.Repeat("ї", 500))
	// #3 has left without a last word: the discipline lists no longer offer him (the engine would refuse)
	dq := regexp.MustCompile(`(?s)name="type" value="disqualify">.*?</select>`).FindString(h.get(host, fmt.Sprintf("/games/%d", id)).Body)
	if strings.Contains(dq, `<option value="3"`) || !strings.Contains(dq, `<option value="4"`) {
		t.Errorf("the disqualification list after #3 left: %s", dq)
	}
	for _, s := range []string{"7", "9"} {
		h.mustAct(host, id, "type", "disqualify", "seat", s, "reason", "test")
	}
	v := strconv.FormatInt(h.version(id), 10)
	for _, bad := range []string{"", "x", "-1"} {
		if r := h.post(host, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {bad}, "rated": {"yes"}}); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "онов") {
			t.Errorf("a save with version %q: %d %q, want 400 asking to reload", bad, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(host, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {v}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	v = strconv.FormatInt(h.version(id), 10)
	if r := h.post(host, fmt.Sprintf("/games/%d/reopen", id), url.Values{"version": {v}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("host reopens: %d, want 403", r.StatusCode)
	}
	if r := h.post(admin, fmt.Sprintf("/games/%d/reopen", id), url.Values{"version": {v}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("admin reopens: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if g, _ := h.store.Game(context.Background(), id); g.Status != club.GameLive {
		t.Errorf("after reopen: %s", g.Status)
	}
}

func TestCrossSiteRequestRefused(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	for _, hdr := range []map[string]string{
		{"Sec-Fetch-Site": "cross-site"},
		{"Origin": "https://evil.example"},
	} {
		f := url.Values{"version": {"0"}, "type": {"day"}}
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/games/%d/act", h.srv.URL, id), strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		req.Header.Set("Accept-Language", "uk")
		r := h.do(host, req)
		if r.StatusCode != http.StatusForbidden {
			t.Errorf("forged request with %v: %d, want 403", hdr, r.StatusCode)
		}
		if msg := errorOf(r.Body); !strings.Contains(msg, "іншого сайту") {
			t.Errorf("forged request with %v: the refusal says %q, want it explained in Ukrainian", hdr, msg)
		}
	}
	if h.version(id) != 0 {
		t.Error("a forged request changed the game")
	}
	// the same request from the site itself goes through
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/games/%d/act", h.srv.URL, id), strings.NewReader("version=0&type=day"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if r := h.do(host, req); r.StatusCode != http.StatusSeeOther {
		t.Errorf("same-origin request: %d %s", r.StatusCode, errorOf(r.Body))
	}
}

// TestPlayThroughForms plays a whole club game through the action form, with refusals on the way, and checks the
// saved record replays to what the page showed.
func TestPlayThroughForms(t *testing.T) {
	h := newHarness(t)
	c := h.login("host", "demo-host")
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	wantRefused := func(code int, text string, fields ...string) {
		t.Helper()
		before := h.version(id)
		r := h.act(c, id, fields...)
		if r.StatusCode != code || !strings.Contains(errorOf(r.Body), text) {
			t.Errorf("%v: %d %q, want %d containing %q", fields, r.StatusCode, errorOf(r.Body), code, text)
		}
		if h.version(id) != before {
			t.Errorf("%v was refused but changed the game", fields)
		}
	}
	if page := h.get(c, fmt.Sprintf("/games/%d", id)).Body; !strings.Contains(page, "Прокидається дон (#7): покажіть йому великий палець до безіменного") ||
		!strings.Contains(page, "Прокидається шериф (#5): покажіть йому «окей»") {
		t.Errorf("night 1 does not name the wake-up gestures (000 L63, L69)")
	}
	wantRefused(422, "У першу ніч (знайомство) не стріляють", "type", "shot", "by", "3", "target", "1")
	h.mustAct(c, id, "type", "day")
	wantRefused(422, "Зараз черга іншого гравця", "type", "speech", "seat", "2")
	h.mustAct(c, id, "type", "speech", "seat", "1")
	wantRefused(422, "Гравець висуває лише під час своєї промови", "type", "nominate", "by", "2", "target", "3")
	h.mustAct(c, id, "type", "nominate", "by", "1", "target", "3")
	h.mustAct(c, id, "type", "foul", "seat", "4")
	for s := 2; s <= 10; s++ {
		h.mustAct(c, id, "type", "speech", "seat", strconv.Itoa(s))
		if s == 5 {
			h.mustAct(c, id, "type", "nominate", "by", "5", "target", "7")
		}
	}
	wantRefused(422, "у порядку висування", "type", "vote", "target", "7", "voters", "1")
	wantRefused(400, "Перевірте форму", "type", "vote", "target", "3", "voters", "11")
	// a tie: 5 against #3, the other 5 go to #7; then the re-vote removes #3
	if page := h.get(c, fmt.Sprintf("/games/%d", id)).Body; restHintShown(page) {
		t.Error("voting on #3, the first of two candidates, the page gives him the hands not raised")
	}
	h.mustAct(c, id, "type", "vote", "target", "3", "voters", "1", "voters", "2", "voters", "4", "voters", "5", "voters", "6")
	if page := h.get(c, fmt.Sprintf("/games/%d", id)).Body; !restHintShown(page) {
		t.Error("voting on #7, the last candidate, the page does not say the rest of the hands go to him (R26)")
	}
	// #1 raises his hand again: refused, and the host is told the club's sanction for it (R28: disqualifying)
	wantRefused(422, "голос проти кількох кандидатур — дискваліфікація", "type", "vote", "target", "7", "voters", "1", "voters", "8")
	h.mustAct(c, id, "type", "vote", "target", "7")
	page := h.get(c, fmt.Sprintf("/games/%d", id)).Body
	if !strings.Contains(page, "Промова в перестрілці #3") || !strings.Contains(page, "Промова в перестрілці #7") {
		t.Errorf("the page does not show the tie speeches:\n%s", page)
	}
	h.mustAct(c, id, "type", "vote", "target", "3", "voters", "1", "voters", "2", "voters", "4", "voters", "5", "voters", "6", "voters", "8")
	h.mustAct(c, id, "type", "vote", "target", "7")
	h.mustAct(c, id, "type", "night")
	// the night: "all at #5" records both blacks' shots at once
	wantRefused(422, "Стріляють лише чорні", "type", "shot", "by", "1", "target", "5")
	h.mustAct(c, id, "type", "shoot_all", "target", "5")
	h.mustAct(c, id, "type", "check", "by", "7", "target", "5")
	page = h.get(c, fmt.Sprintf("/games/%d", id)).Body
	if !strings.Contains(page, "Перевірка дона: шериф — покажіть «окей»") {
		t.Errorf("the don's answer gesture is not shown")
	}
	h.mustAct(c, id, "type", "check", "by", "5", "target", "9")
	h.mustAct(c, id, "type", "day")
	if page := h.get(c, fmt.Sprintf("/games/%d", id)).Body; !strings.Contains(page, "Ніч 2: убито #5") {
		t.Errorf("the morning does not say who was killed")
	}
	wantRefused(422, "Найкращий хід", "type", "best_move", "by", "5") // naming nobody: the engine refuses it (R56)
	h.mustAct(c, id, "type", "best_move", "by", "5", "targets", "7", "targets", "9", "targets", "1")
	// undo needs a confirmation, then removes the last event
	v := strconv.FormatInt(h.version(id), 10)
	if r := h.post(c, fmt.Sprintf("/games/%d/undo", id), url.Values{"version": {v}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("undo without confirmation: %d", r.StatusCode)
	}
	if r := h.post(c, fmt.Sprintf("/games/%d/undo", id), url.Values{"version": {v}, "confirm": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("undo: %d %s", r.StatusCode, errorOf(r.Body))
	}
	h.mustAct(c, id, "type", "best_move", "by", "5", "targets", "7", "targets", "9", "targets", "3")
	// a stale version is refused with the fresh state
	r := h.post(c, fmt.Sprintf("/games/%d/act", id), url.Values{"version": {v}, "type": {"speech"}, "seat": {"2"}})
	if r.StatusCode != http.StatusConflict || !strings.Contains(errorOf(r.Body), "Хтось інший змінив цю гру") {
		t.Errorf("stale version: %d %q", r.StatusCode, errorOf(r.Body))
	}
	wantRefused(422, "кроками 0,1, 0,3 або 0,5", "type", "adjust", "seat", "2", "points", "0.2")
	h.mustAct(c, id, "type", "adjust", "seat", "2", "points", "0.3", "reason", "good game")
	wantRefused(400, "Перевірте форму", "type", "disqualify", "seat", "4")
	// day 2: the don is disqualified, then #9 leaves by the vote: red wins
	for _, s := range []string{"2", "4", "6", "7", "8", "9", "10", "1"} {
		h.mustAct(c, id, "type", "speech", "seat", s)
		if s == "2" {
			h.mustAct(c, id, "type", "nominate", "by", "2", "target", "9")
		}
	}
	h.mustAct(c, id, "type", "disqualify", "seat", "7", "reason", "insult")
	wantRefused(422, "скасовано через дискваліфікацію", "type", "vote", "target", "9")
	h.mustAct(c, id, "type", "night")
	h.mustAct(c, id, "type", "shoot_all", "target", "1")
	h.mustAct(c, id, "type", "day")
	for _, s := range []string{"4", "6", "8", "9", "10", "2"} { // R16: day 3 opens after day 2's opener
		h.mustAct(c, id, "type", "speech", "seat", s)
		if s == "2" {
			h.mustAct(c, id, "type", "nominate", "by", "2", "target", "9")
		}
	}
	h.mustAct(c, id, "type", "vote", "target", "9")
	page = h.get(c, fmt.Sprintf("/games/%d", id)).Body
	if !strings.Contains(page, "Результат: перемога червоних") {
		t.Fatalf("no result shown:\n%s", errorOf(page))
	}
	wantRefused(422, "Гру закінчено", "type", "night")
	v = strconv.FormatInt(h.version(id), 10)
	if r := h.post(c, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {v}, "rated": {"no"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	wantRefused(422, "Гру збережено", "type", "adjust", "seat", "2", "points", "0.1")
	g, _ := h.store.Game(context.Background(), id)
	if g.Status != club.GameSaved || g.Rated || g.Winner != "red" {
		t.Errorf("saved game: %+v", g)
	}
	// the page shows the engine's points for the saved record
	game := h.replay(id)
	page = h.get(c, fmt.Sprintf("/games/%d", id)).Body
	for s := 1; s <= 10; s++ {
		want := fmt.Sprintf(`<tr data-seat="%d">`, s)
		i := strings.Index(page, want)
		if i < 0 {
			t.Fatalf("no points row for seat %d", s)
		}
		total := fmt.Sprintf(`<td class="total">%s</td>`, strings.Replace(formatHundredths(game.Points(s)), ".", ",", 1)) // a Ukrainian page
		if !strings.Contains(page[i:i+400], total) {
			t.Errorf("seat %d: the page does not show %s", s, total)
		}
	}
	// win, +0.3 by hand, two votes against #3 (tie and re-vote), #9 nominated on days 2 and 3, the vote against #9
	if game.Points(2) != 130+30+5+5+5+5+5 {
		t.Errorf("seat 2: %d hundredths", game.Points(2))
	}
	if strings.Contains(page, "%!") {
		t.Errorf("a message has a formatting error: %s", page[strings.Index(page, "%!")-80:strings.Index(page, "%!")+40])
	}
	if !strings.Contains(page, "#1 висунув #3") || !strings.Contains(page, "скасовано: Найкращий хід #5: #1 #7 #9") || !strings.Contains(page, "збережено як звичайну") {
		t.Errorf("the chronology or the undo log is missing")
	}
	// the default rule's hands are shown with the last candidate, and the phases stay right after them
	for _, want := range []string{"День 1, ", "Проти #7: 5 (#3 #7 #8 #9 #10)", "Проти #7: 4 (#3 #7 #9 #10)", "Ніч 2, ", "#7 стріляє в #5", "День 3, "} {
		if !strings.Contains(page, want) {
			t.Errorf("the chronology lacks %q", want)
		}
	}
}

func formatHundredths(h int) string {
	sign := ""
	if h < 0 {
		sign, h = "-", -h
	}
	return fmt.Sprintf("%s%d.%02d", sign, h/100, h%100)
}

func TestNewGameRefusals(t *testing.T) {
	h := newHarness(t)
	c := h.login("host", "demo-host")
	cases := []struct {
		name  string
		roles []string
		extra url.Values
		want  string
	}{
		{"wrong role table", []string{"citizen", "citizen", "mafia", "citizen", "citizen", "citizen", "don", "citizen", "mafia", "citizen"}, nil, "ФІІМ 2025, клубні правила для 10 гравців роздає рівно: 6 × мирний, 1 × шериф, 2 × мафія, 1 × дон"},
		{"empty seat", tenRoles, url.Values{"name4": {""}}, "на місці 4 немає гравця"},
		{"seated twice", tenRoles, url.Values{"name4": {"Guest 3"}}, "Guest 3 посаджено двічі"},
	}
	for _, tc := range cases {
		f := url.Values{"form": {"1"}, "rules": {"fiim-2025-club"}, "n": {"10"}, "deal": {"hand"}}
		for i, r := range tc.roles {
			f.Set(fmt.Sprintf("name%d", i+1), fmt.Sprintf("Guest %d", i+1))
			f.Set(fmt.Sprintf("role%d", i+1), r)
		}
		for k, v := range tc.extra {
			f[k] = v
		}
		r := h.post(c, "/games", f)
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), tc.want) {
			t.Errorf("%s: %d %q, want 400 with %q", tc.name, r.StatusCode, errorOf(r.Body), tc.want)
		}
		// the form comes back filled in: nothing the host typed is lost
		if !strings.Contains(r.Body, `value="Guest 1"`) {
			t.Errorf("%s: the form lost what was typed", tc.name)
		}
	}
	if games, _ := h.store.Games(context.Background(), club.GameFilter{}); len(games) != 0 {
		t.Errorf("%d games were created by refused forms", len(games))
	}
}

func TestRandomDealAndSeating(t *testing.T) {
	h := newHarness(t)
	c := h.login("host", "demo-host")
	f := url.Values{"form": {"1"}, "rules": {"fiim-2025-club"}, "n": {"8"}, "deal": {"random"}, "shuffle": {"on"}}
	nicks := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Somebody New"}
	for i, n := range nicks {
		f.Set(fmt.Sprintf("name%d", i+1), n)
	}
	r := h.post(c, "/games", f)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("%d %s", r.StatusCode, errorOf(r.Body))
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(r.Header.Get("Location"), "/games/"), 10, 64)
	g, _ := h.store.Game(context.Background(), id)
	count := map[string]int{}
	guests := 0
	for _, s := range g.Seats {
		count[s.Role]++
		if s.PlayerID == 0 {
			guests++
			if s.Name != "Somebody New" {
				t.Errorf("the guest is %q", s.Name)
			}
		}
	}
	// C-02: 8 players are 5 citizens, a sheriff, a mafia and the don
	if count["citizen"] != 5 || count["sheriff"] != 1 || count["mafia"] != 1 || count["don"] != 1 || guests != 1 {
		t.Errorf("dealt %v with %d guests", count, guests)
	}
}

func TestCatalogComplete(t *testing.T) {
	cat := mustCatalog(t)
	for _, lang := range web.Languages {
		for _, k := range cat.Keys(lang) {
			if !cat.Has(k) {
				t.Errorf("%q is in %s but not in every language", k, lang)
			}
		}
	}
	var need []string
	for _, e := range mafia.RuleErrors() {
		need = append(need, "rule."+e.Code)
	}
	for _, t := range mafia.EventTypes() {
		need = append(need, "ev."+t.String())
	}
	for _, it := range mafia.Items() {
		need = append(need, "item."+it.String())
	}
	for s := mafia.StepAcquaintance; s <= mafia.StepGameOver; s++ {
		need = append(need, "step."+s.String())
	}
	for _, r := range []mafia.Role{mafia.Citizen, mafia.Sheriff, mafia.Mafia, mafia.Don, mafia.Commissar, mafia.Doctor} {
		need = append(need, "role."+r.String())
	}
	for _, rs := range mafia.RuleSets() {
		for _, k := range rs.OptionKeys() {
			need = append(need, "opt."+k)
		}
	}
	for _, a := range []mafia.Answer{mafia.AnswerRed, mafia.AnswerBlack, mafia.AnswerSheriff, mafia.AnswerNotSheriff} {
		need = append(need, "answer."+a.String(), "gesture."+a.Gesture().String())
	}
	for h := mafia.OutVoted; h <= mafia.OutTeamLoss; h++ {
		need = append(need, "out."+h.String())
	}
	for _, code := range []club.Code{club.NotFound, club.Conflict, club.Unauthorized, club.Forbidden, club.Closed, club.Rejected, club.TooMany, club.Busy, club.NoSpace} {
		need = append(need, "error."+string(code))
	}
	for _, k := range need {
		if !cat.Has(k) {
			t.Errorf("no translation for %s", k)
		}
	}
}

// TestPagesHaveNoMissingKeys renders every page in both languages and looks for untranslated keys ("[key]").
func TestPagesHaveNoMissingKeys(t *testing.T) {
	h := newHarness(t)
	c := h.login("admin", "demo-admin")
	id := h.newGame(c, "fiim-xcraft", tenRoles, nil)
	home := h.newGame(c, "home-doctor", []string{"mafia", "commissar", "doctor", "citizen", "citizen", "mafia", "citizen"},
		url.Values{"opt_night_order": {"mafia, doctor, commissar"}, "opt_tie_model": {"stay"}})
	missing := regexp.MustCompile(`\[[a-z_]+\.[a-z_.]+\]`)
	for _, lang := range web.Languages {
		h.post(c, "/lang", url.Values{"lang": {lang}})
		anon := h.client()
		for _, path := range []string{"/", "/login"} {
			req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
			req.AddCookie(&http.Cookie{Name: "lang", Value: lang})
			if r := h.do(anon, req); r.StatusCode != http.StatusOK || missing.MatchString(r.Body) {
				t.Errorf("%s %s: %d %s", lang, path, r.StatusCode, missing.FindString(r.Body))
			}
		}
		for _, path := range []string{"/games", "/games/new", "/games/new?rules=home-doctor&n=7",
			fmt.Sprintf("/games/%d", id), fmt.Sprintf("/games/%d", home)} {
			r := h.get(c, path)
			if r.StatusCode != http.StatusOK {
				t.Errorf("%s %s: %d", lang, path, r.StatusCode)
			}
			if m := missing.FindString(r.Body); m != "" {
				t.Errorf("%s %s: untranslated %s", lang, path, m)
			}
			if strings.Contains(r.Body, "%!") {
				t.Errorf("%s %s: a message with a formatting error", lang, path)
			}
		}
	}
}

// TestDomainMessagesTranslated: every message the domain and the site give with club.Errorf(Invalid, ...) has its
// translation in every catalogue (key "msg:" + the format).
func TestDomainMessagesTranslated(t *testing.T) {
	cat := mustCatalog(t)
	re := regexp.MustCompile(`Errorf\((?:club\.)?(?:Invalid|Forbidden), "((?:[^"\\]|\\.)*)"`)
	files, _ := filepath.Glob("../*/*.go")
	more, _ := filepath.Glob("*.go")
	n := 0
	for _, f := range append(files, more...) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(data), -1) {
			format, _ := strconv.Unquote(`"` + m[1] + `"`)
			n++
			if !cat.Has("msg:"+format) && !cat.Has("msg:"+format+".n") {
				t.Errorf("%s: %q has no translation (add \"msg:%s\" to every catalogue)", f, format, format)
			}
		}
	}
	if n < 30 {
		t.Errorf("found only %d messages: the scan is broken", n)
	}
}

// TestRemainingActions covers the actions TestPlayThroughForms does not: the lift vote, a warning, a declared draw
// (club rules), the doctor's heal (home-doctor), each accepted and refused through the form.
func TestRemainingActions(t *testing.T) {
	h := newHarness(t)
	c := h.login("host", "demo-host")
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	h.mustAct(c, id, "type", "day")
	for s := 1; s <= 10; s++ {
		h.mustAct(c, id, "type", "speech", "seat", strconv.Itoa(s))
		if s == 1 {
			h.mustAct(c, id, "type", "nominate", "by", "1", "target", "3")
		}
		if s == 2 {
			h.mustAct(c, id, "type", "nominate", "by", "2", "target", "7")
		}
	}
	if r := h.act(c, id, "type", "lift", "voters", "1"); r.StatusCode != 422 || !strings.Contains(errorOf(r.Body), "немає голосування за підйом") {
		t.Errorf("a lift vote before any tie: %d %q", r.StatusCode, errorOf(r.Body))
	}
	// 5:5 twice between the same two: the lift vote; 6 of 10 say yes: both leave
	for i := 0; i < 2; i++ {
		h.mustAct(c, id, "type", "vote", "target", "3", "voters", "1", "voters", "2", "voters", "4", "voters", "5", "voters", "6")
		h.mustAct(c, id, "type", "vote", "target", "7")
	}
	if r := h.act(c, id, "type", "vote", "target", "3", "voters", "1"); r.StatusCode != 422 || !strings.Contains(errorOf(r.Body), "Спершу голосування за підйом") {
		t.Errorf("a vote while the lift is due: %d %q", r.StatusCode, errorOf(r.Body))
	}
	h.mustAct(c, id, "type", "lift", "voters", "1", "voters", "2", "voters", "4", "voters", "5", "voters", "6", "voters", "8")
	g := h.replay(id)
	if g.Alive().Has(3) || g.Alive().Has(7) {
		t.Errorf("the lift passed but #3 or #7 is still at the table")
	}
	// a warning only counts in club rules; the draw is declared by hand, with a confirmation on the page
	h.mustAct(c, id, "type", "warning", "seat", "4")
	// #3 was lifted out and is giving his last word: a warning to him still counts (spec §3)
	h.mustAct(c, id, "type", "warning", "seat", "3")
	if page := h.get(c, fmt.Sprintf("/games/%d", id)).Body; !strings.Contains(page, `data-confirm="Завершити гру нічиєю?"`) {
		t.Error("the draw asks for no confirmation")
	}
	h.mustAct(c, id, "type", "draw")
	if g := h.replay(id); g.Winner() != mafia.Draw || g.Warnings(4) != 1 || g.Warnings(3) != 1 {
		t.Errorf("after the draw: winner %v, warnings #4 %d, #3 %d", g.Winner(), g.Warnings(4), g.Warnings(3))
	}

	// home-doctor: the doctor's protection saves the shot player
	opts := url.Values{"opt_night_order": {"mafia, doctor, commissar"}, "opt_tie_model": {"lift"}, "opt_default_vote_to_last_shown": {"1"},
		"opt_reveal_on_elimination_shown": {"1"}, "opt_last_word_shown": {"1"}, "opt_last_word": {"on"}, "opt_doctor_self_heal_shown": {"1"},
		"opt_doctor_repeat_target_shown": {"1"}}
	hid := h.newGame(c, "home-doctor", []string{"mafia", "commissar", "doctor", "citizen", "citizen", "mafia", "citizen"}, opts)
	h.mustAct(c, hid, "type", "day")
	for s := 1; s <= 7; s++ {
		h.mustAct(c, hid, "type", "speech", "seat", strconv.Itoa(s))
	}
	h.mustAct(c, hid, "type", "night")
	h.mustAct(c, hid, "type", "shoot_all", "target", "4")
	if r := h.act(c, hid, "type", "heal", "by", "3", "target", "3"); r.StatusCode != 422 || !strings.Contains(errorOf(r.Body), "лікар не може лікувати себе") {
		t.Errorf("a self-heal where the option forbids it: %d %q", r.StatusCode, errorOf(r.Body))
	}
	h.mustAct(c, hid, "type", "heal", "by", "3", "target", "4")
	h.mustAct(c, hid, "type", "check", "by", "2", "target", "1")
	h.mustAct(c, hid, "type", "day")
	if g := h.replay(hid); !g.Alive().Has(4) {
		t.Error("the healed player was killed")
	}
	// day 2, #1 the only candidate: without the default vote (its option off) the page does not promise him the
	// hands not raised
	for nominated := false; ; {
		next := h.replay(hid).Next()
		var step mafia.PlanStep // the first step that waits for the host (the current one may be under way)
		for _, ps := range next.Plan() {
			if ps.Event != mafia.NoEvent {
				step = ps
				break
			}
		}
		if step.Event != mafia.EvSpeech {
			break
		}
		h.mustAct(c, hid, "type", "speech", "seat", strconv.Itoa(step.Seat))
		if !nominated {
			h.mustAct(c, hid, "type", "nominate", "by", strconv.Itoa(step.Seat), "target", "1")
			nominated = true
		}
	}
	page := h.get(c, fmt.Sprintf("/games/%d", hid)).Body
	if !strings.Contains(page, `data-candidate="1"`) || restHintShown(page) {
		t.Errorf("home-doctor without the default vote: the vote form for #1 is missing or promises the rest of the hands")
	}
}

// restHintShown reports whether the host page shows the vote's line that the hands not raised go to the last
// candidate: it is always drawn, to keep its room (the tiles never move), and hidden but for the last candidate.
func restHintShown(page string) bool {
	return strings.Contains(page, `<p class="rest-hint">Усі, хто не голосував`)
}

func TestSafeRedirects(t *testing.T) {
	h := newHarness(t)
	for _, next := range []string{"//evil.example/", "/\t/evil.example", "/\\evil.example", "https://evil.example/", "/%0a/x", "javascript:alert(1)", "/\n/evil"} {
		c := h.client()
		r := h.post(c, "/login", url.Values{"login": {"host"}, "password": {"demo-host"}, "next": {next}})
		loc := r.Header.Get("Location")
		if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/") || strings.HasPrefix(loc, "//") || strings.ContainsAny(loc, "\t\n\\") {
			t.Errorf("next %q: redirected to %q", next, loc)
		}
	}
	c := h.client()
	if r := h.post(c, "/login", url.Values{"login": {"host"}, "password": {"demo-host"}, "next": {"/history?rules=fsm-2026"}}); r.Header.Get("Location") != "/history?rules=fsm-2026" {
		t.Errorf("a page of the site: %q", r.Header.Get("Location"))
	}
}

func TestLoginThrottleAndPasswordChange(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	c := h.user("olha", club.RoleMember)
	other := h.login("olha", "password-olha") // a second session of the same account
	for i := 0; i < 5; i++ {
		if r := h.post(h.client(), "/login", url.Values{"login": {"olha"}, "password": {"guess"}}); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("attempt %d: %d", i+1, r.StatusCode)
		}
	}
	// the sixth attempt is refused even with the right password, until ten minutes have passed
	if r := h.post(h.client(), "/login", url.Values{"login": {"OLHA"}, "password": {"password-olha"}}); r.StatusCode != http.StatusTooManyRequests || !strings.Contains(errorOf(r.Body), "зачекайте десять хвилин") {
		t.Errorf("after five failures: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(h.client(), "/login", url.Values{"login": {"host"}, "password": {"demo-host"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("another login from the same address: %d", r.StatusCode)
	}
	clk.t = clk.t.Add(10 * time.Minute)
	if r := h.post(h.client(), "/login", url.Values{"login": {"olha"}, "password": {"password-olha"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("ten minutes later: %d", r.StatusCode)
	}
	// the password changes only with the current one; the other sessions end, this one stays
	if r := h.post(c, "/me/password", url.Values{"current": {"wrong-one"}, "new": {"brand-new-pass"}, "new2": {"brand-new-pass"}}); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "Поточний пароль неправильний") {
		t.Errorf("a wrong current password: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(c, "/me/password", url.Values{"current": {"password-olha"}, "new": {"brand-new-pass"}, "new2": {"brand-new-pass"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("change: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := h.get(c, "/me"); r.StatusCode != http.StatusOK {
		t.Errorf("this session ended: %d", r.StatusCode)
	}
	if r := h.get(other, "/me"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the other session goes on: %d", r.StatusCode)
	}
	h.login("olha", "brand-new-pass")
}

// TestLoginLandsOnTheRolesPage: a login lands on the front door, which shows each role its own part (the host his
// hosting, the member his registrations), not another role's.
func TestLoginLandsOnTheRolesPage(t *testing.T) {
	h := newHarness(t)
	for login, want := range map[string]string{"host": `id="home-host"`, "member9": `id="home-mine"`} {
		var c *http.Client
		if login == "host" {
			c = h.login("host", "demo-host")
		} else {
			c = h.user(login, club.RoleMember)
		}
		r := h.get(c, "/")
		if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, want) {
			t.Errorf("%s: the front door is %d without %s", login, r.StatusCode, want)
		}
		if login != "host" && strings.Contains(r.Body, `id="home-host"`) {
			t.Errorf("%s: the front door offers hosting", login)
		}
	}
}

// TestNewGameOffersTheRuleSetsRoles: the hand-dealt role lists and the random deal's doctor box offer what the
// rule set has (the engine's Rules.Roles), so the host cannot pick a doctor or a don for home-ua.
func TestNewGameOffersTheRuleSetsRoles(t *testing.T) {
	h := newHarness(t)
	c := h.login("host", "demo-host")
	roleList := regexp.MustCompile(`(?s)<select name="role1".*?</select>`)
	for _, c2 := range []struct {
		rules        string
		want, absent []string
		doctorBox    bool
	}{
		{"home-ua", []string{"citizen", "commissar", "mafia"}, []string{"doctor", "don", "sheriff"}, false},
		{"home-doctor", []string{"commissar", "doctor", "don"}, []string{"sheriff"}, true},
		{"fiim-2025-club", []string{"sheriff", "don"}, []string{"commissar", "doctor"}, false},
	} {
		page := h.get(c, "/games/new?rules="+c2.rules+"&n=7").Body
		list := roleList.FindString(page)
		for _, r := range c2.want {
			if !strings.Contains(list, `value="`+r+`"`) {
				t.Errorf("%s: the role list lacks %s", c2.rules, r)
			}
		}
		for _, r := range c2.absent {
			if strings.Contains(list, `value="`+r+`"`) {
				t.Errorf("%s: the role list offers %s", c2.rules, r)
			}
		}
		if strings.Contains(page, `name="doctor"`) != c2.doctorBox {
			t.Errorf("%s: the doctor box shown %v, want %v", c2.rules, !c2.doctorBox, c2.doctorBox)
		}
	}
}

// TestCatalogPlurals: every plural key ("....n") gives each language exactly the forms its CLDR rules take, and
// the forms chosen are the ones a reader expects.
func TestCatalogPlurals(t *testing.T) {
	cat := mustCatalog(t)
	for _, lang := range web.Languages {
		want := append(web.PluralForms(lang), "other")
		slices.Sort(want)
		want = slices.Compact(want)
		for _, k := range cat.Keys(lang) {
			if !strings.HasSuffix(k, ".n") {
				continue
			}
			forms := web.PluralValue(cat[lang][k])
			var got []string
			for f, format := range forms {
				got = append(got, f)
				if !strings.Contains(fmt.Sprintf(format, 7), "7") {
					t.Errorf("%s %s: the %s form does not show the count", lang, k, f)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: forms %v, want %v (CLDR)", lang, k, got, want)
			}
		}
	}
	for _, c := range []struct {
		lang string
		n    int
		want string
	}{
		{"ru", 1, "1 игра"}, {"ru", 3, "3 игры"}, {"ru", 5, "5 игр"}, {"ru", 11, "11 игр"}, {"ru", 21, "21 игра"}, {"ru", 104, "104 игры"},
		{"uk", 1, "1 гра"}, {"uk", 2, "2 гри"}, {"uk", 5, "5 ігор"}, {"uk", 12, "12 ігор"}, {"uk", 22, "22 гри"},
		{"en", 1, "1 game"}, {"en", 0, "0 games"}, {"en", 21, "21 games"},
	} {
		if got := cat.N(c.lang, "stats.games.n", c.n); got != c.want {
			t.Errorf("%s %d: %q, want %q", c.lang, c.n, got, c.want)
		}
	}
	// Russian is its own catalogue, not a copy of the Ukrainian one
	same := 0
	for _, k := range cat.Keys("ru") {
		if cat["ru"][k] == cat["uk"][k] {
			same++
		}
	}
	if same > len(cat.Keys("ru"))/5 {
		t.Errorf("%d of %d Russian strings are the Ukrainian ones", same, len(cat.Keys("ru")))
	}
}
