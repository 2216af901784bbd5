package web_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"mafiaclub/internal/i18n"
	"mafiaclub/internal/web"
	"mafiaclub/mafia"
)

// TestGameHandoutOnRandomDeal: a game whose roles the server dealt at random opens with the handout, seat by seat,
// with the gesture of the role each seat got (000 L69); a game dealt with real cards (roles entered by hand) does
// not. The game remembers how it was dealt.
func TestGameHandoutOnRandomDeal(t *testing.T) {
	h := newHarness(t)
	c := h.login("admin", "demo-admin")
	cat := mustCatalog(t)
	h.post(c, "/lang", url.Values{"lang": {"en"}})
	random := h.newGame(c, "fiim-2025-club", tenRoles, url.Values{"deal": {"random"}})
	byHand := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	g, err := h.store.Game(context.Background(), random)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Dealt {
		t.Error("the game dealt at random does not say so")
	}
	page := html.UnescapeString(h.get(c, fmt.Sprintf("/games/%d", random)).Body)
	steps := regexp.MustCompile(`(?s)<li class="step[^"]*" data-key="[^"]*handout[^"]*" data-limit="(\d+)" data-event="">\s*<span class="label">([^<]*)</span>`).FindAllStringSubmatch(page, -1)
	if len(steps) != 10 {
		t.Fatalf("%d handout steps, want one per seat", len(steps))
	}
	for i, s := range g.Seats {
		role, _ := mafia.ParseRole(s.Role)
		want := cat.T("en", "step.handout", i+1, cat.T("en", "role."+s.Role), cat.T("en", "gesture."+mafia.RoleGesture(role).String()))
		if steps[i][2] != want || steps[i][1] == "0" {
			t.Errorf("handout step %d: %q (%s s), want %q with a time limit", i+1, steps[i][2], steps[i][1], want)
		}
	}
	if g, _ := h.store.Game(context.Background(), byHand); g.Dealt {
		t.Error("the game dealt with real cards says it was dealt at random")
	}
	if page := h.get(c, fmt.Sprintf("/games/%d", byHand)).Body; strings.Contains(page, "handout") {
		t.Error("the game dealt with real cards has a handout")
	}
	h.mustAct(c, random, "type", "day")
	if page := h.get(c, fmt.Sprintf("/games/%d", random)).Body; strings.Contains(page, "handout") {
		t.Error("the handout is still shown on day 1")
	}
}

// TestGameProtocolWords: the English protocol has Latin role letters and the rule set's English title, the
// Ukrainian one the Ukrainian title; no line prints its seat number twice ("#5 #5: +0.30"). The host page and the
// new-game form use the same translated titles, and the host page writes fouls and time limits in the language.
func TestGameProtocolWords(t *testing.T) {
	h := newHarness(t)
	c := h.login("admin", "demo-admin")
	cat := mustCatalog(t)
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	h.mustAct(c, id, "type", "day")
	h.mustAct(c, id, "type", "foul", "seat", "4")
	h.mustAct(c, id, "type", "foul", "seat", "4")
	host := html.UnescapeString(h.get(c, fmt.Sprintf("/games/%d", id)).Body)
	for _, want := range []string{cat.T("uk", "ruleset.fiim-2025-club"), cat.N("uk", "game.fouls.n", 2), cat.T("uk", "game.seconds", 60)} {
		if !strings.Contains(host, want) {
			t.Errorf("the Ukrainian host page lacks %q", want)
		}
	}
	if strings.Contains(host, "FIIM 2025, club rules") || strings.Contains(host, "60 s<") {
		t.Error("the Ukrainian host page shows the English title or unit")
	}
	h.mustAct(c, id, "type", "team_loss", "seat", "3", "reason", "peeking")
	h.mustAct(c, id, "type", "adjust", "seat", "5", "points", "0.3", "reason", "clear play")
	v := fmt.Sprint(h.version(id))
	if r := h.post(c, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {v}, "rated": {"no"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	letters := regexp.MustCompile(`<td class="letter"[^>]*>([^<]*)</td>`)
	for _, lang := range web.Languages {
		h.post(c, "/lang", url.Values{"lang": {lang}})
		proto := html.UnescapeString(h.get(c, fmt.Sprintf("/history/%d?view=protocol", id)).Body)
		var got []string
		for _, m := range letters.FindAllStringSubmatch(proto, -1) {
			got = append(got, m[1])
		}
		var want []string
		for _, r := range tenRoles {
			want = append(want, cat.T(lang, "letter."+r))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s protocol letters %q, want %q", lang, got, want)
		}
		if lang == "en" && regexp.MustCompile(`\p{Cyrillic}`).MatchString(strings.Join(got, "")) {
			t.Errorf("the English protocol has Cyrillic role letters %q", got)
		}
		if title := cat.T(lang, "ruleset.fiim-2025-club"); !strings.Contains(proto, "<td>"+title+"</td>") {
			t.Errorf("%s protocol lacks the rule set's title %q", lang, title)
		}
		if twice := regexp.MustCompile(`#(\d+) #(\d+)\b`).FindAllStringSubmatch(proto, -1); len(twice) > 0 {
			for _, m := range twice {
				if m[1] == m[2] {
					t.Errorf("%s protocol prints a seat twice: %q", lang, m[0])
				}
			}
		}
		if want := cat.T(lang, "ev.adjust", 5, i18n.Decimal(lang, "+0.30")) + " — clear play"; !strings.Contains(proto, want) {
			t.Errorf("%s protocol lacks the correction %q", lang, want)
		}
		form := html.UnescapeString(h.get(c, "/games/new").Body)
		if title := cat.T(lang, "ruleset.fsm-2026"); !strings.Contains(form, `<option value="fsm-2026">`+title+`</option>`) {
			t.Errorf("%s new-game form lacks the title %q", lang, title)
		}
	}
}
