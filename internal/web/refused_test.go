package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
)

// An answer to a refused request carries nothing of the game it refused. The walk reads the site's own route
// table (Server.Routes), so a route added later is walked too: every route whose path takes a game ({game}, the
// only name gameID reads) is asked, with
// its method and with plain and script forms, about two live games in their night (a club game and a tournament
// table's game) by everyone not entitled to their cards: a host and an admin who sit at the club game's table, an
// admin who is neither the tournament table's judge nor its chief judge, and an anonymous visitor. No answer may
// carry a role's name, a shot or a check, and nothing may change either game. (A seated admin's "reopen" of the live
// game once answered with its whole host page.)
func TestRefusedRequestsCarryNoCards(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		refusedRequestsCarryNoCards(t, newHarnessOn(t, filepath.Join(t.TempDir(), "club.db")))
	})
	t.Run("PostgreSQL", func(t *testing.T) { refusedRequestsCarryNoCards(t, newHarnessOn(t, storetest.FreshPostgres(t))) })
}

// wildcardRE finds a pattern's wildcards ({game}, {pid}, {file...}); {$} is an exact end, not a wildcard.
var wildcardRE = regexp.MustCompile(`\{([a-z]+)(\.\.\.)?\}`)

// intoNight plays a live game of ten seats (roles by seat, 1-based) through day 1 into night 2, where the blacks
// shoot the first red seat and the don and the sheriff check: the game then holds a shot and two checks.
func (h *harness) intoNight(c *http.Client, id int64, roles map[int]string) {
	h.t.Helper()
	h.mustAct(c, id, "type", "day")
	for s := 1; s <= 10; s++ {
		h.mustAct(c, id, "type", "speech", "seat", strconv.Itoa(s))
	}
	h.mustAct(c, id, "type", "night")
	don, sheriff, red := 0, 0, 0
	for s := 1; s <= 10; s++ {
		switch roles[s] {
		case "don":
			don = s
		case "sheriff":
			sheriff = s
		case "citizen":
			if red == 0 {
				red = s
			}
		}
	}
	h.mustAct(c, id, "type", "shoot_all", "target", strconv.Itoa(red))
	h.mustAct(c, id, "type", "check", "by", strconv.Itoa(don), "target", strconv.Itoa(sheriff))
	h.mustAct(c, id, "type", "check", "by", strconv.Itoa(sheriff), "target", strconv.Itoa(don))
}

