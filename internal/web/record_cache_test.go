package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// TestGamePageKept: a saved club game's public page (and its protocol) is drawn once and kept, yet a reader with an
// account gets his own menu, and each change of the game shows on the next reading.
func TestGamePageKept(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	id := h.playToRedWin(host, []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Kira"})
	path := fmt.Sprintf("/history/%d", id)
	for _, p := range []string{path, path + "?view=protocol"} {
		first, second := h.get(h.client(), p).Body, h.get(h.client(), p).Body
		if first != second || !strings.Contains(first, "Kira") {
			t.Errorf("%s: two public readings differ, or miss a player", p)
		}
		if mine := h.get(host, p).Body; !strings.Contains(mine, `action="/logout"`) || strings.Contains(second, `action="/logout"`) {
			t.Errorf("%s: a kept page carried one reader's menu to another", p)
		}
	}
	if h.get(h.client(), path).Body == h.get(h.client(), path+"?view=protocol").Body {
		t.Error("the protocol is the game's page")
	}
	// a game that ended and is not saved yet is public too: its host corrects a name, then saves it; each
	// reading after each change shows it
	names := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Kira"}
	extra := url.Values{}
	for i, n := range names {
		extra.Set(fmt.Sprintf("name%d", i+1), n)
	}
	id = h.newGame(host, "fiim-2025-club", tenRoles, extra)
	for _, s := range []string{"3", "7", "9"} {
		h.mustAct(host, id, "type", "disqualify", "seat", s, "reason", "test")
	}
	path = fmt.Sprintf("/history/%d", id)
	for _, p := range []string{path, path + "?view=protocol"} {
		if b := h.get(h.client(), p).Body; !strings.Contains(b, "Kira") {
			t.Fatalf("%s: the ended game's page does not show its players", p)
		}
	}
	if r := h.correct(host, id, h.seatsFix(id, nil, map[int]string{10: "Lada"}, "mistyped")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("correction: %d %s", r.StatusCode, errorOf(r.Body))
	}
	for _, p := range []string{path, path + "?view=protocol"} {
		if b := h.get(h.client(), p).Body; !strings.Contains(b, "Lada") || strings.Contains(b, "Kira") {
			t.Errorf("%s after the correction does not show it", p)
		}
	}
	if r := h.post(host, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {strconv.FormatInt(h.version(id), 10)}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if b := h.get(h.client(), path).Body; !strings.Contains(b, "Lada") || !strings.Contains(b, "рейтингова") {
		t.Errorf("%s after the save does not show it rated", path)
	}
}
