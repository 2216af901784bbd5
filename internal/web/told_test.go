package web_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/convert"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// The members' change log says each change in the reader's language: the field and its values in words, never
// their codes ("status: pending → active"), and a guest's seats linked to the member with their count.
func TestMemberLogInWords(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	admin := h.login("admin", "demo-admin")
	hash, _ := club.HashPassword("password-olena")
	u := &club.User{Login: "olena", Name: "Olena", Role: club.RoleMember, PasswordHash: hash, Status: club.StatusPending}
	if err := h.store.CreateMember(ctx, u, &club.Player{Nick: "Olena"}); err != nil {
		t.Fatal(err)
	}
	host := h.login("host", "demo-host")
	h.playToRedWin(host, []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"})
	member := fmt.Sprintf("/admin/members/%d", u.ID)
	for _, f := range []url.Values{
		{"field": {"status"}, "to": {"active"}, "reason": {"known"}},
		{"field": {"role"}, "to": {"host"}, "reason": {"runs tables"}},
	} {
		if r := h.post(admin, member, f); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("%v: %d %s", f, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(admin, "/admin/link-guest", url.Values{"guest": {"Visitor"}, "user": {strconv.FormatInt(u.ID, 10)}, "reason": {"same man"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("link: %d %s", r.StatusCode, errorOf(r.Body))
	}
	for lang, want := range map[string][]string{
		"uk": {"статус: очікує підтвердження → активний · known", "роль: учасник → ведучий · runs tables", "1 місце гостя «Visitor» зараховано учасникові · same man"},
		"en": {"status: waiting for approval → active · known", "role: member → host · runs tables", "1 seat of the guest «Visitor» linked to the member · same man"},
		"ru": {"статус: ждёт подтверждения → активный · known", "роль: участник → ведущий · runs tables", "1 место гостя «Visitor» засчитано участнику · same man"},
	} {
		page := h.langGet(admin, lang, fmt.Sprintf("/admin/members?log=%d", u.ID)).Body
		log := page[strings.Index(page, `id="member-log"`):]
		for _, w := range want {
			if !strings.Contains(log, w) {
				t.Errorf("%s: the log does not say %q:\n%s", lang, w, log)
			}
		}
		for _, code := range []string{"pending", "→ active", "member →", "linked:", "seats"} {
			if lang != "en" && strings.Contains(log, code) {
				t.Errorf("%s: the log says %q", lang, code)
			}
		}
	}
}

// A file the web import refuses as malformed is said in the reader's language: the frame names the platform, the
// field's path is the file's own (its seat in words), and the importers' common complaints are translated; no
// "convert:" key is a format no importer gives.
func TestImportErrorsInTheReadersLanguage(t *testing.T) {
	h := newHarness(t)
	admin := h.login("admin", "demo-admin")
	var game map[string]any
	if err := json.Unmarshal(conformance(t, "mafiaratings/4842.json"), &game); err != nil {
		t.Fatal(err)
	}
	game["players"].([]any)[0].(map[string]any)["role"] = 2
	bad, _ := json.Marshal(game)
	for lang, want := range map[string]string{
		"uk": "файл не є партією у форматі mafiaratings: players[0] (місце #1).role: має бути рядком, а не 2",
		"ru": "файл не является партией в формате mafiaratings: players[0] (место #1).role: должно быть строкой, а не 2",
		"en": "the file is not a game in the mafiaratings format: players[0] (seat #1).role: must be a string, not 2",
	} {
		c := h.login("admin", "demo-admin")
		c.Jar.SetCookies(mustURL(t, h.srv.URL), []*http.Cookie{{Name: "lang", Value: lang}})
		r := h.upload(c, "mafiaratings", false, map[string][]byte{"bad.json": bad})
		if !strings.Contains(r.Body, want) {
			t.Errorf("%s: the report does not say %q:\n%s", lang, want, reportOf(r.Body))
		}
		if lang != "en" && strings.Contains(r.Body, "must be") {
			t.Errorf("%s: the report is partly English:\n%s", lang, reportOf(r.Body))
		}
	}
	r := h.upload(admin, "polemica", false, map[string][]byte{"empty.json": []byte(`{"version": 4}`)})
	if want := "файл не є партією у форматі Polemica: players: поля немає"; !strings.Contains(r.Body, want) {
		t.Errorf("the report does not say %q:\n%s", want, reportOf(r.Body))
	}
	// every translated complaint is one an importer makes
	var src strings.Builder
	files, _ := filepath.Glob("../convert/*.go")
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			data, _ := os.ReadFile(f)
			src.Write(data)
		}
	}
	cat := mustCatalog(t)
	for _, k := range cat.Keys("en") {
		format, ok := strings.CutPrefix(k, "convert:")
		format = strings.TrimSuffix(format, ".n") // a plural key's format is the message without it
		if ok && !strings.Contains(src.String(), strconv.Quote(format)) {
			t.Errorf("%s: no importer says %q", k, format)
		}
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// reportOf is the import page's report.
func reportOf(body string) string {
	if i := strings.Index(body, `id="import-report"`); i >= 0 {
		body = body[i:]
	}
	if i := strings.Index(body, "</ul>"); i >= 0 {
		body = body[:i]
	}
	return body
}

// A rating query the rating cannot read is refused on the rating page itself, with its form and what is wrong in
// words (the field as the form names it); a season that ends before it begins is refused, never "no games", on the
// page, in the CSV and in the JSON.
func TestRatingQueryRefusedOnItsForm(t *testing.T) {
	h := newHarness(t)
	anon := h.client()
	for _, c := range []struct{ query, want, not string }{
		{"from=2026-13-01", "«від»: дата на зразок 2026-09-01", ""},
		{"min=abc", "«щонайменше ігор»: потрібне ціле число", "«min»"},
		{"from=2026-12-01&to=2026-11-01", "перший день («Від») пізніший за останній («До»)", "Немає рейтингових партій"},
	} {
		r := h.get(anon, "/rating?"+c.query)
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(r.Body, `id="rating-filter"`) || !strings.Contains(r.Body, c.want) ||
			(c.not != "" && strings.Contains(r.Body, c.not)) {
			t.Errorf("%s: %d, the form %v, %q said %v (%q said %v)", c.query, r.StatusCode, strings.Contains(r.Body, `id="rating-filter"`),
				c.want, strings.Contains(r.Body, c.want), c.not, c.not != "" && strings.Contains(r.Body, c.not))
		}
	}
	if r := h.get(anon, "/rating?from=2026-11-01&to=2026-11-01"); r.StatusCode != http.StatusOK {
		t.Errorf("a season of one day: %d", r.StatusCode)
	}
	for _, path := range []string{"/rating.csv", "/api/standings"} {
		if r := h.get(anon, path+"?from=2026-12-01&to=2026-11-01"); r.StatusCode != http.StatusBadRequest {
			t.Errorf("%s of a season that ends before it begins: %d", path, r.StatusCode)
		}
	}
}

// Reopening a saved game asks first, and says that a rated game leaves the rating until it is saved again.
func TestReopenWarnsOfTheRating(t *testing.T) {
	h := newHarness(t)
	admin := h.login("admin", "demo-admin")
	id := h.playToRedWin(admin, []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"})
	page := h.get(admin, fmt.Sprintf("/games/%d", id)).Body
	want := fmt.Sprintf(`action="/games/%d/reopen" data-confirm="Відкрити гру знову? Доки її не збережуть знову, її немає в рейтингу`, id)
	if !strings.Contains(page, want) {
		i := strings.Index(page, "/reopen")
		t.Errorf("the reopen form does not warn of the rating: %q", page[max(i-40, 0):min(i+200, len(page))])
	}
}

// Only approved members who are not excluded are offered to seat in a new game, in the seating search and to link a
// guest's seats to.
func TestOnlyApprovedMembersOffered(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	for _, m := range []struct {
		login string
		st    club.MemberStatus
	}{{"pendo", club.StatusPending}, {"exo", club.StatusExcluded}, {"acto", club.StatusActive}, {"lowo", club.StatusLowPriority}} {
		hash, _ := club.HashPassword("password-" + m.login)
		u := &club.User{Login: m.login, Name: m.login, Role: club.RoleMember, PasswordHash: hash, Status: m.st}
		if err := h.store.CreateMember(ctx, u, &club.Player{Nick: "Nick" + m.login}); err != nil {
			t.Fatal(err)
		}
	}
	host := h.login("host", "demo-host")
	admin := h.login("admin", "demo-admin")
	newGame := h.get(host, "/games/new").Body
	search := h.get(host, "/players/search?q=nick").Body
	members := h.get(admin, "/admin/members").Body
	link := members[strings.Index(members, `<select name="user">`):]
	link = link[:strings.Index(link, "</select>")]
	for _, c := range []struct{ nick, login string }{{"Nickacto", "acto"}, {"Nicklowo", "lowo"}, {"Nickpendo", "pendo"}, {"Nickexo", "exo"}} {
		want := c.login == "acto" || c.login == "lowo"
		if got := strings.Contains(newGame, `<option value="`+c.nick+`">`); got != want {
			t.Errorf("the new game offers %s: %v, want %v", c.nick, got, want)
		}
		if got := strings.Contains(search, `"`+c.nick+`"`); got != want {
			t.Errorf("the seating search offers %s: %v, want %v", c.nick, got, want)
		}
		if got := strings.Contains(link, ">"+c.login+" ("); got != want {
			t.Errorf("linking a guest offers %s: %v, want %v", c.login, got, want)
		}
	}
}

// Every JSON interface gives its times one way: RFC 3339 with the club's zone offset, whatever zone the time was
// recorded in (an imported game's are UTC, the store's are UTC).
func TestAPITimesInTheClubsZone(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	edm, _ := time.LoadLocation("America/Edmonton")
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")
	host := h.login("host", "demo-host")
	if r := h.post(admin, "/nights", url.Values{"date": {"2026-12-10"}, "time": {"19:00"}, "place": {"Café"}, "tables": {"1"}, "per_table": {"8"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("night: %d %s", r.StatusCode, errorOf(r.Body))
	}
	saved := h.playToRedWin(host, []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"})
	r := h.upload(admin, "mafiaratings", true, map[string][]byte{"4842.json": conformance(t, "mafiaratings/4842.json")})
	imported := regexp.MustCompile(`<a href="/history/(\d+)">`).FindStringSubmatch(r.Body)
	if imported == nil {
		t.Fatalf("the import: %s", reportOf(r.Body))
	}
	live := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	h.mustAct(host, live, "type", "day")
	h.mustAct(host, live, "type", "speech", "seat", "1")
	joker, _ := h.store.SearchPlayers(ctx, "Joker", 1)
	for _, path := range []string{
		"/api/nights",
		fmt.Sprintf("/api/games/%d", saved),
		"/api/games/" + imported[1],
		fmt.Sprintf("/api/players/%d/stats", joker[0].ID),
		fmt.Sprintf("/api/live/%d", live),
		"/api/standings",
	} {
		r := h.get(h.client(), path)
		var v any
		if err := json.Unmarshal([]byte(r.Body), &v); err != nil {
			t.Fatalf("%s: %d %v", path, r.StatusCode, err)
		}
		n := 0
		walkStrings(v, func(s string) {
			if tm, err := time.Parse(time.RFC3339, s); err == nil {
				n++
				if want := tm.In(edm).Format(time.RFC3339); s != want {
					t.Errorf("%s: %q, want %q (the club's zone)", path, s, want)
				}
			}
		})
		if n == 0 && path != "/api/standings" {
			t.Errorf("%s: no times", path)
		}
	}
}

// walkStrings calls f with every string in a decoded JSON value.
func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	case map[string]any:
		for _, e := range x {
			walkStrings(e, f)
		}
	}
}

// A game imported on the web keeps what the import says of it, as the import command does: its start as its date
// (a Polemica game's, written without an offset, on the club's clock), so that it lands in its season and in its
// place among the club's games, and its record's note, source and end.
func TestWebImportKeepsTheRecordsFields(t *testing.T) {
	h := newHarness(t)
	admin := h.login("admin", "demo-admin")
	edm, _ := time.LoadLocation("America/Edmonton")
	for _, c := range []struct {
		from, file string
		started    time.Time
		importer   func([]byte) (*convert.Imported, error)
	}{
		{"polemica", "polemica/270561.json", time.Date(2024, 11, 14, 21, 28, 35, 0, edm), func(b []byte) (*convert.Imported, error) { return convert.ImportPolemicaIn(b, edm) }},
		{"mafiaratings", "mafiaratings/4842.json", time.Unix(1579985050, 0), convert.ImportMafiaratings},
	} {
		data := conformance(t, c.file)
		r := h.upload(admin, c.from, true, map[string][]byte{"game.json": data})
		m := regexp.MustCompile(`<a href="/history/(\d+)">`).FindStringSubmatch(r.Body)
		if m == nil {
			t.Fatalf("%s: %s", c.file, reportOf(r.Body))
		}
		id, _ := strconv.ParseInt(m[1], 10, 64)
		g, _ := h.store.Game(context.Background(), id)
		if !g.CreatedAt.Equal(c.started) {
			t.Errorf("%s: the game's date %v, want its start %v", c.file, g.CreatedAt.In(edm), c.started.In(edm))
		}
		var api struct {
			Record map[string]json.RawMessage `json:"record"`
		}
		if err := json.Unmarshal([]byte(h.get(h.client(), "/api/games/"+m[1]).Body), &api); err != nil {
			t.Fatal(err)
		}
		im, err := c.importer(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"note", "source", "ended"} {
			want, ok := im.Record.Extra[k]
			if !ok {
				continue
			}
			got := api.Record[k]
			var a, b string
			_ = json.Unmarshal(got, &a)
			_ = json.Unmarshal(want, &b)
			ta, errA := time.Parse(time.RFC3339, a)
			tb, errB := time.Parse(time.RFC3339, b)
			if a != b && !(errA == nil && errB == nil && ta.Equal(tb)) {
				t.Errorf("%s: the record's %s is %s, the import's %s", c.file, k, got, want)
			}
		}
		if _, ok := api.Record["note"]; !ok {
			t.Errorf("%s: the record has no note", c.file)
		}
		var started string
		_ = json.Unmarshal(api.Record["started"], &started)
		if want := c.started.In(edm).Format(time.RFC3339); started != want {
			t.Errorf("%s: started %q, want %q", c.file, started, want)
		}
	}
}

// The rating's CSV opens in a spreadsheet as it should: the byte-order mark first (Cyrillic names read as UTF-8),
// numbers as numbers (a negative one too, without the apostrophe that guards a formula), a name that would be a
// formula guarded.
func TestRatingCSVForSpreadsheets(t *testing.T) {
	h := newHarness(t)
	host := h.login("host", "demo-host")
	names := []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"}
	extra := url.Values{}
	for i, n := range names {
		extra.Set(fmt.Sprintf("name%d", i+1), n)
	}
	id := h.newGame(host, "fiim-2025-club", tenRoles, extra)
	h.mustAct(host, id, "type", "adjust", "seat", "3", "points", "-0.5", "reason", "rude")
	for _, s := range []string{"3", "7", "9"} {
		h.mustAct(host, id, "type", "disqualify", "seat", s, "reason", "test")
	}
	if r := h.post(host, fmt.Sprintf("/games/%d/save", id), url.Values{"version": {strconv.FormatInt(h.version(id), 10)}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	body, ok := strings.CutPrefix(h.get(h.client(), "/rating.csv").Body, "\ufeff")
	if !ok {
		t.Error("the rating's CSV does not start with the byte-order mark")
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(rows) < 2 || rows[0][0] != "rank" {
		t.Fatalf("the rating's CSV: %v %q", err, rows)
	}
	negative := false
	for _, row := range rows[1:] {
		for _, cell := range row {
			if strings.HasPrefix(cell, "'") {
				t.Errorf("%s: the cell %q is text", row[1], cell)
			}
			negative = negative || strings.HasPrefix(cell, "-")
		}
	}
	if !negative {
		t.Errorf("no negative number in the rating's CSV:\n%s", body)
	}
}

// A tournament game's protocol names its judge as §P7 asks, by his real name (a surname), not his nickname, and
// numbers the game within the tournament: the two tables of a round are two games, a later stage's games follow.
func TestProtocolJudgeAndGameNumber(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	svc := h.site.Services()
	admin, _ := h.store.UserByLogin(ctx, "admin")
	hash, _ := club.HashPassword("password-judge")
	judge := &club.User{Login: "judge", Name: "Judgy", Role: club.RoleHost, PasswordHash: hash, Status: club.StatusActive}
	if err := h.store.CreateMember(ctx, judge, &club.Player{Nick: "Judgy", RealName: "Петренко"}); err != nil {
		t.Fatal(err)
	}
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-02", Rules: club.ClubRules, ChiefJudge: admin.ID}
	if err := svc.Tournaments.Create(ctx, admin, tour); err != nil {
		t.Fatal(err)
	}
	for i := range 14 {
		if _, err := svc.Tournaments.AddParticipant(ctx, admin, tour.ID, fmt.Sprintf("Player %d", i+1)); err != nil {
			t.Fatal(err)
		}
	}
	roles := []string{"citizen", "citizen", "mafia", "citizen", "citizen", "don", "citizen"}
	play := func(st *club.Stage, round, table int) int64 {
		t.Helper()
		if err := svc.Tournaments.SetJudge(ctx, admin, tour.ID, st.ID, table, judge.ID); err != nil {
			t.Fatal(err)
		}
		g, err := svc.Tournaments.StartGame(ctx, judge, tour.ID, st.ID, round, table, roles)
		if err != nil {
			t.Fatal(err)
		}
		state, err := svc.Games.Act(ctx, judge, g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3), Reason: "oath"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Games.Save(ctx, judge, g.ID, state.Game.Version, true); err != nil {
			t.Fatal(err)
		}
		return g.ID
	}
	q, _, err := svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 2, PerTable: 7})
	if err != nil || q.Tables() != 2 {
		t.Fatalf("the stage: %v, %d tables", err, q.Tables())
	}
	games := map[int64]string{play(q, 1, 1): "1", play(q, 1, 2): "2", play(q, 2, 2): "4"}
	final, _, err := svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "F", Rounds: 1, PerTable: 7, Top: 7})
	if err != nil {
		t.Fatal(err)
	}
	games[play(final, 1, 1)] = "5" // after the four games of the first stage
	admin2 := h.login("admin", "demo-admin")
	for id, want := range games {
		// the public reads the judge's account name: a real name is shown on no public page
		if public := h.get(h.client(), fmt.Sprintf("/history/%d?view=protocol", id)).Body; strings.Contains(public, "Петренко") ||
			!strings.Contains(public, `<td id="protocol-judge">Judgy</td>`) {
			t.Errorf("game %d: the public protocol shows the judge's real name, or not his account's name", id)
		}
		proto := h.get(admin2, fmt.Sprintf("/history/%d?view=protocol", id)).Body
		if !strings.Contains(proto, `<td id="protocol-number">`+want+`</td>`) {
			t.Errorf("game %d: its protocol's number is not %s:\n%s", id, want, proto[strings.Index(proto, `<table class="meta">`):strings.Index(proto, `<table class="sheet players">`)])
		}
		if !strings.Contains(proto, `<td id="protocol-judge">Петренко</td>`) || strings.Contains(proto, "Judgy") {
			t.Errorf("game %d: the protocol does not name the judge by his surname", id)
		}
	}
	// the judge's profile says where his real name is shown
	if page := h.get(h.login("judge", "password-judge"), "/me/profile").Body; !strings.Contains(page, "ведучим і адміністраторам клубу") {
		t.Error("a judge's profile does not say that his real name is on his protocols")
	}
}
