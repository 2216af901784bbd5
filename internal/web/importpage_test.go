package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"mafiaclub/internal/club"
	"mafiaclub/internal/storetest"
	"mafiaclub/mafia"
)

// convertTestdata reads one of the importers' own test files.
func convertTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "convert", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// changed decodes a JSON file, lets f change it and encodes it again.
func changed(t *testing.T, data []byte, f func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// latinWord is a word in Latin letters, with the characters a field's name or a quoted value has.
var latinWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_'-]*`)

// reportLines are the import report's lines by file, as the reader sees them (tags and entities gone).
func reportLines(body string) map[string]string {
	out := map[string]string{}
	tag := regexp.MustCompile(`<[^>]*>`)
	for _, li := range regexp.MustCompile(`(?s)<li>(.*?)</li>`).FindAllStringSubmatch(reportOf(body), -1) {
		text := html.UnescapeString(tag.ReplaceAllString(li[1], ""))
		if file, rest, ok := strings.Cut(text, ": "); ok {
			out[file] = rest
		}
	}
	return out
}

// A Ukrainian (or Russian) admin importing broken files reads why each is refused in his language through and
// through: the frame, where in the file (its field path as the file spells it, the rest in words), what is wrong,
// and the words inside it (the engine's refusal, who won, how a seat left, the rule set, a place in an order). The
// only Latin words are what the file itself says (its field names, a value it holds, a player's name) and the
// platform's name; the English admin reads the same in English.
func TestImportRefusalsHaveNoEnglishInside(t *testing.T) {
	h := newHarness(t)
	minimal := convertTestdata(t, "polemica-minimal.json")
	page := convertTestdata(t, "polemica-page.json")
	mr := conformance(t, "mafiaratings/4842.json")
	polemica := map[string][]byte{
		// the platform says black won: under no rule set of ours does the game end so
		"black-won.json": changed(t, minimal, func(m map[string]any) { m["result"] = 1 }),
		// a vote against a seat nobody nominated
		"stray-vote.json": changed(t, minimal, func(m map[string]any) {
			votes := m["votes"].([]any)
			for _, v := range votes {
				v := v.(map[string]any)
				if v["day"] == 1.0 && v["num"] == 1.0 {
					v["candidate"] = 9
					break
				}
			}
		}),
		// a citizen's shot: the engine refuses it
		"red-shot.json": changed(t, minimal, func(m map[string]any) {
			m["shots"].([]any)[0].(map[string]any)["shooter"] = 5
		}),
		// the page's order of departures disagrees with the replay
		"page-facts.json": changed(t, page, func(m map[string]any) {
			p := m["players"].([]any)
			p[1].(map[string]any)["quit_index"], p[9].(map[string]any)["quit_index"] = 2, 1
		}),
		// a page fact of the wrong kind
		"page-field.json": changed(t, page, func(m map[string]any) { m["players"].([]any)[2].(map[string]any)["w_l"] = "maybe" }),
	}
	mafiaratings := map[string][]byte{
		"warnings.json": changed(t, mr, func(m map[string]any) { m["players"].([]any)[3].(map[string]any)["warnings"] = "many" }),
		"death.json": changed(t, mr, func(m map[string]any) {
			m["players"].([]any)[3].(map[string]any)["death"] = map[string]any{"round": 1, "type": "zombie"}
		}),
		"role.json": changed(t, mr, func(m map[string]any) { m["players"].([]any)[0].(map[string]any)["role"] = 2 }),
	}
	files := map[string][]byte{}
	for name, data := range polemica {
		files[name] = data
	}
	for name, data := range mafiaratings {
		files[name] = data
	}
	// what each refusal must say, in each language: a piece that only the translated message has
	wants := map[string]map[string]string{
		"uk": {
			"black-won.json":  "жоден наш набір правил не підходить до цієї гри",
			"stray-vote.json": "не є кандидатом у цьому колі",
			"red-shot.json":   "постріл місця #5 у місце #10 тут не дозволено",
			"page-facts.json": "вибуває 1-м",
			"page-field.json": "ні перемога, ні поразка",
			"warnings.json":   "має бути списком фолів або їхньою кількістю",
			"death.json":      "невідомий спосіб вибуття",
			"role.json":       "має бути рядком",
		},
		"en": {
			"black-won.json":  "no rule set of ours fits this game",
			"stray-vote.json": "is not a candidate in this round",
			"red-shot.json":   "seat #5 shooting seat #10 is not allowed here",
			"page-facts.json": "seat #10 leave 1st",
			"page-field.json": "is neither a win nor a loss",
			"warnings.json":   "must be a list of fouls or their count",
			"death.json":      "unknown way of leaving",
			"role.json":       "must be a string",
		},
		"ru": {
			"black-won.json":  "ни один наш набор правил не подходит к этой игре",
			"stray-vote.json": "не кандидат в этом круге",
			"red-shot.json":   "выстрел места #5 в место #10 здесь не разрешено",
			"page-facts.json": "выбывает 1-м",
			"page-field.json": "ни победа, ни поражение",
			"warnings.json":   "должно быть списком фолов или их числом",
			"death.json":      "неизвестный способ выбывания",
			"role.json":       "должно быть строкой",
		},
	}
	platformNames := map[string]bool{"Polemica": true, "mafiaratings": true}
	for _, lang := range []string{"uk", "en", "ru"} {
		c := h.login("admin", "demo-admin")
		c.Jar.SetCookies(mustURL(t, h.srv.URL), []*http.Cookie{{Name: "lang", Value: lang}})
		lines := map[string]string{}
		for from, set := range map[string]map[string][]byte{"polemica": polemica, "mafiaratings": mafiaratings} {
			r := h.upload(c, from, false, set)
			if r.StatusCode != http.StatusOK {
				t.Fatalf("%s %s: %d %s", lang, from, r.StatusCode, errorOf(r.Body))
			}
			for k, v := range reportLines(r.Body) {
				lines[k] = v
			}
		}
		for name, data := range files {
			line, ok := lines[name]
			if !ok {
				t.Errorf("%s: the report has no line for %s:\n%v", lang, name, lines)
				continue
			}
			if want := wants[lang][name]; !strings.Contains(line, want) {
				t.Errorf("%s %s: the refusal does not say %q:\n%s", lang, name, want, line)
			}
			if lang == "en" {
				if i := strings.IndexFunc(line, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }); i >= 0 {
					t.Errorf("en %s: the refusal is partly Cyrillic:\n%s", name, line)
				}
				continue
			}
			for _, w := range latinWord.FindAllString(line, -1) {
				if !platformNames[w] && !strings.Contains(string(data), w) {
					t.Errorf("%s %s: the refusal says %q, which is not in the file:\n%s", lang, name, w, line)
				}
			}
		}
	}
}

