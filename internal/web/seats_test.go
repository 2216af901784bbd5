package web_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
	"mafiaclub/internal/web"
	"mafiaclub/mafia"
)

// Issue 24, item 5: a mistyped card or name is corrected, with a reason, checked by the engine (the game replays
// from the start with the corrected cards), logged in the chronology; spectators see nothing of it the public view
// does not allow.

// seatsFix is the correction form of game id as the store has it, with cards (seat → role) and names (seat →
// name) changed. An unchanged seat is sent as the form shows it (a guest's seat ticked as one); a renamed seat is
// not ticked, so that its name is looked up among the club's players.
func (h *harness) seatsFix(id int64, cards map[int]string, names map[int]string, reason string) url.Values {
	h.t.Helper()
	g, err := h.store.Game(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	f := url.Values{"version": {strconv.FormatInt(g.Version, 10)}, "reason": {reason}}
	for _, s := range g.Seats {
		k := strconv.Itoa(s.Seat)
		name, role := s.Name, s.Role
		if r, ok := cards[s.Seat]; ok {
			role = r
		}
		n, renamed := names[s.Seat]
		if renamed {
			name = n
		}
		f.Set("name"+k, name)
		f.Set("role"+k, role)
		if s.PlayerID == 0 && !renamed {
			f.Set("guest"+k, "on")
		}
	}
	return f
}

// correct posts a correction and confirms it: the first post must show the confirmation and change nothing.
func (h *harness) correct(c *http.Client, id int64, f url.Values) response {
	h.t.Helper()
	path := fmt.Sprintf("/games/%d/seats", id)
	before, _ := h.store.Game(context.Background(), id)
	r := h.post(c, path, f)
	if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `id="seats-confirm"`) {
		return r // refused at the check: the caller looks at why
	}
	if after, _ := h.store.Game(context.Background(), id); after.Version != before.Version || !slices.Equal(after.Seats, before.Seats) {
		h.t.Fatalf("the check step changed the game")
	}
	confirmed := url.Values{"confirm": {"yes"}}
	for k, v := range f {
		confirmed[k] = v
	}
	return h.post(c, path, confirmed)
}

// playToSecondDay plays day 1 (#8 voted out) and night 2: #7 and #9 shoot at #1 but #3 does not (a miss, whoever
// the third black is), the don (#7) checks #5, the sheriff (#5) checks #4; then day 2 begins.
func (h *harness) playToSecondDay(c *http.Client, id int64) (check int) {
	h.t.Helper()
	h.mustAct(c, id, "type", "day")
	for s := 1; s <= 10; s++ {
		h.mustAct(c, id, "type", "speech", "seat", strconv.Itoa(s))
		if s == 1 {
			h.mustAct(c, id, "type", "nominate", "by", "1", "target", "8")
		}
		if s == 2 {
			h.mustAct(c, id, "type", "nominate", "by", "2", "target", "6")
		}
	}
	h.mustAct(c, id, "type", "vote", "target", "8", "voters", "1", "voters", "2", "voters", "3", "voters", "4", "voters", "5", "voters", "6")
	h.mustAct(c, id, "type", "vote", "target", "6")
	h.mustAct(c, id, "type", "night")
	h.mustAct(c, id, "type", "shot", "by", "7", "target", "1")
	h.mustAct(c, id, "type", "shot", "by", "9", "target", "1")
	h.mustAct(c, id, "type", "check", "by", "7", "target", "5")
	h.mustAct(c, id, "type", "check", "by", "5", "target", "4")
	log, _ := h.store.Events(context.Background(), id)
	check = len(log)
	h.mustAct(c, id, "type", "day")
	return check
}

