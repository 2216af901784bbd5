package web_test

import (
	"encoding/json"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
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
