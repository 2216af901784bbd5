package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
)

// TestTakeOverInChronology: a game another host takes over says so in its chronology, in the phase and at the
// place it happened (before the action that took it), not among the entries "show roles" reveals; the first
// host's page and state carry, for his device to say once, who took the game over (the new host's carry nothing).
func TestTakeOverInChronology(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	first := h.login("host", "demo-host")
	id := h.newGame(first, "fiim-2025-club", tenRoles, nil)
	h.mustAct(first, id, "type", "day")
	h.mustAct(first, id, "type", "speech", "seat", "1")
	other := h.user("other", club.RoleHost)
	h.mustAct(other, id, "type", "foul", "seat", "2")
	otherUser, _ := h.store.UserByLogin(ctx, "other")

	page := h.get(other, fmt.Sprintf("/games/%d", id)).Body
	chrono := regexp.MustCompile(`(?s)<ol id="chronology">(.*?)</ol>`).FindStringSubmatch(page)
	if chrono == nil {
		t.Fatal("the page has no chronology")
	}
	lines := regexp.MustCompile(`<li[^>]*>(.*?)</li>`).FindAllStringSubmatch(chrono[1], -1)
	var texts []string
	for _, l := range lines {
		texts = append(texts, html.UnescapeString(l[1]))
	}
	if len(texts) != 4 || !regexp.MustCompile(`^День 1, \d\d:\d\d:\d\d, other перебрав гру в ведучого Demo host$`).MatchString(texts[2]) ||
		!strings.HasSuffix(texts[3], "Фол #2") {
		t.Errorf("the chronology %q, want the take over between #1's speech and #2's foul", texts)
	}
	if audit := regexp.MustCompile(`(?s)<ul id="audit">.*?</ul>`).FindString(page); strings.Contains(audit, "перебрав") || strings.Contains(audit, "take_over") {
		t.Errorf("the take over is still among the hidden entries: %s", audit)
	}

	state := func(c any) hostview.Input {
		t.Helper()
		var in hostview.Input
		r := h.get(first, fmt.Sprintf("/games/%d/state.json", id))
		if c != nil {
			r = h.get(other, fmt.Sprintf("/games/%d/state.json", id))
		}
		if err := json.Unmarshal([]byte(r.Body), &in); err != nil {
			t.Fatalf("state: %v %s", err, r.Body)
		}
		return in
	}
	if in := state(nil); in.Host != otherUser.ID || !regexp.MustCompile(`^other перебрав цю гру о \d\d:\d\d:\d\d`).MatchString(in.TakenOver) {
		t.Errorf("the first host's state: host %d, notice %q; want other's (%d) take over", in.Host, in.TakenOver, otherUser.ID)
	}
	if in := state(other); in.Host != otherUser.ID || in.TakenOver != "" {
		t.Errorf("the new host's state: host %d, notice %q; want his own and none", in.Host, in.TakenOver)
	}
}
