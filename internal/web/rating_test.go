package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestRatingOneSystem: the club rating counts the club's rule set only; a rated fsm-2026 game counts in the
// fsm-2026 rating; a page the reader holds is answered 304 until a game changes the ratings; the minimum number
// of games filters; a player's figures come as JSON; the pages read in Russian.
func TestRatingOneSystem(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	admin := h.login("admin", "demo-admin")
	play := func(rules string) int64 {
		f := url.Values{"form": {"1"}, "rules": {rules}, "n": {"10"}, "deal": {"hand"}, "rated": {"on"}}
		nicks := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"}
		for i, role := range tenRoles {
			f.Set(fmt.Sprintf("name%d", i+1), nicks[i])
			f.Set(fmt.Sprintf("role%d", i+1), role)
		}
		r := h.post(host, "/games", f)
		id, err := strconv.ParseInt(strings.TrimPrefix(r.Header.Get("Location"), "/games/"), 10, 64)
		if err != nil {
			t.Fatalf("start %s: %d %s", rules, r.StatusCode, errorOf(r.Body))
		}
		h.mustAct(host, id, "type", "team_loss", "seat", "3", "reason", "oath")
		v := strconv.FormatInt(h.version(id), 10)
		if r := h.post(host, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {v}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("save: %d", r.StatusCode)
		}
		return id
	}
	anon := h.client()
	first := h.get(anon, "/rating")
	etag := first.Header.Get("ETag")
	if etag == "" {
		t.Fatal("the rating page has no ETag")
	}
	club := play("fiim-2025-club")
	// the page the reader holds is stale now
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/rating", nil)
	req.Header.Set("If-None-Match", etag)
	if r := h.do(anon, req); r.StatusCode != http.StatusOK {
		t.Errorf("after a save, the held page: %d, want 200", r.StatusCode)
	}
	page := h.get(anon, "/rating")
	req, _ = http.NewRequest(http.MethodGet, h.srv.URL+"/rating", nil)
	req.Header.Set("If-None-Match", page.Header.Get("ETag"))
	if r := h.do(anon, req); r.StatusCode != http.StatusNotModified || r.Body != "" {
		t.Errorf("a repeated request: %d, want 304 without a body", r.StatusCode)
	}
	play("fsm-2026")
	clubPage := h.get(anon, "/rating").Body
	if !strings.Contains(clubPage, `id="rating-counts"`) || strings.Count(clubPage, "<tr data-player=") != 9 {
		t.Errorf("the club rating: %d lines, want the 9 members of the one club game", strings.Count(clubPage, "<tr data-player="))
	}
	if !strings.Contains(clubPage, `<a href="/players/1?rules=fiim-2025-club">Joker</a></td><td class="total">1,30</td><td class="elo">1010</td><td>1</td>`) { // a Ukrainian page: a decimal comma
		t.Errorf("Joker's club line counts the fsm-2026 game too:\n%s", clubPage)
	}
	fsm := h.get(anon, "/rating?rules=fsm-2026").Body
	if !strings.Contains(fsm, `<a href="/players/1?rules=fsm-2026">Joker</a></td><td class="total">0,00</td><td class="elo">1010</td><td>1</td><td>1</td>`) {
		t.Errorf("the fsm-2026 rating has not Joker's one game:\n%s", fsm)
	}
	if n := strings.Count(h.get(anon, "/rating?min=2").Body, "<tr data-player="); n != 0 {
		t.Errorf("at least 2 games: %d lines, want none", n)
	}
	if r := h.get(anon, "/rating?min=x"); r.StatusCode != http.StatusBadRequest {
		t.Errorf("min=x: %d", r.StatusCode)
	}
	if r := h.get(anon, "/rating?rules=chess"); r.StatusCode != http.StatusBadRequest {
		t.Errorf("an unknown rule set: %d", r.StatusCode)
	}
	// a reopened game leaves the ratings, with its Elo
	v := strconv.FormatInt(h.version(club), 10)
	if r := h.post(admin, fmt.Sprintf("/games/%d/reopen", club), url.Values{"version": {v}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("reopen: %d", r.StatusCode)
	}
	if n := strings.Count(h.get(anon, "/rating").Body, "<tr data-player="); n != 0 {
		t.Errorf("after the reopening, %d lines in the club rating", n)
	}
	// the figures as JSON: the fsm-2026 game's Joker (seat 1, a citizen; red won by the team loss)
	r := h.get(anon, "/api/players/1/stats?rules=fsm-2026")
	var stats struct {
		Games, Wins int
		Elo         json.Number
		History     []struct{ Elo json.Number }
	}
	if err := json.Unmarshal([]byte(r.Body), &stats); err != nil || stats.Games != 1 || stats.Wins != 1 || stats.Elo != "1010.00" || len(stats.History) != 1 {
		t.Errorf("Joker's fsm-2026 figures: %+v (%v)\n%s", stats, err, r.Body)
	}
	if r := h.get(anon, "/api/players/999/stats"); r.StatusCode != http.StatusNotFound {
		t.Errorf("a player who is not: %d", r.StatusCode)
	}
	// Russian, plural forms included
	ru := h.client()
	for path, want := range map[string]string{"/rating?rules=fsm-2026": "9 игроков", "/players/1?rules=fsm-2026": "1 игра · 1 победа",
		"/stats?rules=fsm-2026": "Красные и чёрные"} {
		req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
		req.AddCookie(&http.Cookie{Name: "lang", Value: "ru"})
		r := h.do(ru, req)
		if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, want) || strings.Contains(r.Body, "%!") {
			t.Errorf("ru %s: %d, no %q", path, r.StatusCode, want)
		}
	}
}

// TestRatingQueryJunk: parameters the rating does not know are not copied into the rating's table (its links carry
// only the rating's own), which is what is kept for the next readers, under the query as the rating read it.
func TestRatingQueryJunk(t *testing.T) {
	h := newHarness(t)
	anon := h.client()
	plain := h.get(anon, "/rating?sort=elo&min=0")
	junk := h.get(anon, "/rating?sort=elo&zzjunkzz="+strings.Repeat("x", 4000)+"&min=0")
	if plain.StatusCode != http.StatusOK || junk.StatusCode != http.StatusOK {
		t.Fatalf("rating: %d and %d", plain.StatusCode, junk.StatusCode)
	}
	// the menu's language switch and login link come back to the address as it was asked (twice, in every page);
	// the rating's own links, and the table kept for the next readers, carry none of the junk
	if n := strings.Count(junk.Body, "zzjunkzz"); n > 2 {
		t.Errorf("a parameter the rating does not know is copied into its page %d times", n)
	}
	if !strings.Contains(junk.Body, "sort=elo") {
		t.Error("the page's links lost the rating's own parameters")
	}
}
