package web_test

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

// previewSummaries posts a file of summaries to the admin's page as its form does, with extra headers.
func (h *harness) previewSummaries(c *http.Client, name string, data []byte, hdr map[string]string) response {
	h.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/admin/summaries/preview", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return h.do(c, req)
}

var hiddenData = regexp.MustCompile(`name="data" value="([^"]*)"`)

// TestSummaryImportPage: an admin's file of old protocols through the site: its preview (the games, the players
// who will be guests), the confirmation, the rating it changes, the second import recognised, a bad file refused
// naming the line and the column, a host or member refused, a forged request refused, and a deletion confirmed
// first.
func TestSummaryImportPage(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	admin := h.login("admin", "demo-admin")
	host := h.login("host", "demo-host")
	member := h.user("member1", club.RoleMember)
	var nicks [10]string
	var ids [10]int64
	for i := 0; i < 9; i++ {
		p := club.Player{Nick: fmt.Sprintf("Veteran%02d", i)}
		if err := h.store.CreatePlayer(ctx, &p); err != nil {
			t.Fatal(err)
		}
		nicks[i], ids[i] = p.Nick, p.ID
	}
	nicks[9] = "Old Guest"
	data := []byte(storetest.SummaryCSV("05.03.2024", "2024-03-12", nicks))

	for _, c := range []*http.Client{host, member} {
		if r := h.previewSummaries(c, "old.csv", data, nil); r.StatusCode != http.StatusForbidden {
			t.Errorf("a host or member previews: %d", r.StatusCode)
		}
	}
	if r := h.get(host, "/admin/summaries"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a host opens the page: %d", r.StatusCode)
	}
	r := h.previewSummaries(admin, "old.csv", data, nil)
	if r.StatusCode != http.StatusOK {
		t.Fatalf("preview: %d %s", r.StatusCode, errorOf(r.Body))
	}
	for _, want := range []string{"2 нові гри", "Old Guest", "1 гравець не з клубу", "з 2024-03-05 по 2024-03-12", "Імпортувати 2 гри"} {
		if !strings.Contains(r.Body, want) {
			t.Errorf("the preview lacks %q:\n%s", want, errorOf(r.Body))
		}
	}
	if n, _ := h.store.CountGames(ctx, club.GameFilter{}); n != 0 {
		t.Fatalf("the preview filed %d games", n)
	}
	m := hiddenData.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatal("the preview has no confirmation form")
	}
	form := url.Values{"file": {"old.csv"}, "data": {html.UnescapeString(m[1])}}

	// a forged confirmation (another site's form) is refused, and files nothing
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/admin/summaries/import", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if r := h.do(admin, req); r.StatusCode != http.StatusForbidden {
		t.Errorf("a cross-site confirmation: %d", r.StatusCode)
	}
	if r := h.post(member, "/admin/summaries/import", form); r.StatusCode != http.StatusForbidden {
		t.Errorf("a member confirms: %d", r.StatusCode)
	}
	r = h.post(admin, "/admin/summaries/import", form)
	if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, "імпортовано 2 гри") {
		t.Fatalf("import: %d %s", r.StatusCode, errorOf(r.Body))
	}
	// the rating: Veteran00 won the first game as red with a best move of two blacks and 0.05 of extras (1.85),
	// and lost the second as red (0.3)
	st, err := h.store.Standings(ctx, club.RatingFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var line *club.Standing
	for i := range st {
		if st[i].PlayerID == ids[0] {
			line = &st[i]
		}
	}
	if line == nil || line.Games != 2 || line.Points != 215 || line.Wins != 1 || line.Elo == club.EloStart {
		t.Fatalf("his line in the rating: %+v", line)
	}
	if page := h.get(h.client(), "/rating").Body; !strings.Contains(page, "Veteran00") || !strings.Contains(page, "2,15") {
		t.Errorf("the rating page lacks his 2,15:\n%s", errorOf(page))
	}
	games, _ := h.store.Games(ctx, club.GameFilter{Status: club.GameSaved})
	if len(games) != 2 || !games[0].IsSummary() {
		t.Fatalf("saved games: %+v", games)
	}
	hist := h.get(h.client(), "/history").Body
	if strings.Count(hist, `class="summary-mark" title="Зі старого протоколу, не відтворюється">протокол`) != 2 {
		t.Errorf("the history does not mark the games from old protocols:\n%s", errorOf(hist))
	}
	first := games[1].ID // the older
	page := h.get(h.client(), fmt.Sprintf("/history/%d", first))
	if page.StatusCode != http.StatusOK || !strings.Contains(page.Body, `id="summary-seats"`) || !strings.Contains(page.Body, "1,85") ||
		!strings.Contains(page.Body, "Ця гра зі старого протоколу") || strings.Contains(page.Body, `id="summary-delete"`) {
		t.Errorf("the summary's page (a visitor's):\n%s", errorOf(page.Body))
	}
	if p := h.get(h.client(), fmt.Sprintf("/players/%d", ids[0])).Body; !strings.Contains(p, `class="summary-mark"`) {
		t.Errorf("his page does not mark the games from old protocols")
	}

	// the same file again: recognised, nothing doubled
	r = h.post(admin, "/admin/summaries/import", form)
	if !strings.Contains(r.Body, "2 гри вже в історії") {
		t.Errorf("the second import:\n%s", errorOf(r.Body))
	}
	if n, _ := h.store.CountGames(ctx, club.GameFilter{}); n != 2 {
		t.Errorf("%d games after the second import", n)
	}

	// a bad file: refused with its line and column, in the admin's language, nothing filed
	bad := strings.Replace(storetest.SummaryCSV("06.03.2024", "13.03.2024", nicks), ";К;4;", ";К;7;", 1)
	r = h.previewSummaries(admin, "bad.csv", []byte(bad), nil)
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "рядок 16, місце 4, фоли: у гравця від 0 до 4 фолів, а не 7") ||
		strings.Contains(r.Body, `id="summary-confirm"`) {
		t.Errorf("a bad file: %d\n%s", r.StatusCode, errorOf(r.Body))
	}
	r = h.previewSummaries(admin, "bad.csv", []byte(strings.Replace(string(data), "1,85", "1,95", 1)), map[string]string{"Accept-Language": "en"})
	if !strings.Contains(r.Body, "seat 1: the total is 1.95, but the rules give 1.85 for these facts") {
		t.Errorf("a wrong total:\n%s", errorOf(r.Body))
	}

	// deleting: a host may not, the admin is asked first, then the game and its points leave
	if r := h.post(host, fmt.Sprintf("/history/%d/delete", first), url.Values{"confirm": {"yes"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a host deletes: %d", r.StatusCode)
	}
	r = h.post(admin, fmt.Sprintf("/history/%d/delete", first), url.Values{})
	if !strings.Contains(r.Body, "Видалити гру #") || !strings.Contains(r.Body, `id="summary-delete-yes"`) {
		t.Errorf("no confirmation first:\n%s", errorOf(r.Body))
	}
	if _, err := h.store.Game(ctx, first); err != nil {
		t.Fatalf("deleted before the confirmation: %v", err)
	}
	if r := h.post(admin, fmt.Sprintf("/history/%d/delete", first), url.Values{"confirm": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if _, err := h.store.Game(ctx, first); club.ErrorCode(err) != club.NotFound {
		t.Errorf("the deleted game: %v", err)
	}
	st, _ = h.store.Standings(ctx, club.RatingFilter{})
	for _, s := range st {
		if s.PlayerID == ids[0] && (s.Games != 1 || s.Points != 30) {
			t.Errorf("after the deletion his line is %+v", s)
		}
	}
	if log := h.get(admin, "/admin/summaries").Body; !strings.Contains(log, "видалення") || !strings.Contains(log, "old.csv") {
		t.Errorf("the log:\n%s", errorOf(log))
	}
}

// A game of an old protocol whose row names no rule set is of the club's default one (set at /admin/club), not
// always the project's.
func TestSummaryImportTakesTheClubsRules(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	svc := h.site.Services()
	admin, err := h.store.UserByLogin(ctx, "admin")
	if err != nil {
		t.Fatal(err)
	}
	c, err := svc.Club.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Club.Update(ctx, admin, club.ClubForm{Name: c.Name, Names: c.Names, Rules: "fsm-2026"}); err != nil {
		t.Fatal(err)
	}
	var nicks [10]string
	for i := range nicks {
		nicks[i] = fmt.Sprintf("Veteran%02d", i)
		p := club.Player{Nick: nicks[i]}
		if err := h.store.CreatePlayer(ctx, &p); err != nil {
			t.Fatal(err)
		}
	}
	// the club's file without its extras and totals, which are the club rules' (fsm-2026 has no club extras)
	lines := strings.Split(storetest.SummaryCSV("05.03.2024", "2024-03-12", nicks), "\n")
	for i := 1; i < len(lines); i++ {
		if f := strings.Split(lines[i], ";"); len(f) == 11 {
			f[8], f[10] = "", ""
			lines[i] = strings.Join(f, ";")
		}
	}
	if _, err := svc.Summaries.Import(ctx, admin, "old.csv", []byte(strings.Join(lines, "\n"))); err != nil {
		t.Fatal(err)
	}
	for rules, want := range map[string]bool{"fsm-2026": true, club.ClubRules: false} {
		st, err := h.store.Standings(ctx, club.RatingFilter{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(st) > 0; got != want {
			t.Errorf("the %s rating has %d lines after importing a file of the club's fsm-2026 games", rules, len(st))
		}
	}
}