func refusedRequestsCarryNoCards(t *testing.T, h *harness) {
	ctx := context.Background()
	runner := h.login("host", "demo-host") // the club game's host, and the tournament table's judge
	hostUser, _ := h.store.UserByLogin(ctx, "host")
	chief := h.user("chief", club.RoleAdmin)
	chiefUser, _ := h.store.UserByLogin(ctx, "chief")
	organiser := h.user("organiser", club.RoleAdmin) // an admin, not the tournament table's judge nor its chief
	seatedHost := h.seatedUser("playinghost", "Alpha", club.RoleHost)
	seatedAdmin := h.seatedUser("playingadmin", "Bravo", club.RoleAdmin)
	anon := h.client()

	// the club game: the seated host and admin play it (seats 3 and 5), the runner hosts it into night 2
	clubRoles := map[int]string{}
	for i, r := range tenRoles {
		clubRoles[i+1] = r
	}
	resp := h.post(runner, "/games", alphaBravoGame())
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("new game: %d %s", resp.StatusCode, errorOf(resp.Body))
	}
	clubGame := mustID(t, resp.Header.Get("Location"))
	h.intoNight(runner, clubGame, clubRoles)

	// the tournament game: the chief judge makes a tournament of one table, the runner judges it and plays it into
	// night 2 with the cards the server dealt
	r := h.post(chief, "/tournaments", url.Values{"name": {"Walk Cup"}, "from": {"2027-03-13"}, "to": {"2027-03-14"}, "place": {"Hall"},
		"rules": {"fiim-xcraft"}, "chief": {strconv.FormatInt(chiefUser.ID, 10)}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("tournament: %d %s", r.StatusCode, errorOf(r.Body))
	}
	tour := r.Header.Get("Location")
	tourID := mustID(t, tour)
	for i := 1; i <= 10; i++ {
		if r := h.post(chief, tour+"/participants", url.Values{"name": {fmt.Sprintf("Walker %d", i)}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("participant: %d %s", r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(chief, tour+"/stages", url.Values{"name": {"Qualifying"}, "rounds": {"1"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("stage: %d %s", r.StatusCode, errorOf(r.Body))
	}
	stages, _ := h.store.Stages(ctx, tourID)
	stage := strconv.FormatInt(stages[0].ID, 10)
	if r := h.post(chief, tour+"/judge", url.Values{"stage": {stage}, "table": {"1"}, "user": {strconv.FormatInt(hostUser.ID, 10)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("judge: %d %s", r.StatusCode, errorOf(r.Body))
	}
	r = h.post(runner, tour+"/start", url.Values{"stage": {stage}, "round": {"1"}, "table": {"1"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d %s", r.StatusCode, errorOf(r.Body))
	}
	tourGame := mustID(t, r.Header.Get("Location"))
	g, err := h.store.Game(ctx, tourGame)
	if err != nil {
		t.Fatal(err)
	}
	tourRoles := map[int]string{}
	for _, s := range g.Seats {
		tourRoles[s.Seat] = s.Role
	}
	h.intoNight(runner, tourGame, tourRoles)

	// the detector sees the cards where they are shown: the game's host gets them
	for _, id := range []int64{clubGame, tourGame} {
		if r := h.get(runner, fmt.Sprintf("/games/%d", id)); r.StatusCode != http.StatusOK || len(hidden(r.Body)) == 0 {
			t.Fatalf("game %d: the host's own page %d shows no cards the walk could find (%v)", id, r.StatusCode, hidden(r.Body))
		}
	}

	type persona struct {
		name   string
		c      *http.Client
		barred []int64 // the live games whose cards he may not see
	}
	personas := []persona{
		{"a seated host", seatedHost, []int64{clubGame, tourGame}},
		{"a seated admin", seatedAdmin, []int64{clubGame, tourGame}},
		{"an admin who does not judge the table", organiser, []int64{tourGame}},
		{"an anonymous visitor", anon, []int64{clubGame, tourGame}},
	}
	versions := map[int64]int64{clubGame: h.version(clubGame), tourGame: h.version(tourGame)}

	routes := h.site.Routes()
	walked := 0
	for _, pattern := range routes {
		method, path, ok := strings.Cut(pattern, " ")
		if !ok {
			method, path = "", pattern
		}
		if !strings.Contains(path, "{game}") {
			continue // it takes no game
		}
		methods := []string{method}
		switch method {
		case "":
			methods = []string{http.MethodGet, http.MethodPost}
		case http.MethodGet:
			methods = []string{http.MethodGet, http.MethodHead}
		}
		for _, p := range personas {
			for _, id := range p.barred {
				for _, path := range fill(path, id) {
					for _, m := range methods {
						for _, req := range probesOf(m, path, versions[id]) {
							walked++
							got := h.sendProbe(ctx, p.c, req)
							if found := cardsIn(got.Body); len(found) > 0 {
								t.Errorf("%s, %s %s (%s) on game %d: %d, the answer shows %v", p.name, m, path, req.name, id, got.StatusCode, found)
							}
						}
					}
				}
			}
		}
	}
	for id, v := range versions {
		if now := h.version(id); now != v {
			t.Errorf("game %d changed under the walk: version %d, was %d", id, now, v)
		}
	}
	if walked < 400 {
		t.Fatalf("the walk made %d requests over %d routes: the route table lost its routes that take an id", walked, len(routes))
	}
	t.Logf("%d requests over the %d routes", walked, len(routes))
}

// cardsIn is hidden, less the spectators' view's flag that says its roles are not shown ("roles":false).
func cardsIn(body string) []string {
	return hidden(strings.ReplaceAll(body, `"roles":false`, ""))
}

// fill gives the paths of a pattern's path for a game id: {game} is the game, {pid} the first of its protests
// (none: the refusal is the answer), any other wildcard a word.
func fill(path string, game int64) []string {
	path = strings.ReplaceAll(path, "{$}", "")
	out := []string{path}
	for _, m := range wildcardRE.FindAllStringSubmatch(path, -1) {
		var values []string
		switch m[1] {
		case "game":
			values = []string{strconv.FormatInt(game, 10)}
		case "pid":
			values = []string{"1"}
		default:
			values = []string{"x"}
		}
		var next []string
		for _, p := range out {
			for _, v := range values {
				next = append(next, strings.Replace(p, m[0], v, 1))
			}
		}
		out = next
	}
	return out
}

type probeReq struct {
	name, method, path string
	form               url.Values
	json               bool
}

// probesOf are the requests a walk sends to a path: a read plainly, as the script does, and as the broadcast; a
// change with the game's version and with 0, as a form and as the script, with every field a game's change reads.
func probesOf(method, path string, version int64) []probeReq {
	if method == http.MethodGet || method == http.MethodHead {
		return []probeReq{
			{name: "plain", method: method, path: path},
			{name: "script", method: method, path: path, json: true},
			{name: "broadcast", method: method, path: path + "?mode=broadcast"},
		}
	}
	full := url.Values{"version": {strconv.FormatInt(version, 10)}, "confirm": {"yes"}, "rated": {"yes"}, "type": {"foul"},
		"seat": {"2"}, "delay": {"0"}, "upheld": {"yes"}, "reason": {"walk"}, "text": {"walk"}}
	zero := url.Values{"version": {"0"}, "confirm": {"yes"}}
	keyed := url.Values{"version": {strconv.FormatInt(version, 10)}, "type": {"foul"}, "seat": {"2"}, "key": {"walk-key-" + strconv.FormatInt(time.Now().UnixNano(), 36)}}
	return []probeReq{
		{name: "form", method: method, path: path, form: full},
		{name: "form at version 0", method: method, path: path, form: zero},
		{name: "script", method: method, path: path, form: keyed, json: true},
		{name: "script at version 0", method: method, path: path, form: zero, json: true},
	}
}

// sendProbe sends a probe and reads its answer; a stream that is served is cut after a moment.
func (h *harness) sendProbe(ctx context.Context, c *http.Client, p probeReq) response {
	h.t.Helper()
	cctx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
	defer cancel()
	var body io.Reader
	if p.form != nil {
		body = strings.NewReader(p.form.Encode())
	}
	req, _ := http.NewRequestWithContext(cctx, p.method, h.srv.URL+p.path, body)
	if p.form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if p.json {
		req.Header.Set("Accept", "application/json")
	}
	res, err := c.Do(req)
	if err != nil {
		h.t.Fatalf("%s %s: %v", p.method, p.path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body) // a stream ends with the context's deadline: what came until then is read
	return response{res.StatusCode, res.Header, string(b)}
}
