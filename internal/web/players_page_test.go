package web_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

var gameRowRE = regexp.MustCompile(`<tr><td><a href="/history/(\d+)">#`)

// TestPlayerGamesPaged: a player's page lists his games a hundred at a time, newest first, with links to the
// other pages; his figures and charts are over all his games on every page.
func TestPlayerGamesPaged(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	names := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Kira"}
	var ids []int64
	for i := 0; i < 101; i++ {
		ids = append(ids, h.playToRedWin(host, names))
	}
	games := func(body string) []string {
		table := body[strings.Index(body, `id="player-games"`):]
		var out []string
		for _, m := range gameRowRE.FindAllStringSubmatch(table, -1) {
			out = append(out, m[1])
		}
		return out
	}
	first := h.get(h.client(), "/players/1").Body
	got := games(first)
	if len(got) != 100 || got[0] != fmt.Sprint(ids[100]) || got[99] != fmt.Sprint(ids[1]) {
		t.Fatalf("page 1 lists %d games (%v...), want the newest 100, #%d to #%d", len(got), got[:min(3, len(got))], ids[100], ids[1])
	}
	if !strings.Contains(first, `href="/players/1?page=2#player-games"`) || strings.Contains(first, `rel="prev" href="/players/1`) {
		t.Error("page 1 does not link to page 2 only")
	}
	for _, path := range []string{"/players/1?page=2", "/players/1?page=99"} {
		second := h.get(h.client(), path).Body
		if got := games(second); len(got) != 1 || got[0] != fmt.Sprint(ids[0]) {
			t.Errorf("%s lists %v, want the oldest game #%d", path, got, ids[0])
		}
		if !strings.Contains(second, `rel="prev" href="/players/1#player-games"`) || strings.Contains(second, `rel="next" href="/players/1`) {
			t.Errorf("%s does not link back to page 1 only", path)
		}
		// the figures are his whole record's on every page
		if !strings.Contains(second, "101") {
			t.Errorf("%s does not count his 101 games", path)
		}
	}
	if got := games(h.get(h.client(), "/players/1?rules=fiim-2025-club&page=2").Body); len(got) != 1 {
		t.Errorf("page 2 of a rule set's figures lists %d games, want 1", len(got))
	}
	if b := h.get(h.client(), "/players/1?page=2&rules=fiim-2025-club").Body; !strings.Contains(b, `href="/players/1?rules=fiim-2025-club#player-games"`) {
		t.Error("page 2 of a rule set does not keep the rule set in its link back")
	}
}

// TestPlayerPageKept: a player's page is drawn once per version of the ratings and kept for the next readers,
// yet every reader gets his own menu, and what changes the page shows at once: a game saved, a photo uploaded.
func TestPlayerPageKept(t *testing.T) {
	h := newHarness(t)
	if r := h.post(h.client(), "/signup", url.Values{"login": {"taras"}, "nick": {"Taras"}, "password": {"secret-pass"}, "password2": {"secret-pass"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatal(r.StatusCode)
	}
	taras := h.login("taras", "secret-pass")
	u, _ := h.store.UserByLogin(context.Background(), "taras")
	path := fmt.Sprintf("/players/%d", u.PlayerID)
	host := h.login("host", "demo-host")
	names := []string{"Taras", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Kira"}
	h.playToRedWin(host, names)
	games := func(body string) int { return len(gameRowRE.FindAllString(body, -1)) }

	anon := h.get(h.client(), path).Body
	mine := h.get(taras, path).Body
	again := h.get(h.client(), path).Body
	if games(anon) != 1 || games(mine) != 1 || games(again) != 1 {
		t.Fatalf("the page lists %d, %d, %d games; want his one game to every reader", games(anon), games(mine), games(again))
	}
	if !strings.Contains(mine, `action="/logout"`) || strings.Contains(again, `action="/logout"`) || again != anon {
		t.Error("a kept page carried one reader's menu to another")
	}
	// a game saved: the next reader sees it
	h.playToRedWin(host, names)
	if n := games(h.get(h.client(), path).Body); n != 2 {
		t.Errorf("after his second game the page lists %d games", n)
	}
	// a photo uploaded: the page shows it at once
	if strings.Contains(h.get(h.client(), path).Body, `class="photo"`) {
		t.Fatal("a photo before any was uploaded")
	}
	png := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 64)...)
	if r := h.multipart(taras, "/me/profile", map[string]string{"nick": "Taras"}, "photo", png); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("profile: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if !strings.Contains(h.get(h.client(), path).Body, `class="photo"`) {
		t.Error("the page does not show the photo just uploaded")
	}
}