// TestImportUnfinishedGame: the site imports an unfinished game (Polemica's, with no result) as a game in progress
// that a host continues in host mode, and says so before and after; its roles are hidden as any live game's, from
// spectators and from a host who sits at its table; another host takes it over, plays it to the end and saves it,
// and only then is it in the history and the rating. On SQLite and PostgreSQL.
func TestImportUnfinishedGame(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { importUnfinished(t, newHarness(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { importUnfinished(t, newHarnessOn(t, storetest.FreshPostgres(t))) })
}

func importUnfinished(t *testing.T, h *harness) {
	ctx := context.Background()
	data := convertTestdata(t, "polemica-unfinished.json")
	admin := h.login("admin", "demo-admin")
	other := h.user("other", club.RoleHost)
	seated := h.seatedUser("playinghost", "P5", club.RoleHost) // seat 5's nickname: a club player
	anon := h.client()
	seatedPlayer, err := h.store.PlayerByNick(ctx, "P5")
	if err != nil {
		t.Fatal(err)
	}

	// before: the form says what an unfinished game becomes
	if r := h.get(admin, "/admin/import"); !strings.Contains(r.Body, "Незавершену гру (без результату) не буде внесено до історії") {
		t.Errorf("the form does not say what an unfinished game becomes:\n%s", r.Body)
	}
	r := h.upload(admin, "polemica", true, map[string][]byte{"unfinished.json": data})
	if r.StatusCode != http.StatusOK {
		t.Fatalf("import: %d %s", r.StatusCode, errorOf(r.Body))
	}
	// after: the report says it, and links the host page, not the history
	m := regexp.MustCompile(`unfinished.json: <a href="/games/(\d+)" class="import-unfinished">імпортовано як гру #(\d+), незавершену`).FindStringSubmatch(r.Body)
	if m == nil || !strings.Contains(reportOf(r.Body), "до рейтингу вона потрапить, лише коли її збережуть як рейтингову") {
		t.Fatalf("the report does not say the game is unfinished and opened for a host:\n%s", reportOf(r.Body))
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	adminUser, _ := h.store.UserByLogin(ctx, "admin")
	g, err := h.store.Game(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if g.Status != club.GameLive || g.HostID != adminUser.ID || g.Winner != "" || g.Source != "polemica:3" || g.Seats[4].PlayerID != seatedPlayer.ID {
		t.Fatalf("the imported game: %+v", g)
	}
	if saved, _ := h.store.Games(ctx, club.GameFilter{Status: club.GameSaved}); len(saved) != 0 {
		t.Errorf("an unfinished game is in the history: %+v", saved)
	}
	if res, _ := h.store.PlayerResults(ctx, seatedPlayer.ID); len(res) != 0 {
		t.Errorf("an unfinished game counts for its players: %+v", res)
	}
	// the same game again is refused, as a finished one is
	if r := h.upload(admin, "polemica", true, map[string][]byte{"again.json": data}); !strings.Contains(reportOf(r.Body), "уже імпортовано") {
		t.Errorf("a second import is not refused:\n%s", reportOf(r.Body))
	}

	// nothing hidden is public, nor shown to a host who sits at its table
	game := fmt.Sprintf("/games/%d", id)
	public := []string{fmt.Sprintf("/live/%d", id), fmt.Sprintf("/live/%d/screen", id), fmt.Sprintf("/live/%d/overlay", id),
		fmt.Sprintf("/api/live/%d", id), fmt.Sprintf("/history/%d", id), fmt.Sprintf("/history/%d/record.json", id), fmt.Sprintf("/api/games/%d", id)}
	if r := h.get(anon, public[0]); r.StatusCode != http.StatusOK || !strings.Contains(r.Body, "P6") {
		t.Errorf("the live page of the imported game: %d", r.StatusCode)
	}
	// the public view's flag that says the seats carry no roles is no role
	noRoles := regexp.MustCompile(`"roles": ?false`)
	for _, path := range public {
		if got := hidden(noRoles.ReplaceAllString(h.get(anon, path).Body, "")); len(got) > 0 {
			t.Errorf("a spectator, %s: the answer shows %v", path, got)
		}
	}
	if r := h.get(anon, public[3]); !noRoles.MatchString(r.Body) {
		t.Errorf("the public view does not say its seats carry no roles: %s", r.Body)
	}
	for _, path := range append(public, game, game+"/record.json", game+"/state.json") {
		r := h.get(seated, path)
		if got := hidden(noRoles.ReplaceAllString(r.Body, "")); len(got) > 0 {
			t.Errorf("a seated host, %s: the answer shows %v", path, got)
		}
		if strings.HasPrefix(path, "/games/") && r.StatusCode != http.StatusForbidden {
			t.Errorf("a seated host, %s: %d, want 403", path, r.StatusCode)
		}
	}

	// the importing admin hosts it in host mode: the roles are his to see, the chronology says where it came from
	r = h.get(admin, game)
	if r.StatusCode != http.StatusOK || len(hidden(r.Body)) == 0 || !strings.Contains(r.Body, "імпортовано незавершеною з іншої платформи") {
		t.Fatalf("the host page of the imported game: %d, roles %v", r.StatusCode, hidden(r.Body))
	}
	replayed := h.replay(id)
	if replayed.Finished() {
		t.Fatal("the imported game is over")
	}
	var blacks []int
	for s := 1; s <= replayed.Players(); s++ {
		if replayed.Alive().Has(s) && replayed.Role(s).Team() == mafia.Black {
			blacks = append(blacks, s)
		}
	}
	if len(blacks) < 2 {
		t.Fatalf("black seats at the table: %v", blacks)
	}
	h.mustAct(admin, id, "type", "foul", "seat", "7")
	// another host takes it over and plays it to the end: the black players are disqualified one by one
	for _, s := range blacks {
		h.mustAct(other, id, "type", "disqualify", "seat", strconv.Itoa(s), "reason", "test")
	}
	otherUser, _ := h.store.UserByLogin(ctx, "other")
	if a, _ := h.store.Audit(ctx, id); len(a) != 2 || a[0].Action != "import_unfinished" || a[1].Action != "take_over" || a[1].By != otherUser.ID {
		t.Errorf("the chronology: %+v", a)
	}
	if r := h.post(other, game+"/save", url.Values{"version": {strconv.FormatInt(h.version(id), 10)}, "rated": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d %s", r.StatusCode, errorOf(r.Body))
	}
	g, _ = h.store.Game(ctx, id)
	if g.Status != club.GameSaved || !g.Rated || g.Winner != "red" {
		t.Errorf("the saved game: %+v", g)
	}
	if res, _ := h.store.PlayerResults(ctx, seatedPlayer.ID); len(res) != 1 || !res[0].Rated || !res[0].Won {
		t.Errorf("the seated player's results after the save: %+v", res)
	}
	if page := h.get(anon, fmt.Sprintf("/history/%d", id)); page.StatusCode != http.StatusOK || !strings.Contains(page.Body, "P6") {
		t.Errorf("the saved game's public page: %d", page.StatusCode)
	}
}
