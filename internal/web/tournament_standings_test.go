package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

var standingsRowRE = regexp.MustCompile(`<tr><td>\d+</td><td>([^<]*)</td><td class="total">[^<]*</td><td>[^<]*</td><td>\d+</td><td>\d+</td><td>\d+</td><td>(\d+)</td>`)

// TestTournamentStandingsFollowChanges: the standings a tournament's page shows are drawn once for what they are
// made of and kept, yet each change shows on the next reading: a game saved, a game reopened, a player replaced.
func TestTournamentStandingsFollowChanges(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2027, 3, 13, 10, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")
	adminUser, _ := h.store.UserByLogin(context.Background(), "admin")
	r := h.post(admin, "/tournaments", url.Values{"name": {"Autumn Cup"}, "from": {"2027-03-13"}, "to": {"2027-03-14"}, "place": {"Hall"},
		"rules": {"fiim-xcraft"}, "chief": {strconv.FormatInt(adminUser.ID, 10)}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d %s", r.StatusCode, errorOf(r.Body))
	}
	tour := r.Header.Get("Location")
	for _, n := range []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Kira"} {
		if r := h.post(admin, tour+"/participants", url.Values{"name": {n}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("add %s: %d %s", n, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(admin, tour+"/stages", url.Values{"name": {"Qualifying"}, "rounds": {"2"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("stage: %d %s", r.StatusCode, errorOf(r.Body))
	}
	stages, _ := h.store.Stages(context.Background(), mustID(t, tour))
	st := strconv.FormatInt(stages[0].ID, 10)
	// the whole tournament's standings, the first table of the page: each line's name and games
	standings := func() string {
		t.Helper()
		var first, second string
		for i := 0; i < 2; i++ { // the second reading is the kept one: both must say the same
			page := h.get(h.client(), tour).Body
			var lines []string
			if end := strings.Index(page, "</table>"); end > 0 {
				for _, m := range standingsRowRE.FindAllStringSubmatch(page[:end], -1) {
					lines = append(lines, m[1]+":"+m[2])
				}
			}
			first, second = second, strings.Join(lines, " ")
		}
		if first != second {
			t.Errorf("two readings differ: %q, then %q", first, second)
		}
		return second
	}
	games := func(s string) (n int) {
		for _, f := range strings.Fields(s) {
			k, _ := strconv.Atoi(f[strings.LastIndex(f, ":")+1:])
			n += k
		}
		return n
	}
	if s := standings(); s != "" {
		t.Fatalf("standings before any game: %q", s)
	}
	play := func(round string) int64 {
		r := h.post(admin, tour+"/start", url.Values{"stage": {st}, "round": {round}, "table": {"1"}})
		if r.StatusCode != http.StatusSeeOther {
			t.Fatalf("start round %s: %d %s", round, r.StatusCode, errorOf(r.Body))
		}
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.Header.Get("Location"), "/games/"), 10, 64)
		g, _ := h.store.Game(context.Background(), id)
		for _, s := range g.Seats {
			if s.Role == "mafia" {
				h.mustAct(admin, id, "type", "team_loss", "seat", strconv.Itoa(s.Seat), "reason", "oath")
				break
			}
		}
		if r := h.post(admin, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {strconv.FormatInt(h.version(id), 10)}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
		}
		return id
	}
	play("1")
	if n := games(standings()); n != 10 {
		t.Errorf("after one game the standings count %d games, want 10", n)
	}
	g2 := play("2")
	if n := games(standings()); n != 20 {
		t.Errorf("after two games the standings count %d games, want 20", n)
	}
	if r := h.post(admin, fmt.Sprintf("/games/%d/reopen", g2), url.Values{"version": {strconv.FormatInt(h.version(g2), 10)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("reopen: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if n := games(standings()); n != 10 {
		t.Errorf("after a game reopened the standings count %d games, want 10", n)
	}
	parts, _ := h.store.Participants(context.Background(), mustID(t, tour))
	if r := h.post(admin, tour+"/replace", url.Values{"participant": {strconv.FormatInt(parts[0].ID, 10)}, "substitute": {"Nord"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("replace: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if s := standings(); !strings.Contains(s, "Nord") {
		t.Errorf("after a player was replaced the standings do not name his substitute: %q", s)
	}
}
