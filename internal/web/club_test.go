package web_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// clock lets a test move the site's time.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func TestSignUpApproveAndRegister(t *testing.T) {
	h := newHarness(t)
	edm, _ := time.LoadLocation("America/Edmonton")
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, edm)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")

	// a person signs up: pending, then logs in, and cannot register yet
	anon := h.client()
	r := h.post(anon, "/signup", url.Values{"login": {"olena"}, "nick": {"Olena"}, "real_name": {"Olena Petrenko"}, "password": {"secret-pass"}, "password2": {"secret-pass"}})
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/signup?done=1" {
		t.Fatalf("sign-up: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if page := h.get(anon, "/signup?done=1").Body; !strings.Contains(page, `id="signup-done"`) {
		t.Errorf("the sign-up does not say it was received")
	}
	olena := h.login("olena", "secret-pass")
	// a taken login gets the very answer a free one gets, and no account: sign-up tells nobody which logins exist
	taken := h.post(h.client(), "/signup", url.Values{"login": {"OLENA"}, "nick": {"X"}, "password": {"other-pass"}, "password2": {"other-pass"}})
	if taken.StatusCode != r.StatusCode || taken.Header.Get("Location") != r.Header.Get("Location") || taken.Body != r.Body {
		t.Errorf("a taken login is answered differently: %d %q", taken.StatusCode, taken.Header.Get("Location"))
	}
	if r := h.post(h.client(), "/login", url.Values{"login": {"OLENA"}, "password": {"other-pass"}}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("the taken login's sign-up made an account: %d", r.StatusCode)
	}
	if r := h.post(h.client(), "/signup", url.Values{"login": {"ivan"}, "nick": {"Ivan"}, "password": {"secret-pass"}, "password2": {"other-pass"}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("mismatched passwords: %d", r.StatusCode)
	}
	if page := h.get(olena, "/me").Body; !strings.Contains(page, "очікує підтвердження") {
		t.Errorf("my page does not say pending")
	}
	// the admin creates a club night on Saturday 2026-12-05 at 19:00 club time
	r = h.post(admin, "/nights", url.Values{"date": {"2026-12-05"}, "time": {"19:00"}, "place": {"Café Ruby"}, "tables": {"1"}, "per_table": {"7"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("create night: %d %s", r.StatusCode, errorOf(r.Body))
	}
	nightURL := r.Header.Get("Location")
	night, _ := strconv.ParseInt(strings.TrimPrefix(nightURL, "/nights/"), 10, 64)
	if r := h.post(admin, "/nights", url.Values{"date": {"2026-11-01"}, "time": {"19:00"}, "place": {"Past"}, "tables": {"1"}, "per_table": {"7"}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a night in the past: %d", r.StatusCode)
	}
	if r := h.post(olena, nightURL+"/register", nil); r.StatusCode != http.StatusForbidden || !strings.Contains(errorOf(r.Body), "щойно адміністратор підтвердить") {
		t.Errorf("a pending member registers: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if page := h.get(olena, nightURL).Body; strings.Contains(page, `class="primary register"`) || !strings.Contains(page, "щойно адміністратор підтвердить") {
		t.Errorf("a pending member is offered the register button")
	}
	u, _ := h.store.UserByLogin(context.Background(), "olena")
	if r := h.post(admin, fmt.Sprintf("/admin/members/%d", u.ID), url.Values{"field": {"status"}, "to": {"active"}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a change without a reason: %d", r.StatusCode)
	}
	if r := h.post(admin, fmt.Sprintf("/admin/members/%d", u.ID), url.Values{"field": {"status"}, "to": {"active"}, "reason": {"known player"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d %s", r.StatusCode, errorOf(r.Body))
	}
	// seven active members fill the main line-up; olena comes eighth: reserve
	var others []*http.Client
	for i := 0; i < 7; i++ {
		c := h.user(fmt.Sprintf("m%d", i), club.RoleMember)
		if r := h.post(c, nightURL+"/register", nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("register m%d: %d %s", i, r.StatusCode, errorOf(r.Body))
		}
		others = append(others, c)
	}
	if r := h.post(olena, nightURL+"/register", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("register: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if page := h.get(olena, nightURL).Body; !strings.Contains(page, "Ви в резерві") {
		t.Errorf("the night page does not say reserve")
	}
	// Friday 23:59 club time: m0 cancels for free and olena is promoted
	clk.t = time.Date(2026, 12, 4, 23, 59, 0, 0, edm)
	if r := h.post(others[0], nightURL+"/cancel", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d", r.StatusCode)
	}
	if page := h.get(olena, nightURL).Body; !strings.Contains(page, "Ви в основному складі") {
		t.Errorf("olena was not promoted from the reserve")
	}
	// Saturday 00:00: m1 cancels late; the page warned about it first
	clk.t = time.Date(2026, 12, 5, 0, 0, 0, 0, edm)
	if page := h.get(others[1], nightURL).Body; !strings.Contains(page, "Скасування зараз запізнє") {
		t.Errorf("no late-cancellation warning")
	}
	if r := h.post(others[1], nightURL+"/cancel", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("late cancel: %d", r.StatusCode)
	}
	if page := h.get(others[1], "/me").Body; !strings.Contains(page, "пізнє скасування") {
		t.Errorf("the late cancellation is not on the member's page")
	}
	// the admin marks a no-show once the night has begun, never before
	m2, _ := h.store.UserByLogin(context.Background(), "m2")
	if r := h.post(admin, nightURL+"/noshow", url.Values{"user": {strconv.FormatInt(m2.ID, 10)}, "no_show": {"yes"}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a no-show before the night: %d", r.StatusCode)
	}
	clk.t = time.Date(2026, 12, 5, 23, 0, 0, 0, edm)
	if r := h.post(others[2], nightURL+"/noshow", url.Values{"user": {strconv.FormatInt(m2.ID, 10)}, "no_show": {"yes"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a member marks a no-show: %d", r.StatusCode)
	}
	if r := h.post(admin, nightURL+"/noshow", url.Values{"user": {strconv.FormatInt(m2.ID, 10)}, "no_show": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("no-show: %d %s", r.StatusCode, errorOf(r.Body))
	}
	page := h.get(admin, "/admin/members").Body
	if !strings.Contains(page, `data-member="m2"`) {
		t.Fatal("m2 is not listed")
	}
	// strikes: m1 late, m2 no-show; statuses unchanged (C-18)
	for _, login := range []string{"m1", "m2"} {
		u, _ := h.store.UserByLogin(context.Background(), login)
		st, _ := h.store.Strikes(context.Background(), u.ID)
		if len(st) != 1 || u.Status != club.StatusActive {
			t.Errorf("%s: %d strikes, status %s", login, len(st), u.Status)
		}
	}
	// the host starts a game with the night's players as the pool
	host := h.login("host", "demo-host")
	form := h.get(host, fmt.Sprintf("/games/new?night=%d", night)).Body
	if !strings.Contains(form, `value="olena"`) && !strings.Contains(form, `value="Olena"`) {
		t.Errorf("the night's players are not offered for seating")
	}
	// low priority and exclusion through the admin page
	m3, _ := h.store.UserByLogin(context.Background(), "m3")
	h.post(admin, fmt.Sprintf("/admin/members/%d", m3.ID), url.Values{"field": {"status"}, "to": {"excluded"}, "reason": {"insults"}})
	if log := h.get(admin, fmt.Sprintf("/admin/members?log=%d", m3.ID)).Body; !strings.Contains(log, "статус: активний → виключений · insults") {
		t.Errorf("the change is not logged with its reason")
	}
}

func TestRatingAndHistoryPages(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	// two saved games: one rated with club players and a guest, one normal
	mk := func(rated bool) int64 {
		f := url.Values{"form": {"1"}, "rules": {"fiim-2025-club"}, "n": {"10"}, "deal": {"hand"}}
		if rated {
			f.Set("rated", "on")
		}
		nicks := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"}
		for i, role := range tenRoles {
			f.Set(fmt.Sprintf("name%d", i+1), nicks[i])
			f.Set(fmt.Sprintf("role%d", i+1), role)
		}
		r := h.post(host, "/games", f)
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.Header.Get("Location"), "/games/"), 10, 64)
		h.mustAct(host, id, "type", "team_loss", "seat", "3", "reason", "oath")
		v := strconv.FormatInt(h.version(id), 10)
		rv := "no"
		if rated {
			rv = "yes"
		}
		if r := h.post(host, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {v}, "rated": {rv}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("save: %d", r.StatusCode)
		}
		return id
	}
	rated, normal := mk(true), mk(false)
	live := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	anon := h.client()
	page := h.get(anon, "/rating").Body
	if !strings.Contains(page, `<td><a href="/players/1?rules=fiim-2025-club">Joker</a></td><td class="total">1,30</td><td class="elo">1010</td><td>1</td><td>1</td><td>100%</td>`) { // a decimal comma in Ukrainian
		t.Errorf("Joker's line: one rated game, a win, 1.30, Elo 1000 + 20·(1 − ½)\n%s", page)
	}
	if strings.Contains(page, "Visitor") {
		t.Error("a guest is in the rating")
	}
	if !strings.Contains(page, "більше перемог") {
		t.Error("the order for equal totals is not written on the page")
	}
	if p := h.get(anon, "/rating?from=2001-01-01&to=2001-12-31").Body; strings.Contains(p, "Joker") {
		t.Error("the season filter does not filter")
	}
	if r := h.get(anon, "/rating?from=yesterday"); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a bad date: %d", r.StatusCode)
	}
	// CSV and JSON carry the same figures
	cr := csv.NewReader(strings.NewReader(h.get(anon, "/rating.csv").Body))
	rows, err := cr.ReadAll()
	if err != nil || len(rows) != 10 || rows[0][1] != "nickname" {
		t.Fatalf("csv: %v %v", err, rows)
	}
	var js []map[string]any
	if err := json.Unmarshal([]byte(h.get(anon, "/api/standings").Body), &js); err != nil || len(js) != 9 {
		t.Fatalf("json standings: %v %d", err, len(js))
	}
	// the player page: games with points (rated and normal), role statistics and the chart
	pp := h.get(anon, "/players/1").Body
	if !strings.Contains(pp, fmt.Sprintf(`href="/history/%d"`, rated)) || !strings.Contains(pp, fmt.Sprintf(`href="/history/%d"`, normal)) || !strings.Contains(pp, `<svg class="chart"`) {
		t.Errorf("the player page lacks games or the chart")
	}
	// history lists saved games only; the public game page and protocol show the result, roles and points
	hp := h.get(anon, "/history").Body
	if !strings.Contains(hp, fmt.Sprintf("#%d", rated)) || strings.Contains(hp, fmt.Sprintf(`href="/history/%d"`, live)) {
		t.Errorf("history: saved games only")
	}
	if r := h.get(anon, fmt.Sprintf("/history/%d", live)); r.StatusCode != http.StatusNotFound {
		t.Errorf("a live game is public: %d", r.StatusCode)
	}
	// a mistyped address is a page that does not exist, said in the visitor's language
	for _, path := range []string{"/players/abc", "/players/0", "/history/-1", "/nights/x", "/tournaments/1e3", "/players/99999"} {
		r := h.get(anon, path)
		if r.StatusCode != http.StatusNotFound || !strings.Contains(errorOf(r.Body), "Такої сторінки чи гри немає") {
			t.Errorf("GET %s: %d %q, want 404 with the catalogue's words", path, r.StatusCode, errorOf(r.Body))
		}
	}
	gp := h.get(anon, fmt.Sprintf("/history/%d", rated)).Body
	if !strings.Contains(gp, "перемога червоних") || !strings.Contains(gp, "поразка команди") {
		t.Errorf("the game page lacks the result or the chronology")
	}
	proto := h.get(anon, fmt.Sprintf("/history/%d?view=protocol", rated)).Body
	for _, want := range []string{`<td class="letter" title="мафія">Маф</td>`, `<td class="letter" title="шериф">Ш</td>`, `<td class="letter" title="дон">Д</td>`, `<td class="letter" title="мирний">Мир</td>`, "Підпис судді", "-0,80"} {
		if !strings.Contains(proto, want) {
			t.Errorf("the protocol lacks %s", want)
		}
	}
	// the record downloads and replays; the JSON interface gives record and result
	var api struct {
		Record json.RawMessage
		Result struct{ Winner string }
	}
	if err := json.Unmarshal([]byte(h.get(anon, fmt.Sprintf("/api/games/%d", rated)).Body), &api); err != nil || api.Result.Winner != "red" {
		t.Errorf("api game: %v %+v", err, api.Result)
	}
}

func TestNightsFeedsAndPrivacy(t *testing.T) {
	h := newHarness(t)
	h.site.Services().Clock.Set(func() time.Time { return time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC) })
	admin := h.login("admin", "demo-admin")
	h.post(admin, "/nights", url.Values{"date": {"2026-12-05"}, "time": {"19:00"}, "place": {"Café; Ruby, Hall 2"}, "tables": {"2"}, "per_table": {"10"}})
	c := h.client()
	r := h.post(c, "/signup", url.Values{"login": {"secretlogin"}, "nick": {"Owl"}, "real_name": {"Very Private Name"}, "password": {"secret-pass"}, "password2": {"secret-pass"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatal(r.StatusCode)
	}
	ics := h.get(h.client(), "/nights.ics").Body
	// 19:00 in Edmonton on 2026-12-05 is 02:00 UTC on the 6th
	for _, want := range []string{"BEGIN:VCALENDAR\r\n", "DTSTART:20261206T020000Z\r\n", `LOCATION:Café\; Ruby\, Hall 2`, "END:VCALENDAR\r\n"} {
		if !strings.Contains(ics, want) {
			t.Errorf("ics lacks %q:\n%s", want, ics)
		}
	}
	var nights []map[string]any
	if err := json.Unmarshal([]byte(h.get(h.client(), "/api/nights").Body), &nights); err != nil || len(nights) != 1 || nights[0]["main_size"] != float64(20) {
		t.Errorf("api nights: %v %v", err, nights)
	}
	// public pages never show logins or real names
	anon := h.client()
	for _, path := range []string{"/rating", "/history", "/nights", "/nights/1", "/players/21", "/rules"} {
		body := h.get(anon, path).Body
		if strings.Contains(body, "Very Private Name") || strings.Contains(body, "secretlogin") {
			t.Errorf("%s shows private data", path)
		}
	}
	// a member cannot do a host's or an admin's action
	member := h.user("plain", club.RoleMember)
	for _, path := range []string{"/games", "/games/new", "/admin/members", "/nights/new"} {
		if r := h.get(member, path); r.StatusCode != http.StatusForbidden {
			t.Errorf("member GET %s: %d", path, r.StatusCode)
		}
	}
	for _, path := range []string{"/nights", "/admin/members/1", "/admin/link-guest", "/nights/1/noshow", "/games"} {
		if r := h.post(member, path, url.Values{"field": {"role"}, "to": {"admin"}, "reason": {"x"}, "user": {"1"}}); r.StatusCode != http.StatusForbidden {
			t.Errorf("member POST %s: %d", path, r.StatusCode)
		}
	}
	if u, _ := h.store.UserByLogin(context.Background(), "plain"); u.Role != club.RoleMember {
		t.Error("a member made himself admin")
	}
}

func (h *harness) multipart(c *http.Client, path string, fields map[string]string, file string, data []byte) response {
	h.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	if data != nil {
		fw, _ := mw.CreateFormFile(file, "upload")
		fw.Write(data)
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return h.do(c, req)
}

func TestProfileAndPhoto(t *testing.T) {
	h := newHarness(t)
	if r := h.post(h.client(), "/signup", url.Values{"login": {"taras"}, "nick": {"Taras"}, "password": {"secret-pass"}, "password2": {"secret-pass"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatal(r.StatusCode)
	}
	c := h.login("taras", "secret-pass")
	// a nickname another player has is refused, at sign-up and on the profile
	if r := h.post(h.client(), "/signup", url.Values{"login": {"other"}, "nick": {"joker"}, "password": {"secret-pass"}, "password2": {"secret-pass"}}); r.StatusCode != http.StatusConflict || !strings.Contains(errorOf(r.Body), "Цей нік уже має інший гравець") {
		t.Errorf("sign-up with a taken nickname: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.multipart(c, "/me/profile", map[string]string{"nick": "JOKER"}, "", nil); r.StatusCode != http.StatusConflict {
		t.Errorf("profile with a taken nickname: %d", r.StatusCode)
	}
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 64)...)
	if r := h.multipart(c, "/me/profile", map[string]string{"nick": "Taras B", "real_name": "Taras Bulba"}, "photo", png); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	u, _ := h.store.UserByLogin(context.Background(), "taras")
	pl, _ := h.store.Player(context.Background(), u.PlayerID)
	if pl.Nick != "Taras B" || pl.RealName != "Taras Bulba" || !pl.HasPhoto {
		t.Errorf("profile: %+v", pl)
	}
	photo := h.get(h.client(), fmt.Sprintf("/players/%d/photo", u.PlayerID))
	if photo.StatusCode != http.StatusOK || photo.Header.Get("Content-Type") != "image/png" || photo.Body != string(png) {
		t.Errorf("photo: %d %s", photo.StatusCode, photo.Header.Get("Content-Type"))
	}
	// not an image, or too large: refused, and the old photo stays
	if r := h.multipart(c, "/me/profile", map[string]string{"nick": "Taras C"}, "photo", []byte("<script>alert(1)</script>")); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "JPEG, PNG або WebP") {
		t.Errorf("a script as a photo: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.multipart(c, "/me/profile", map[string]string{"nick": "Taras B"}, "photo", append(png, make([]byte, club.MaxPhoto)...)); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a photo over 1 MB: %d", r.StatusCode)
	}
	if pl, _ := h.store.Player(context.Background(), u.PlayerID); !pl.HasPhoto || pl.Nick != "Taras B" {
		t.Errorf("a refused upload changed the profile: %+v", pl)
	}
	// the public page shows the photo and the nickname, never the real name
	if page := h.get(h.client(), fmt.Sprintf("/players/%d", u.PlayerID)).Body; !strings.Contains(page, "/photo") || strings.Contains(page, "Bulba") {
		t.Errorf("the public player page shows the wrong things")
	}
	if r := h.multipart(c, "/me/profile", map[string]string{"nick": "Taras B", "remove_photo": "on"}, "", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove: %d", r.StatusCode)
	}
	if r := h.get(h.client(), fmt.Sprintf("/players/%d/photo", u.PlayerID)); r.StatusCode != http.StatusNotFound {
		t.Errorf("a removed photo is still served: %d", r.StatusCode)
	}
}

// TestReviewFindings pins the defects an independent review found.
func TestReviewFindings(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")
	host := h.login("host", "demo-host")

	// the night's next checker is the one the engine's order names (home-doctor: the commissar before the don)
	opts := url.Values{"opt_night_order": {"mafia, commissar, don, doctor"}, "opt_tie_model": {"lift"}, "opt_last_word": {"on"}, "opt_last_word_shown": {"1"}}
	gid := h.newGame(host, "home-doctor", []string{"mafia", "commissar", "doctor", "citizen", "citizen", "don", "citizen", "citizen"}, opts)
	h.mustAct(host, gid, "type", "day")
	for s := 1; s <= 8; s++ {
		h.mustAct(host, gid, "type", "speech", "seat", strconv.Itoa(s))
	}
	h.mustAct(host, gid, "type", "night")
	h.mustAct(host, gid, "type", "shoot_all", "target", "4")
	if page := h.get(host, fmt.Sprintf("/games/%d", gid)).Body; !strings.Contains(page, "яке перевіряє #2") || strings.Contains(page, "яке перевіряє #6") {
		t.Error("the page offers the don's check before the commissar's")
	}

	// an impossible mafia count is refused at once
	f := url.Values{"form": {"1"}, "rules": {"home-ua"}, "n": {"7"}, "deal": {"random"}, "mafia": {"300000000"}}
	for i := 1; i <= 7; i++ {
		f.Set(fmt.Sprintf("name%d", i), fmt.Sprintf("G%d", i))
	}
	start := time.Now()
	if r := h.post(host, "/games", f); r.StatusCode != http.StatusBadRequest || time.Since(start) > 2*time.Second {
		t.Errorf("mafia=300000000: %d after %v", r.StatusCode, time.Since(start))
	}

	// a huge body is cut off, not read
	big := strings.NewReader("login=host&password=" + strings.Repeat("x", 3<<20))
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/login", big)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if r := h.do(h.client(), req); r.StatusCode == http.StatusSeeOther {
		t.Error("a 3 MB login form was accepted")
	}

	// a pending member sees no line-up; nobody cancels once the night has begun
	r := h.post(admin, "/nights", url.Values{"date": {"2026-12-05"}, "time": {"19:00"}, "place": {"Café"}, "tables": {"1"}, "per_table": {"7"}})
	nightURL := r.Header.Get("Location")
	m := h.user("member1", club.RoleMember)
	h.post(m, nightURL+"/register", nil)
	h.post(h.client(), "/signup", url.Values{"login": {"newbie"}, "nick": {"Newbie"}, "password": {"secret-pass"}, "password2": {"secret-pass"}})
	pending := h.login("newbie", "secret-pass")
	if page := h.get(pending, nightURL).Body; strings.Contains(page, `id="main-lineup"`) {
		t.Error("a pending member sees the line-up")
	}
	clk.t = time.Date(2026, 12, 6, 3, 0, 0, 0, time.UTC) // 20:00 club time, the night has begun
	if r := h.post(m, nightURL+"/cancel", nil); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a cancellation after the start: %d", r.StatusCode)
	}
	if page := h.get(m, "/nights").Body; strings.Contains(page, "cancel-reg") {
		t.Error("the list offers to cancel a night that has begun")
	}
}
