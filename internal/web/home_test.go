package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

// logoPNG is a small square PNG logo.
func logoPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 48, 48))
	for x := 0; x < 48; x++ {
		img.Set(x, x, color.RGBA{220, 30, 30, 255})
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// clubFields is the admin's form of the club's identity as a test sets it.
func clubFields() map[string]string {
	return map[string]string{"name": "Мафія Едмонтон", "name_en": "Mafia Edmonton", "city": "Edmonton",
		"description": "Спортивна мафія щоп'ятниці в Едмонтоні.", "site": "https://mafia.example.org/", "telegram": "@mafia_edm",
		"instagram": "https://instagram.com/mafia.edm", "youtube": "", "rules": "fiim-2025-club", "club_extras": "on"}
}

var metaRE = regexp.MustCompile(`<meta name="description" content="([^"]*)">`)

// titleOf is a page's title.
func titleOf(body string) string {
	m := regexp.MustCompile(`<title>([^<]*)</title>`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return m[1]
}

// playToRedWin plays a hand-dealt club game to a quick end (three blacks disqualified) and saves it rated.
func (h *harness) playToRedWin(host *http.Client, names []string) int64 {
	h.t.Helper()
	extra := url.Values{}
	for i, n := range names {
		extra.Set(fmt.Sprintf("name%d", i+1), n)
	}
	id := h.newGame(host, "fiim-2025-club", tenRoles, extra)
	for _, s := range []string{"3", "7", "9"} {
		h.mustAct(host, id, "type", "disqualify", "seat", s, "reason", "test")
	}
	if r := h.post(host, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {strconv.FormatInt(h.version(id), 10)}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	return id
}

// TestFrontDoor: the front door (/) for each kind of visitor, and the club's identity an admin sets on /admin/club
// everywhere the site names the club: every page's title, header and meta description, the logo (cached, with its
// ETag), the e-mails, the iCal feed, the protocol, and the new game form's defaults.
func TestFrontDoor(t *testing.T) { frontDoor(t, newHarness(t)) }

// TestFrontDoorPostgres is TestFrontDoor on PostgreSQL.
func TestFrontDoorPostgres(t *testing.T) { frontDoor(t, newHarnessOn(t, storetest.FreshPostgres(t))) }

func frontDoor(t *testing.T, h *harness) {
	edm, _ := time.LoadLocation("America/Edmonton")
	clk := &clock{t: time.Date(2026, 12, 5, 10, 0, 0, 0, edm)}
	h.site.Services().Clock.Set(clk.now)
	ctx := context.Background()
	admin := h.login("admin", "demo-admin")
	host := h.login("host", "demo-host")
	anon := h.client()

	// a club never set: the pages name the site as the catalogue does, and say a sentence of their own
	if r := h.get(anon, "/"); r.StatusCode != http.StatusOK || titleOf(r.Body) != "Головна · Мафія-клуб" || !strings.Contains(r.Body, `id="brand">Мафія-клуб</a>`) ||
		strings.Contains(r.Body, "/club/logo") {
		t.Fatalf("a fresh club's front door: %d %q", r.StatusCode, titleOf(r.Body))
	}
	metas := map[string]string{}
	for _, path := range []string{"/", "/rating", "/history", "/nights", "/live", "/tournaments", "/rules", "/stats", "/signup", "/login"} {
		r := h.get(anon, path)
		m := metaRE.FindStringSubmatch(r.Body)
		if r.StatusCode != http.StatusOK || m == nil || !strings.Contains(m[1], "Мафія-клуб") {
			t.Errorf("%s: %d, meta description %v", path, r.StatusCode, m)
			continue
		}
		if other, ok := metas[m[1]]; ok {
			t.Errorf("%s says what %s says: %q", path, other, m[1])
		}
		metas[m[1]] = path
	}

	// only an admin sets the club; a refusal says why in the admin's language and keeps the form as typed
	member0, _ := h.member("reader")
	if r := h.get(member0, "/admin/club"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a member opens the club's page: %d", r.StatusCode)
	}
	if r := h.get(anon, "/admin/club"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a visitor opens the club's page: %d", r.StatusCode)
	}
	if r := h.multipart(member0, "/admin/club", clubFields(), "logo", logoPNG()); r.StatusCode != http.StatusForbidden {
		t.Errorf("a member changes the club: %d", r.StatusCode)
	}
	bad := clubFields()
	bad["telegram"] = "https://evil.example/x"
	if r := h.multipart(admin, "/admin/club", bad, "logo", logoPNG()); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "t.me") ||
		!strings.Contains(r.Body, `value="Mafia Edmonton"`) {
		t.Errorf("a wrong Telegram: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.multipart(admin, "/admin/club", clubFields(), "logo", []byte("GIF89a not a logo")); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "PNG, JPEG або WebP") {
		t.Errorf("a logo that is no image: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.multipart(admin, "/admin/club", clubFields(), "logo", logoPNG()); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/admin/club?saved=1" {
		t.Fatalf("the club's identity: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if page := h.get(admin, "/admin/club?saved=1").Body; !strings.Contains(page, `id="club-saved"`) || !strings.Contains(page, `id="club-logo"`) ||
		!strings.Contains(page, "America/Edmonton") || !strings.Contains(page, `name="club_extras" checked`) {
		t.Errorf("the club's page after the change does not show it")
	}

	// the logo: public, kept and revalidated (a changed logo shows at once), its ETag a hash of its bytes; a browser
	// that holds it gets 304
	r := h.get(anon, "/club/logo")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != "image/png" || r.Body != string(logoPNG()) ||
		r.Header.Get("Cache-Control") != "public, no-cache" || r.Header.Get("ETag") == "" {
		t.Fatalf("the logo: %d %v", r.StatusCode, r.Header)
	}
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/club/logo", nil)
	req.Header.Set("If-None-Match", r.Header.Get("ETag"))
	if r := h.do(anon, req); r.StatusCode != http.StatusNotModified || r.Body != "" {
		t.Errorf("the logo again with its ETag: %d", r.StatusCode)
	}

	// the club's life: tonight's night full (anna is first in its reserve), a night next week with places, a
	// saved game anna played, a host's game in progress, a tournament on, a notice anna has not read
	tonight := h.newNight(admin, "2026-12-05", "19:00", 1, 7)
	later := h.newNight(admin, "2026-12-12", "19:00", 1, 10)
	for i := 0; i < 7; i++ {
		c, _ := h.member(fmt.Sprintf("m%d", i))
		h.post(c, tonight+"/register", nil)
	}
	anna, _ := h.member("anna")
	if r := h.post(anna, tonight+"/register", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("anna registers: %d %s", r.StatusCode, errorOf(r.Body))
	}
	nicks := append([]string{"Nick-anna"}, club.DemoNicks()[:9]...)
	saved := h.playToRedWin(host, nicks)
	inProgress := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	hostUser, _ := h.store.UserByLogin(ctx, "host")
	if r := h.post(admin, "/tournaments", url.Values{"name": {"Кубок зими"}, "from": {"2026-12-04"}, "to": {"2026-12-06"}, "place": {"Café"},
		"rules": {"fiim-xcraft"}, "chief": {strconv.FormatInt(hostUser.ID, 10)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("tournament: %d %s", r.StatusCode, errorOf(r.Body))
	}
	night := strings.TrimPrefix(tonight, "/nights/")
	if r := h.post(admin, tonight+"/edit", url.Values{"date": {"2026-12-05"}, "time": {"19:00"}, "place": {"Café"}, "tables": {"1"}, "per_table": {"7"},
		"note": {"Bring a friend"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit the night: %d %s", r.StatusCode, errorOf(r.Body))
	}

	// the visitor: the club, the nights with places and the way to register (sign up first), the games live, the
	// top ten, the latest games with their winners, the tournament on
	door := h.get(anon, "/")
	body := door.Body
	for what, want := range map[string]string{
		"the title":            "<title>Головна · Мафія Едмонтон</title>",
		"the header's logo":    `<a class="brand" href="/" id="brand"><img class="logo" src="/club/logo"`,
		"the header's name":    `>Мафія Едмонтон</a>`,
		"the meta description": `<meta name="description" content="Спортивна мафія щоп&#39;ятниці в Едмонтоні.">`,
		"the description":      `<p id="club-description">Спортивна мафія щоп&#39;ятниці в Едмонтоні.</p>`,
		"the city":             `id="club-city">Edmonton<`,
		"the Telegram link":    `<a href="https://t.me/mafia_edm" id="link-telegram"`,
		"the site":             `<a href="https://mafia.example.org/" id="link-site"`,
		"the night with places": fmt.Sprintf(`<a href="%s"><strong>2026-12-12 19:00</strong></a> · Café<br>
    <span class="small places">лишилося 10 місць</span>`, later),
		"the full night":       "Основний склад заповнений: лише резерв (у ньому 1)",
		"the way to register":  `<a class="button primary signup-register" href="/signup">Зареєструйтеся, щоб записатися</a>`,
		"the live game":        fmt.Sprintf(`<a href="/live/%d">`, inProgress),
		"the top ten":          `<ol id="home-top"><li><a href="/players/`,
		"the latest game":      fmt.Sprintf(`<a href="/history/%d">#%d</a>`, saved, saved),
		"its winner":           "<strong>перемога червоних</strong>",
		"the tournament":       "Кубок зими",
		"the tournament is on": "Турнір, що триває",
		"the member's sign-up": `id="home-signup"`,
		"the logo on the page": `id="home-logo"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the visitor's front door lacks %s: %s", what, want)
		}
	}
	if door.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("the front door's Cache-Control: %q", door.Header.Get("Cache-Control"))
	}
	if strings.Count(regexp.MustCompile(`(?s)<ol id="home-top">.*?</ol>`).FindString(body), "<li>") != 10 {
		t.Errorf("the top ten has not ten lines")
	}
	for _, not := range []string{`id="home-mine"`, `id="home-host"`, `/admin/club`} {
		if strings.Contains(body, not) {
			t.Errorf("the visitor's front door shows %s", not)
		}
	}
	// in English, the English name; every public page carries the club's description as its meta description
	req, _ = http.NewRequest(http.MethodGet, h.srv.URL+"/rating", nil)
	req.AddCookie(&http.Cookie{Name: "lang", Value: "en"})
	if r := h.do(anon, req); !strings.HasSuffix(titleOf(r.Body), " · Mafia Edmonton") || !strings.Contains(r.Body, `id="brand"><img class="logo" src="/club/logo" alt="" width="28" height="28">Mafia Edmonton</a>`) {
		t.Errorf("the English rating's title: %q", titleOf(r.Body))
	}
	for _, path := range []string{"/rating", "/history", "/nights", "/live", fmt.Sprintf("/history/%d", saved), "/signup"} {
		if m := metaRE.FindStringSubmatch(h.get(anon, path).Body); m == nil || m[1] != "Спортивна мафія щоп&#39;ятниці в Едмонтоні." {
			t.Errorf("%s: meta description %v", path, m)
		}
	}

	// the member: his registration in the reserve with his place, his unread notice, his latest game, his line
	body = h.get(anna, "/").Body
	for what, want := range map[string]string{
		"the English name":         `>Mafia Edmonton</a>`,
		"his place in the reserve": fmt.Sprintf(`<li data-night="%s"><a href="%s">2026-12-05 19:00</a> · Café · <strong>in the reserve, number 1 in line</strong>`, night, tonight),
		"his unread notice":        `<a href="/me/notices" id="home-unread">1 unread notice</a>`,
		"his rating line":          `<p id="home-my-line">In the club rating: place `,
		"his latest game":          fmt.Sprintf(`<ul id="home-my-games"><li><a href="/history/%d">`, saved),
		"the register button":      fmt.Sprintf(`<form method="post" action="%s/register">`, later),
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the member's front door lacks %s: %s", what, want)
		}
	}
	if strings.Contains(body, `id="home-host"`) || strings.Contains(body, `signup-register`) {
		t.Errorf("the member's front door offers hosting or signing up")
	}

	// the host: tonight's registrations to start a game from, his game in progress
	body = h.get(host, "/").Body
	for what, want := range map[string]string{
		"tonight's game":       fmt.Sprintf(`<a class="button primary" href="/games/new?night=%s" id="home-start-%s">Почати гру із записаних на сьогодні: 2026-12-05 19:00, записано 7</a>`, night, night),
		"his game in progress": fmt.Sprintf(`<ul id="home-my-live"><li><a href="/games/%d">`, inProgress),
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the host's front door lacks %s: %s", what, want)
		}
	}
	if r := h.get(host, "/games/new?night="+night); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `value="Nick-m0"`) {
		t.Errorf("the game from tonight's registrations: %d", r.StatusCode)
	}
	// the admin: all of the host's, and the club's page in the menu
	body = h.get(admin, "/").Body
	for _, want := range []string{`id="home-host"`, `<a href="/admin/club">`, `id="home-top"`, `href="/games/new?night=` + night} {
		if !strings.Contains(body, want) {
			t.Errorf("the admin's front door lacks %s", want)
		}
	}
	if strings.Contains(body, `id="home-my-live"`) {
		t.Errorf("the admin's front door lists the host's game as his")
	}

	// the e-mails, the iCal feed and the protocol carry the club's name
	mails, err := h.site.Services().Notices.DueMail(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		m.Lang = "en"
		if subject, _ := h.site.MailText(m); !strings.HasPrefix(subject, "Mafia Edmonton: ") {
			t.Errorf("an e-mail's subject: %q", subject)
		}
	}
	ics := h.get(anon, "/nights.ics").Body
	if !strings.Contains(ics, "X-WR-CALNAME:Мафія Едмонтон\r\n") || !strings.Contains(ics, "SUMMARY:Мафія Едмонтон: Ігровий вечір мафії\r\n") {
		t.Errorf("the iCal feed: %s", ics)
	}
	if proto := h.get(anon, fmt.Sprintf("/history/%d?view=protocol", saved)).Body; !strings.Contains(proto, `<span class="club" id="protocol-club">Мафія Едмонтон</span>`) {
		t.Errorf("the protocol does not name the club")
	}
}

// TestClubDefaultsTheNewGame: the new game form starts from the club's rule set and its choice of the club's extras.
func TestClubDefaultsTheNewGame(t *testing.T) {
	h := newHarness(t)
	admin := h.login("admin", "demo-admin")
	host := h.login("host", "demo-host")
	extras := regexp.MustCompile(`<input type="checkbox" name="opt_club_extras"[^>]*>`)
	form := h.get(host, "/games/new").Body
	if !strings.Contains(form, `<option value="fiim-2025-club" selected`) || !strings.Contains(extras.FindString(form), "checked") {
		t.Fatalf("a fresh club's new game: %s", extras.FindString(form))
	}
	f := clubFields()
	delete(f, "club_extras")
	if r := h.multipart(admin, "/admin/club", f, "", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the club without its extras: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if m := extras.FindString(h.get(host, "/games/new").Body); m == "" || strings.Contains(m, "checked") {
		t.Errorf("the club's extras start on: %q", m)
	}
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	if g, _ := h.store.Game(context.Background(), id); string(g.Options["club_extras"]) != "false" {
		t.Errorf("the game's club_extras: %s", g.Options["club_extras"])
	}
	f["rules"] = "fsm-2026"
	if r := h.multipart(admin, "/admin/club", f, "", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the club's rule set: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if form := h.get(host, "/games/new").Body; !strings.Contains(form, `<option value="fsm-2026" selected`) {
		t.Errorf("the new game does not start from the club's rule set")
	}
	if form := h.get(host, "/games/new?rules=home-ua").Body; !strings.Contains(form, `<option value="home-ua" selected`) {
		t.Errorf("a rule set asked for is not the form's")
	}
}
