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

	"mafiaclub/internal/club"
)

// TestTournamentFlow runs a small tournament through the site: creation, ten players, one stage of two rounds at
// one table, the judge's games, a judge's extra points that need the chief judge, protests in and out of their
// window, the decision, and the standings.
func TestTournamentFlow(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2027, 3, 13, 10, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin") // the organiser and the chief judge
	judge := h.login("host", "demo-host")   // the table's judge
	adminUser, _ := h.store.UserByLogin(context.Background(), "admin")
	hostUser, _ := h.store.UserByLogin(context.Background(), "host")

	r := h.post(admin, "/tournaments", url.Values{"name": {"Spring Cup"}, "from": {"2027-03-13"}, "to": {"2027-03-14"}, "place": {"Hall"},
		"rules": {"fiim-xcraft"}, "chief": {strconv.FormatInt(adminUser.ID, 10)}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d %s", r.StatusCode, errorOf(r.Body))
	}
	tour := r.Header.Get("Location")
	if r := h.post(judge, "/tournaments", url.Values{"name": {"X"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a host creates a tournament: %d", r.StatusCode)
	}
	// a club member who plays, signed up and approved, so that she can protest
	if r := h.post(h.client(), "/signup", url.Values{"login": {"olha"}, "nick": {"Olena"}, "password": {"secret-pass"}, "password2": {"secret-pass"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign-up: %d", r.StatusCode)
	}
	olha := h.login("olha", "secret-pass")
	olhaUser, _ := h.store.UserByLogin(context.Background(), "olha")
	if err := h.store.ChangeMember(context.Background(), club.MemberChange{At: clk.t, UserID: olhaUser.ID, By: adminUser.ID, Field: "status", To: "active", Reason: "known"}); err != nil {
		t.Fatal(err)
	}
	names := []string{"Olena", "Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Guest Ten"}
	for _, n := range names {
		if r := h.post(admin, tour+"/participants", url.Values{"name": {n}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("add %s: %d %s", n, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(admin, tour+"/participants", url.Values{"name": {"joker"}}); r.StatusCode != http.StatusConflict {
		t.Errorf("a player twice: %d", r.StatusCode)
	}
	if r := h.post(admin, tour+"/stages", url.Values{"name": {"Qualifying"}, "rounds": {"2"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("stage: %d %s", r.StatusCode, errorOf(r.Body))
	}
	stage, _ := h.store.Stages(context.Background(), mustID(t, tour))
	if len(stage) != 1 || len(stage[0].Schedule) != 2 || len(stage[0].Schedule[0][0]) != 10 {
		t.Fatalf("schedule: %+v", stage)
	}
	st := strconv.FormatInt(stage[0].ID, 10)
	// the recorded seed reproduces the schedule: reseat with another seed, then with the recorded one
	first, seed := stage[0].Schedule, stage[0].Seed
	// a mistyped number is refused with the field named, and the schedule stays as it was
	before := h.get(admin, tour).Body
	if r := h.post(admin, tour+"/reseat", url.Values{"stage": {st}, "seed": {"12x45"}}); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "«seed»: потрібне ціле число") {
		t.Errorf("a seed that is not a number: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if h.get(admin, tour).Body != before {
		t.Error("a refused reseat changed the tournament page")
	}
	if r := h.post(admin, tour+"/reseat", url.Values{"stage": {st}, "seed": {"12345"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("reseat: %d %s", r.StatusCode, errorOf(r.Body))
	}
	other, _ := h.store.Stage(context.Background(), stage[0].ID)
	if r := h.post(admin, tour+"/reseat", url.Values{"stage": {st}, "seed": {strconv.FormatInt(seed, 10)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("reseat: %d", r.StatusCode)
	}
	again, _ := h.store.Stage(context.Background(), stage[0].ID)
	if fmt.Sprint(again.Schedule) != fmt.Sprint(first) || fmt.Sprint(other.Schedule) == fmt.Sprint(first) {
		t.Errorf("the recorded seed does not reproduce the schedule (or another seed gives the same)")
	}
	for _, table := range []string{"0", "2", "-1"} {
		if r := h.post(admin, tour+"/judge", url.Values{"stage": {st}, "table": {table}, "user": {strconv.FormatInt(hostUser.ID, 10)}}); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "столи від 1 до 1") {
			t.Errorf("a judge for table %s of a one-table stage: %d %q", table, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(admin, tour+"/judge", url.Values{"stage": {st}, "table": {"1"}, "user": {strconv.FormatInt(hostUser.ID, 10)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("judge: %d", r.StatusCode)
	}
	page := h.get(h.client(), tour).Body
	if !strings.Contains(page, "номери місць: гравець на одному місці щонайбільше 1 раз (найкраще можливе: 1)") || !strings.Contains(page, "Ще немає збережених ігор") {
		t.Errorf("the tournament page lacks the seating figures or the empty standings")
	}
	// the member cannot start a game; the judge does, with the schedule's seats
	if r := h.post(olha, tour+"/start", url.Values{"stage": {st}, "round": {"1"}, "table": {"1"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a member starts a game: %d", r.StatusCode)
	}
	play := func(round string) int64 {
		r := h.post(judge, tour+"/start", url.Values{"stage": {st}, "round": {round}, "table": {"1"}})
		if r.StatusCode != http.StatusSeeOther {
			t.Fatalf("start round %s: %d %s", round, r.StatusCode, errorOf(r.Body))
		}
		id, _ := strconv.ParseInt(strings.TrimPrefix(r.Header.Get("Location"), "/games/"), 10, 64)
		g, _ := h.store.Game(context.Background(), id)
		black := 0
		for _, s := range g.Seats {
			if s.Role == "mafia" && black == 0 {
				black = s.Seat
			}
		}
		h.mustAct(judge, id, "type", "team_loss", "seat", strconv.Itoa(black), "reason", "oath")
		return id
	}
	g1 := play("1")
	if r := h.post(admin, tour+"/reseat", url.Values{"stage": {st}, "seed": {"1"}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("reseating a stage that has begun: %d", r.StatusCode)
	}
	// a member of the game cannot act on it: the protocol is the judge's
	if r := h.act(olha, g1, "type", "adjust", "seat", "1", "points", "0.2"); r.StatusCode != http.StatusForbidden {
		t.Errorf("a player edits the game: %d", r.StatusCode)
	}
	// a host who is not the table's judge is refused the undo and the save alike, by the plain form and by the
	// script (issue 23, item 4: the plain forms were a 500)
	stranger := h.user("stranger", club.RoleHost)
	for _, path := range []string{"undo", "save"} {
		form := url.Values{"version": {strconv.FormatInt(h.version(g1), 10)}, "confirm": {"yes"}, "rated": {"yes"}}
		if r := h.post(stranger, fmt.Sprintf("/games/%d/%s", g1, path), form); r.StatusCode != http.StatusForbidden {
			t.Errorf("another host's plain %s: %d, want 403", path, r.StatusCode)
		}
		if r := h.jsonPost(stranger, fmt.Sprintf("/games/%d/%s", g1, path), form); r.StatusCode != http.StatusForbidden {
			t.Errorf("another host's %s by the script: %d, want 403", path, r.StatusCode)
		}
	}
	// the judge's 0.6 for a winner needs the chief judge's agreement (§T6.1.3); 0.4 does not
	g, _ := h.store.Game(context.Background(), g1)
	winner := 0
	for _, s := range g.Seats {
		if s.Role == "citizen" && winner == 0 {
			winner = s.Seat
		}
	}
	// 0.75 is over a winner's cap with the agreement too: refused as over the cap, not as waiting for the agreement
	if r := h.act(judge, g1, "type", "adjust", "seat", strconv.Itoa(winner), "points", "0.75", "reason", "led the table"); r.StatusCode == http.StatusSeeOther ||
		!strings.Contains(errorOf(r.Body), "не більше 0,7") || strings.Contains(errorOf(r.Body), "згоди") {
		t.Errorf("0.75 to a winner: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.act(judge, g1, "type", "adjust", "seat", strconv.Itoa(winner), "points", "0.6", "reason", "led the table"); r.StatusCode != http.StatusForbidden || !strings.Contains(errorOf(r.Body), "потребує згоди головного судді") {
		t.Errorf("0.6 without the chief judge: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(judge, fmt.Sprintf("/games/%d/approve-extra", g1), url.Values{"seat": {strconv.Itoa(winner)}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a table judge approves: %d", r.StatusCode)
	}
	for _, seat := range []string{"0", "11", "x"} {
		if r := h.post(admin, fmt.Sprintf("/games/%d/approve-extra", g1), url.Values{"seat": {seat}}); r.StatusCode != http.StatusBadRequest {
			t.Errorf("an agreement for seat %q: %d %q", seat, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(admin, fmt.Sprintf("/games/%d/approve-extra", g1), url.Values{"seat": {strconv.Itoa(winner)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the chief judge approves: %d", r.StatusCode)
	}
	h.mustAct(judge, g1, "type", "adjust", "seat", strconv.Itoa(winner), "points", "0.6", "reason", "led the table")
	v := strconv.FormatInt(h.version(g1), 10)
	if r := h.post(judge, fmt.Sprintf("/games/%d/save", g1), url.Values{"version": {v}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", r.StatusCode)
	}
	// protests: a player of the game within ten minutes of its end; a second on a decided matter is refused
	clk.t = clk.t.Add(9*time.Minute + 59*time.Second)
	if page := h.get(olha, fmt.Sprintf("/history/%d", g1)).Body; !strings.Contains(page, "Ви можете подати протест ще 0:01") {
		t.Errorf("the time left is not shown")
	}
	if r := h.post(olha, fmt.Sprintf("/history/%d/protests", g1), url.Values{"matter": {"result"}, "text": {"the oath was a joke"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("protest at 9:59: %d %s", r.StatusCode, errorOf(r.Body))
	}
	ps, _ := h.store.Protests(context.Background(), g1)
	if len(ps) != 1 {
		t.Fatalf("protests: %+v", ps)
	}
	if r := h.post(judge, fmt.Sprintf("/history/%d/protests/%d", g1, ps[0].ID), url.Values{"upheld": {"yes"}, "reason": {"x"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a table judge decides a protest: %d", r.StatusCode)
	}
	if r := h.post(admin, fmt.Sprintf("/history/%d/protests/%d", g1, ps[0].ID), url.Values{"upheld": {"no"}, "reason": {"the video shows a real oath"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("decide: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(admin, fmt.Sprintf("/history/%d/protests/%d", g1, ps[0].ID), url.Values{"upheld": {"yes"}, "reason": {"changed"}}); r.StatusCode == http.StatusSeeOther {
		t.Error("a decided protest was decided again")
	}
	clk.t = clk.t.Add(2 * time.Second) // 10:01
	if r := h.post(olha, fmt.Sprintf("/history/%d/protests", g1), url.Values{"matter": {"points"}, "text": {"late"}}); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "десять хвилин після кінця гри минули") {
		t.Errorf("protest at 10:01: %d %q", r.StatusCode, errorOf(r.Body))
	}
	// the protocol shows the tournament, the reasons and the decision
	proto := h.get(h.client(), fmt.Sprintf("/history/%d?view=protocol", g1)).Body
	for _, want := range []string{"Spring Cup", "Qualifying", "led the table", "the video shows a real oath", "підтверджено"} {
		if !strings.Contains(proto, want) {
			t.Errorf("the protocol lacks %q", want)
		}
	}
	// the second game; the standings count both, with the winner's extra points
	g2 := play("2")
	v = strconv.FormatInt(h.version(g2), 10)
	h.post(judge, fmt.Sprintf("/games/%d/save", g2), url.Values{"version": {v}, "rated": {"yes"}})
	page = h.get(h.client(), tour).Body
	// a Ukrainian page: a decimal comma
	if !regexp.MustCompile(`<td class="total">1,60</td><td>0,60</td>`).MatchString(page) && !regexp.MustCompile(`<td class="total">2,60</td><td>0,60</td>`).MatchString(page) {
		t.Errorf("the standings do not show the winner's extra 0.60")
	}
	csv := h.get(h.client(), tour+"/standings.csv").Body
	if lines := strings.Count(csv, "\n"); lines != 11 {
		t.Errorf("csv: %d lines, want a header and 10 players", lines)
	}
	// a final of the top ten; two players kept apart cannot both sit at the only table
	if r := h.post(admin, tour+"/stages", url.Values{"name": {"Final"}, "rounds": {"1"}, "top": {"10"}, "apart": {"Joker-Dana"}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("pairs kept apart at one table: %d", r.StatusCode)
	}
	if r := h.post(admin, tour+"/stages", url.Values{"name": {"Final"}, "rounds": {"1"}, "top": {"20"}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a final of more players than have results: %d", r.StatusCode)
	}
	if r := h.post(admin, tour+"/stages", url.Values{"name": {"Final"}, "rounds": {"1"}, "top": {"10"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the final: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if stages, _ := h.store.Stages(context.Background(), mustID(t, tour)); len(stages) != 2 || stages[1].Name != "Final" {
		t.Errorf("stages: %d", len(stages))
	}
}

func mustID(t *testing.T, path string) int64 {
	t.Helper()
	id, err := strconv.ParseInt(path[strings.LastIndex(path, "/")+1:], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return id
}