func TestCorrectDealReplays(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { correctDealReplays(t, newHarness(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { correctDealReplays(t, newHarnessOn(t, storetest.FreshPostgres(t))) })
}

func correctDealReplays(t *testing.T, h *harness) {
	c := h.login("host", "demo-host")
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	h.playToSecondDay(c, id)
	// the cards of #3 and #4 were typed the wrong way round: #4 holds the mafia card
	f := h.seatsFix(id, map[int]string{3: "citizen", 4: "mafia"}, nil, "mistyped card at the start")
	r := h.post(c, fmt.Sprintf("/games/%d/seats", id), f)
	if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, "Ви змінюєте карти #3, #4; гра відтвориться з початку з ними.") ||
		!strings.Contains(r.Body, "#3: мафія → мирний") || !strings.Contains(r.Body, "#4: мирний → мафія") {
		t.Fatalf("the check step: %d %s", r.StatusCode, errorOf(r.Body))
	}
	// "change it" goes back to the form as filled in
	edit := url.Values{"edit": {"1"}}
	for k, v := range f {
		edit[k] = v
	}
	if r := h.post(c, fmt.Sprintf("/games/%d/seats", id), edit); r.StatusCode != http.StatusOK || formOf(t, r.Body).Get("role4") != "mafia" || strconv.FormatInt(h.version(id), 10) != f.Get("version") {
		t.Errorf("back to the form: %d %v", r.StatusCode, formOf(t, r.Body))
	}
	// the host page links to the form
	if page := h.get(c, fmt.Sprintf("/games/%d", id)).Body; !strings.Contains(page, fmt.Sprintf(`<a href="/games/%d/seats" id="correct-seats">`, id)) {
		t.Error("the host page has no link to the correction")
	}
	if r := h.correct(c, id, f); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("correction: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g, _ := h.store.Game(context.Background(), id)
	if g.Seats[2].Role != "citizen" || g.Seats[3].Role != "mafia" {
		t.Fatalf("seats after the correction: %+v", g.Seats)
	}
	page := h.get(c, fmt.Sprintf("/games/%d", id)).Body
	if !strings.Contains(page, "виправлено місця: #3: мафія → мирний; #4: мирний → мафія; причина: mistyped card at the start") {
		t.Errorf("the chronology does not show the correction with its reason")
	}
	// the blacks are #4, #7 and #9 now: disqualifying them ends the game, red wins
	for _, s := range []string{"4", "7", "9"} {
		h.mustAct(c, id, "type", "disqualify", "seat", s, "reason", "test")
	}
	got := h.replay(id)
	if !got.Finished() || got.Winner() != mafia.RedWins || got.Role(3) != mafia.Citizen || got.Role(4) != mafia.Mafia {
		t.Fatalf("after the correction: finished %v, winner %v, #3 %v, #4 %v", got.Finished(), got.Winner(), got.Role(3), got.Role(4))
	}
	// the points are those of the same game dealt right from the start
	roles := slices.Clone(tenRoles)
	roles[2], roles[3] = "citizen", "mafia"
	ref := h.newGame(c, "fiim-2025-club", roles, nil)
	h.playToSecondDay(c, ref)
	for _, s := range []string{"4", "7", "9"} {
		h.mustAct(c, ref, "type", "disqualify", "seat", s, "reason", "test")
	}
	want := h.replay(ref)
	for s := 1; s <= 10; s++ {
		if got.Points(s) != want.Points(s) {
			t.Errorf("seat %d: %d hundredths, want %d as dealt right", s, got.Points(s), want.Points(s))
		}
	}
	if got.Points(3) == 0 || got.Points(3) == got.Points(4) {
		t.Errorf("#3 (a red winner) has %d, #4 (a disqualified black) %d", got.Points(3), got.Points(4))
	}
	// saved, the results follow the corrected cards
	v := strconv.FormatInt(h.version(id), 10)
	if r := h.post(c, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {v}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if g, _ := h.store.Game(context.Background(), id); g.Winner != "red" {
		t.Errorf("saved winner %q", g.Winner)
	}
	// a saved game is corrected no more
	if page := h.get(c, fmt.Sprintf("/games/%d", id)).Body; strings.Contains(page, "correct-seats") {
		t.Error("a saved game's page links to the correction")
	}
	if r := h.get(c, fmt.Sprintf("/games/%d/seats", id)); r.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("the form of a saved game: %d", r.StatusCode)
	}
}

// playUnanimousNight plays day 1 (#8 voted out) and night 2, whose shot the host records in one tap, "all at #1"
// (the blacks of the deal typed shoot), then the don's (#7) and the sheriff's (#5) checks; then day 2 begins.
func (h *harness) playUnanimousNight(c *http.Client, id int64) {
	h.t.Helper()
	h.mustAct(c, id, "type", "day")
	for s := 1; s <= 10; s++ {
		h.mustAct(c, id, "type", "speech", "seat", strconv.Itoa(s))
		if s == 1 {
			h.mustAct(c, id, "type", "nominate", "by", "1", "target", "8")
		}
		if s == 2 {
			h.mustAct(c, id, "type", "nominate", "by", "2", "target", "6")
		}
	}
	h.mustAct(c, id, "type", "vote", "target", "8", "voters", "1", "voters", "2", "voters", "3", "voters", "4", "voters", "5", "voters", "6")
	h.mustAct(c, id, "type", "vote", "target", "6")
	h.mustAct(c, id, "type", "night")
	h.mustAct(c, id, "type", "shoot_all", "target", "1")
	h.mustAct(c, id, "type", "check", "by", "7", "target", "5")
	h.mustAct(c, id, "type", "check", "by", "5", "target", "4")
	h.mustAct(c, id, "type", "day")
}

// shooters lists who shot in game id's stored log, in its order.
func (h *harness) shooters(id int64) []int {
	h.t.Helper()
	log, err := h.store.Events(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []int
	for _, se := range log {
		if m := regexp.MustCompile(`^\{"type": "shot", "by": (\d+), "target": 1, "unanimous": true`).FindStringSubmatch(string(se.JSON)); m != nil {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
	}
	return out
}

func TestCorrectDealKeepsUnanimousShot(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { correctDealKeepsUnanimousShot(t, newHarness(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { correctDealKeepsUnanimousShot(t, newHarnessOn(t, storetest.FreshPostgres(t))) })
}

// correctDealKeepsUnanimousShot: a red and a black card swapped are corrected after a night whose shot was
// recorded as "all at #1": the correction is accepted, the shot stays, now by the corrected blacks, and the game
// replays as the same game dealt right from the start. A black card that belonged to a player voted out before the
// night leaves one shooter fewer.
func correctDealKeepsUnanimousShot(t *testing.T, h *harness) {
	c := h.login("host", "demo-host")
	for _, tc := range []struct {
		name     string
		cards    map[int]string
		shooters []int
	}{
		{"#3 and #4 swapped", map[int]string{3: "citizen", 4: "mafia"}, []int{4, 7, 9}},
		{"#3 and #8 (voted out on day 1) swapped", map[int]string{3: "citizen", 8: "mafia"}, []int{7, 9}},
	} {
		id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
		h.playUnanimousNight(c, id)
		if got := h.shooters(id); !slices.Equal(got, []int{3, 7, 9}) {
			t.Fatalf("%s: all at #1 recorded shots by %v", tc.name, got)
		}
		if r := h.correct(c, id, h.seatsFix(id, tc.cards, nil, "mistyped cards")); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: the correction is refused: %d %s", tc.name, r.StatusCode, errorOf(r.Body))
		}
		if got := h.shooters(id); !slices.Equal(got, tc.shooters) {
			t.Errorf("%s: the shot is by %v after the correction, want %v", tc.name, got, tc.shooters)
		}
		got := h.replay(id)
		if phase, _ := got.Phase(); got.Out(1).How != mafia.OutKilled || phase != mafia.PhaseDay {
			t.Errorf("%s: #1 is %+v on %v after the correction, want killed in the night", tc.name, got.Out(1), phase)
		}
		// the same game dealt right from the start
		roles := slices.Clone(tenRoles)
		for s, r := range tc.cards {
			roles[s-1] = r
		}
		ref := h.newGame(c, "fiim-2025-club", roles, nil)
		h.playUnanimousNight(c, ref)
		want := h.replay(ref)
		gp, gn := got.Phase()
		wp, wn := want.Phase()
		if got.Alive() != want.Alive() || gp != wp || gn != wn {
			t.Errorf("%s: the corrected game has %v alive on %v %d, the game dealt right %v on %v %d", tc.name, got.Alive(), gp, gn, want.Alive(), wp, wn)
		}
		// the page draws the corrected game, and the host goes on with it
		if page := h.get(c, fmt.Sprintf("/games/%d", id)); page.StatusCode != http.StatusOK {
			t.Errorf("%s: the host page after the correction: %d", tc.name, page.StatusCode)
		}
		h.mustAct(c, id, "type", "best_move", "by", "1", "targets", "3")
	}
	// a shot recorded for one black stays his: he cannot turn out red
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	h.playToSecondDay(c, id)
	if r := h.post(c, fmt.Sprintf("/games/%d/seats", id), h.seatsFix(id, map[int]string{9: "citizen", 10: "mafia"}, nil, "swapped")); r.StatusCode != http.StatusUnprocessableEntity ||
		!strings.Contains(errorOf(r.Body), "#9 стріляє в #1") {
		t.Errorf("#9's own shot with #9 red: %d %q, want it refused naming the shot", r.StatusCode, errorOf(r.Body))
	}
}

func TestCorrectDealRefusedNamingTheEvent(t *testing.T) {
	h := newHarness(t)
	c := h.login("host", "demo-host")
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	check := h.playToSecondDay(c, id)
	before, _ := h.store.Game(context.Background(), id)
	// #5 checked #4 as the sheriff: making him a citizen (and #6 the sheriff) makes that check impossible
	f := h.seatsFix(id, map[int]string{5: "citizen", 6: "sheriff"}, nil, "swapped")
	for _, confirm := range []string{"", "yes"} {
		f.Set("confirm", confirm)
		r := h.post(c, fmt.Sprintf("/games/%d/seats", id), f)
		msg := errorOf(r.Body)
		if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(msg, fmt.Sprintf("подія %d журналу стає неможливою (Ніч 2, ", check)) ||
			!strings.Contains(msg, "#5 перевіряє #4") || !strings.Contains(msg, "Нічого не змінено") {
			t.Errorf("confirm %q: %d %q, want 422 naming event %d, the sheriff's check", confirm, r.StatusCode, msg, check)
		}
		// the form comes back as the host filled it in
		if row := regexp.MustCompile(`(?s)name="role5".*?</select>`).FindString(r.Body); !strings.Contains(row, `<option value="citizen" selected>`) {
			t.Errorf("confirm %q: the form lost the corrected cards", confirm)
		}
	}
	after, _ := h.store.Game(context.Background(), id)
	if after.Version != before.Version || !slices.Equal(after.Seats, before.Seats) {
		t.Errorf("a refused correction changed the game")
	}
	if audit, _ := h.store.Audit(context.Background(), id); len(audit) != 0 {
		t.Errorf("a refused correction was logged: %+v", audit)
	}
	// a deal the rule set does not have (two sheriffs) and no reason are refused too
	for _, tc := range []struct {
		form url.Values
		want string
	}{
		{h.seatsFix(id, map[int]string{6: "sheriff"}, nil, "x"), "для 10 гравців роздає рівно: 6 × мирний, 1 × шериф"},
		{h.seatsFix(id, map[int]string{3: "citizen", 4: "mafia"}, nil, " "), "причин"},
		{h.seatsFix(id, nil, nil, "nothing"), "нічого виправляти"},
	} {
		if r := h.post(c, fmt.Sprintf("/games/%d/seats", id), tc.form); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), tc.want) {
			t.Errorf("%v: %d %q, want 400 with %q", tc.form, r.StatusCode, errorOf(r.Body), tc.want)
		}
	}
	if h.version(id) != before.Version {
		t.Errorf("a refused correction changed the game")
	}
}

func TestCorrectSeatsStaleVersion(t *testing.T) {
	h := newHarness(t)
	c := h.login("host", "demo-host")
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	h.mustAct(c, id, "type", "day")
	f := h.seatsFix(id, map[int]string{3: "citizen", 4: "mafia"}, nil, "mistyped")
	// another device records a speech between the check and the confirmation
	if r := h.post(c, fmt.Sprintf("/games/%d/seats", id), f); r.StatusCode != http.StatusOK {
		t.Fatalf("check: %d %s", r.StatusCode, errorOf(r.Body))
	}
	h.mustAct(c, id, "type", "speech", "seat", "1")
	v := h.version(id)
	f.Set("confirm", "yes")
	r := h.post(c, fmt.Sprintf("/games/%d/seats", id), f)
	if r.StatusCode != http.StatusConflict || !strings.Contains(errorOf(r.Body), "Хтось інший змінив цю гру") {
		t.Errorf("a stale correction: %d %q, want 409", r.StatusCode, errorOf(r.Body))
	}
	if !strings.Contains(r.Body, fmt.Sprintf(`name="version" value="%d"`, v)) {
		t.Errorf("the refused form does not carry the fresh version %d", v)
	}
	if g, _ := h.store.Game(context.Background(), id); g.Version != v || g.Seats[2].Role != "mafia" {
		t.Errorf("a stale correction changed the game: %+v", g)
	}
	// a correction raises the version: the page drawn before it cannot act over it
	f = h.seatsFix(id, map[int]string{3: "citizen", 4: "mafia"}, nil, "mistyped")
	if r := h.correct(c, id, f); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("correction: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if h.version(id) != v+1 {
		t.Errorf("version %d, want %d", h.version(id), v+1)
	}
	stale := h.post(c, fmt.Sprintf("/games/%d/act", id), url.Values{"version": {strconv.FormatInt(v, 10)}, "type": {"speech"}, "seat": {"2"}})
	if stale.StatusCode != http.StatusConflict {
		t.Errorf("an action made before the correction: %d, want 409", stale.StatusCode)
	}
}

func TestCorrectSeatsPermissions(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	host := h.login("host", "demo-host")
	member := h.user("member1", club.RoleMember)
	seated := h.seatedUser("playinghost", "Alpha", club.RoleHost)
	roles := url.Values{"name3": {"Alpha"}}
	id := h.newGame(host, "fiim-2025-club", tenRoles, roles)
	h.mustAct(host, id, "type", "day")
	path := fmt.Sprintf("/games/%d/seats", id)
	f := h.seatsFix(id, map[int]string{1: "mafia", 3: "citizen"}, nil, "typo")
	for name, c := range map[string]*http.Client{"a member": member, "a seated host": seated, "nobody": h.client()} {
		if r := h.get(c, path); r.StatusCode == http.StatusOK {
			t.Errorf("%s opens the form: %d", name, r.StatusCode)
		}
		f.Set("confirm", "yes")
		if r := h.post(c, path, f); r.StatusCode != http.StatusForbidden && r.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s corrects: %d", name, r.StatusCode)
		}
		if r := h.get(c, path); strings.Contains(r.Body, "мафія") {
			t.Errorf("%s is shown the cards", name)
		}
	}
	// the host may not seat himself at the table he runs by renaming a seat to his own nickname
	other := h.seatedUser("otherhost", "Bravo", club.RoleHost)
	f = h.seatsFix(id, nil, map[int]string{2: "Bravo"}, "typo")
	if r := h.post(other, path, f); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "не можете вести гру") {
		t.Errorf("a host seats himself: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if g, _ := h.store.Game(ctx, id); g.Version != 1 || g.Seats[1].Name != "Guest 2" {
		t.Errorf("a refused correction changed the game: %+v", g)
	}
}

func TestCorrectSeatsTournamentTable(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	clk := &clock{t: time.Date(2027, 3, 13, 10, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin") // the chief judge
	judge := h.login("host", "demo-host")   // table 1's judge
	otherJudge := h.user("judge2", club.RoleHost)
	adminUser, _ := h.store.UserByLogin(ctx, "admin")
	hostUser, _ := h.store.UserByLogin(ctx, "host")
	judge2User, _ := h.store.UserByLogin(ctx, "judge2")
	r := h.post(admin, "/tournaments", url.Values{"name": {"Cup"}, "from": {"2027-03-13"}, "to": {"2027-03-13"}, "place": {"Hall"},
		"rules": {"fiim-xcraft"}, "chief": {strconv.FormatInt(adminUser.ID, 10)}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("tournament: %d %s", r.StatusCode, errorOf(r.Body))
	}
	tour := r.Header.Get("Location")
	for i := 1; i <= 20; i++ {
		if r := h.post(admin, tour+"/participants", url.Values{"name": {fmt.Sprintf("Player %d", i)}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("participant: %d %s", r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(admin, tour+"/stages", url.Values{"name": {"Q"}, "rounds": {"1"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("stage: %d %s", r.StatusCode, errorOf(r.Body))
	}
	stages, _ := h.store.Stages(ctx, mustID(t, tour))
	st := strconv.FormatInt(stages[0].ID, 10)
	for table, u := range map[string]*club.User{"1": hostUser, "2": judge2User} {
		if r := h.post(admin, tour+"/judge", url.Values{"stage": {st}, "table": {table}, "user": {strconv.FormatInt(u.ID, 10)}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("judge of table %s: %d %s", table, r.StatusCode, errorOf(r.Body))
		}
	}
	// table 1's game, its cards entered by hand
	g, err := h.site.Services().Tournaments.StartGame(ctx, hostUser, mustID(t, tour), stages[0].ID, 1, 1, tenRoles)
	if err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/games/%d/seats", g.ID)
	f := h.seatsFix(g.ID, map[int]string{3: "citizen", 4: "mafia"}, nil, "typo")
	if r := h.get(otherJudge, path); r.StatusCode != http.StatusForbidden {
		t.Errorf("table 2's judge opens table 1's form: %d", r.StatusCode)
	}
	f.Set("confirm", "yes")
	if r := h.post(otherJudge, path, f); r.StatusCode != http.StatusForbidden {
		t.Errorf("table 2's judge corrects table 1's game: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if h.version(g.ID) != 0 {
		t.Fatal("a refused correction changed the game")
	}
	// a tournament game's names are the stage's seating
	names := h.seatsFix(g.ID, nil, map[int]string{1: "Somebody"}, "typo")
	if r := h.post(judge, path, names); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "розсадка етапу") {
		t.Errorf("a tournament game's name: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.correct(judge, g.ID, h.seatsFix(g.ID, map[int]string{3: "citizen", 4: "mafia"}, nil, "typo")); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the table's judge corrects: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := h.correct(admin, g.ID, h.seatsFix(g.ID, map[int]string{3: "mafia", 4: "citizen"}, nil, "back")); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the chief judge corrects: %d %s", r.StatusCode, errorOf(r.Body))
	}
	// a game dealt at random by the server: its cards are not corrected
	dealt, err := h.site.Services().Tournaments.StartGame(ctx, judge2User, mustID(t, tour), stages[0].ID, 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	gd, _ := h.store.Game(ctx, dealt.ID)
	if r := h.get(otherJudge, fmt.Sprintf("/games/%d/seats", dealt.ID)); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `id="seats-dealt"`) ||
		!strings.Contains(r.Body, `id="seats-tournament"`) || strings.Contains(r.Body, `<select name="role1"`) || !strings.Contains(r.Body, `name="name1" value="`+gd.Seats[0].Name+`" autocomplete="off" aria-label="Місце 1" readonly>`) {
		t.Errorf("the form of a dealt tournament game: %d %s", r.StatusCode, errorOf(r.Body))
	}
	swap := map[int]string{}
	for _, s := range gd.Seats {
		if s.Role == "citizen" && len(swap) == 0 {
			swap[s.Seat] = "sheriff"
		}
		if s.Role == "sheriff" {
			swap[s.Seat] = "citizen"
		}
	}
	if r := h.post(otherJudge, fmt.Sprintf("/games/%d/seats", dealt.ID), h.seatsFix(dealt.ID, swap, nil, "typo")); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "роздав сервер") {
		t.Errorf("a random deal's cards: %d %q", r.StatusCode, errorOf(r.Body))
	}
}

// formOf reads the correction form of a page as a browser would send it: its text and hidden inputs, its ticked
// boxes and its selected options.
func formOf(t *testing.T, body string) url.Values {
	t.Helper()
	form := regexp.MustCompile(`(?s)<form method="post" action="/games/\d+/seats".*?</form>`).FindString(body)
	if form == "" {
		t.Fatalf("no correction form in %s", errorOf(body))
	}
	f := url.Values{}
	for _, m := range regexp.MustCompile(`<input ([^>]*)>`).FindAllStringSubmatch(form, -1) {
		attr := func(name string) (string, bool) {
			a := regexp.MustCompile(`\b` + name + `(?:="([^"]*)")?`).FindStringSubmatch(m[1])
			if a == nil {
				return "", false
			}
			return html.UnescapeString(a[1]), true
		}
		name, _ := attr("name")
		value, _ := attr("value")
		if typ, _ := attr("type"); typ == "checkbox" {
			if _, checked := attr("checked"); !checked {
				continue
			}
			value = "on"
		}
		f.Add(name, value)
	}
	for _, m := range regexp.MustCompile(`(?s)<select name="([^"]+)".*?<option value="([^"]+)" selected>`).FindAllStringSubmatch(form, -1) {
		f.Set(m[1], m[2])
	}
	if m := regexp.MustCompile(`(?s)<textarea name="reason"[^>]*>(.*?)</textarea>`).FindStringSubmatch(form); m != nil {
		f.Set("reason", html.UnescapeString(m[1]))
	}
	return f
}

func TestCorrectNameRelinksPlayer(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	c := h.login("host", "demo-host")
	alfa := &club.Player{Nick: "Alfa"}
	joker := &club.Player{Nick: "Jokerman"}
	for _, p := range []*club.Player{alfa, joker} {
		if err := h.store.CreatePlayer(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	// seat 2 was typed "Alpha" (no such player: a guest), seat 5 "Guest 5" is a guest's name with a typo, and
	// seat 6 is a guest called Jokerman, ticked as a guest's: not the club's Jokerman
	id := h.newGame(c, "fiim-2025-club", tenRoles, url.Values{"name2": {"Alpha"}, "name6": {"Jokerman"}, "guest6": {"on"}})
	h.mustAct(c, id, "type", "day")
	if g, _ := h.store.Game(ctx, id); g.Seats[1].PlayerID != 0 || g.Seats[5].PlayerID != 0 {
		t.Fatalf("seats linked already: %+v", g.Seats)
	}
	page := h.get(c, fmt.Sprintf("/games/%d/seats", id))
	if page.StatusCode != http.StatusOK || !strings.Contains(page.Body, `name="name2" value="Alpha"`) || !strings.Contains(page.Body, `<option value="sheriff" selected>шериф</option>`) {
		t.Fatalf("the form: %d %s", page.StatusCode, errorOf(page.Body))
	}
	f := formOf(t, page.Body)
	if f.Get("guest2") != "" || f.Get("guest6") != "on" || f.Get("role7") != "don" || f.Get("version") != "1" {
		t.Errorf("the form as drawn: %v; want #2 not ticked as a guest's, #6 ticked (a guest by choice)", f)
	}
	// a name twice is refused
	twice := formOf(t, page.Body)
	twice.Set("name2", "Guest 1")
	twice.Set("reason", "typo")
	if r := h.post(c, fmt.Sprintf("/games/%d/seats", id), twice); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "Guest 1 посаджено двічі") {
		t.Errorf("a name twice: %d %q", r.StatusCode, errorOf(r.Body))
	}
	f.Set("name2", "alfa")
	f.Set("name5", "Guest Five")
	f.Set("guest5", "on")
	f.Set("reason", "mistyped names")
	r := h.post(c, fmt.Sprintf("/games/%d/seats", id), f)
	if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, "Ви змінюєте імена #2, #5.") || !strings.Contains(r.Body, "#2: «Alpha» → «Alfa» (гравець клубу)") ||
		!strings.Contains(r.Body, "#5: «Guest 5» → «Guest Five» (гість)") || strings.Contains(r.Body, "Ви змінюєте карти") {
		t.Fatalf("the check step: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := h.correct(c, id, f); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("correction: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g, _ := h.store.Game(ctx, id)
	if g.Seats[1].Name != "Alfa" || g.Seats[1].PlayerID != alfa.ID || g.Seats[4].Name != "Guest Five" || g.Seats[4].PlayerID != 0 || g.Seats[5].PlayerID != 0 {
		t.Errorf("seats after the correction: %+v", g.Seats)
	}
	// the spectators see the new names at once, the record carries the player
	live := h.get(h.client(), fmt.Sprintf("/api/live/%d", id)).Body
	if !strings.Contains(live, `"name":"Alfa","player":"p-`+strconv.FormatInt(alfa.ID, 10)+`"`) || !strings.Contains(live, `"name":"Guest Five"`) {
		t.Errorf("the public view: %s", live)
	}
	if page := h.get(c, fmt.Sprintf("/games/%d", id)).Body; !strings.Contains(page, "виправлено місця: #2: «Alpha» → «Alfa» (гравець клубу); #5: «Guest 5» → «Guest Five» (гість); причина: mistyped names") {
		t.Errorf("the chronology does not show the names' correction")
	}
	// not him after all: the seat ticked as a guest's keeps its name and loses the link
	f = formOf(t, h.get(c, fmt.Sprintf("/games/%d/seats", id)).Body)
	f.Set("guest2", "on")
	f.Set("reason", "not him")
	if r := h.correct(c, id, f); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("unlinking: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if g, _ := h.store.Game(ctx, id); g.Seats[1].Name != "Alfa" || g.Seats[1].PlayerID != 0 {
		t.Errorf("seat 2 after unlinking: %+v", g.Seats[1])
	}
}

// TestCorrectDealHiddenFromSpectators: a corrected deal changes nothing of the public view of a game in progress,
// byte for byte; the delayed broadcast with roles shows the corrected cards only once the delay has passed since
// the correction.
func TestCorrectDealHiddenFromSpectators(t *testing.T) {
	t.Run("shots one by one", func(t *testing.T) { correctDealHiddenFromSpectators(t, (*harness).playToSecondDay) })
	// the correction moves the night's unanimous shot to #4: the delayed broadcast gives it back to #3 until then
	t.Run("a unanimous shot", func(t *testing.T) {
		correctDealHiddenFromSpectators(t, func(h *harness, c *http.Client, id int64) int { h.playUnanimousNight(c, id); return 0 })
	})
}

func correctDealHiddenFromSpectators(t *testing.T, play func(*harness, *http.Client, int64) int) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2027, 3, 13, 19, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	c := h.login("host", "demo-host")
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	play(h, c, id)
	if r := h.post(c, fmt.Sprintf("/live/%d/broadcast", id), url.Values{"delay": {"1"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("broadcast: %d %s", r.StatusCode, errorOf(r.Body))
	}
	anon := h.client()
	api := fmt.Sprintf("/api/live/%d", id)
	clk.t = clk.t.Add(2 * time.Minute)
	publicBefore := h.get(anon, api).Body
	pageBefore := h.get(anon, fmt.Sprintf("/live/%d", id)).Body
	broadcastBefore := h.get(anon, api+"?mode=broadcast").Body
	if !strings.Contains(broadcastBefore, `"n":3,"name":"Guest 3","role":"mafia"`) {
		t.Fatalf("the broadcast before: %s", broadcastBefore)
	}
	if r := h.correct(c, id, h.seatsFix(id, map[int]string{3: "citizen", 4: "mafia"}, nil, "mistyped")); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("correction: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if got := h.get(anon, api).Body; got != publicBefore {
		t.Errorf("the public view changed with the deal:\n%s\n%s", publicBefore, got)
	}
	if got := h.get(anon, fmt.Sprintf("/live/%d", id)).Body; got != pageBefore {
		t.Errorf("the live page changed with the deal")
	}
	// 30 s after the correction the broadcast (a minute late) still shows the cards as they were
	clk.t = clk.t.Add(30 * time.Second)
	if got := h.get(anon, api+"?mode=broadcast").Body; got != broadcastBefore {
		t.Errorf("the broadcast showed the correction before its delay:\n%s\n%s", broadcastBefore, got)
	}
	clk.t = clk.t.Add(31 * time.Second)
	after := h.get(anon, api+"?mode=broadcast").Body
	if !strings.Contains(after, `"n":3,"name":"Guest 3","role":"citizen"`) || !strings.Contains(after, `"n":4,"name":"Guest 4","role":"mafia"`) {
		t.Errorf("the broadcast a minute after the correction: %s", after)
	}
}

// TestCorrectSeatsPagesTranslated draws the form, the confirmation and a refusal in every language: no key is
// missing, no message is badly formatted.
func TestCorrectSeatsPagesTranslated(t *testing.T) {
	h := newHarness(t)
	c := h.login("host", "demo-host")
	id := h.newGame(c, "fiim-2025-club", tenRoles, nil)
	check := h.playToSecondDay(c, id)
	missing := regexp.MustCompile(`\[[a-z_]+\.[a-z_.]+\]`)
	for _, lang := range web.Languages {
		h.post(c, "/lang", url.Values{"lang": {lang}})
		path := fmt.Sprintf("/games/%d/seats", id)
		pages := map[string]response{
			"form":         h.get(c, path),
			"confirmation": h.post(c, path, h.seatsFix(id, map[int]string{3: "citizen", 4: "mafia"}, map[int]string{1: "Guest One"}, "typo")),
			"refusal":      h.post(c, path, h.seatsFix(id, map[int]string{5: "citizen", 6: "sheriff"}, nil, "typo")),
		}
		for name, r := range pages {
			if m := missing.FindString(r.Body); m != "" || strings.Contains(r.Body, "%!") || !strings.Contains(r.Body, `<html lang="`+lang+`">`) {
				t.Errorf("%s, %s: %d, untranslated %q or a formatting error", lang, name, r.StatusCode, m)
			}
		}
		if msg := errorOf(pages["refusal"].Body); !strings.Contains(msg, strconv.Itoa(check)) || !strings.Contains(msg, "#5") {
			t.Errorf("%s: the refusal says %q", lang, msg)
		}
	}
}
