package web

import (
	"context"
	"fmt"
	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRulesPage renders the public rules page in its three languages and checks that each carries its title, the role
// tables for 7-10 players, the FIIM 2025 points, the club extras and the section anchors other pages link to; that
// the Russian text is Russian (none of the Ukrainian-only letters) and the Ukrainian one Ukrainian; and that the
// Russian page is the Ukrainian one translated: the same elements, ids, anchors and tables, the same numbers in the
// same order.
func TestRulesPage(t *testing.T) {
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "club.db")) // the page reads the club's name
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := New(club.NewServices(db, club.NewClock(time.UTC, nil)))
	if err != nil {
		t.Fatal(err)
	}
	betweenTags := regexp.MustCompile(`>\s+<`)
	render := func(lang string) string {
		t.Helper()
		r := httptest.NewRequest(http.MethodGet, "/rules", nil)
		r.AddCookie(&http.Cookie{Name: "lang", Value: lang})
		w := httptest.NewRecorder()
		s.rulesPage(w, r)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d", lang, w.Code)
		}
		if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("%s: content type %q", lang, ct)
		}
		return betweenTags.ReplaceAllString(w.Body.String(), "><")
	}
	// article is the rules text alone: the layout around it names every language in its own (the switch says
	// "Українська" on the Russian page too).
	article := func(lang, body string) string {
		t.Helper()
		_, after, ok := strings.Cut(body, `<article class="rules" id="rules">`)
		text, _, closed := strings.Cut(after, "</article>")
		if !ok || !closed {
			t.Fatalf("%s: no rules article", lang)
		}
		return text
	}
	// players, citizens, sheriff, mafia, don (C-02 for 8 and 7)
	rows := []string{
		"<tr><td>10</td><td>6</td><td>1</td><td>2</td><td>1</td></tr>",
		"<tr><td>9</td><td>5</td><td>1</td><td>2</td><td>1</td></tr>",
		"<tr><td>8</td><td>5</td><td>1</td><td>1</td><td>1</td></tr>",
		"<tr><td>7</td><td>5</td><td>0</td><td>1</td><td>1</td></tr>",
	}
	ids := []string{`id="roles"`, `id="gestures"`, `id="first-night"`, `id="day"`, `id="voting"`, `id="ties"`,
		`id="night"`, `id="best-move"`, `id="fouls"`, `id="disqualification"`, `id="end"`, `id="points"`,
		`id="extras"`, `id="rated"`, `id="registration"`}
	commas := []string{"+1,3", "+0,3", "+0,5", "+0,7", "−0,8", "−0,05", "−0,1", "−0,5", "+0,05", "−0,03", "+0,1", "±0,1 / ±0,3 / ±0,5"}
	articles := map[string]string{}
	for _, tc := range []struct {
		lang, title, head string
		notOther          []string // the other languages' titles
		notLetters        string   // letters the language does not have
		points            []string
	}{
		{"uk", "Правила клубу", "<tr><th>Гравців</th><th>Мирні</th><th>Шериф</th><th>Мафія</th><th>Дон</th></tr>",
			[]string{"Club rules", "Правила клуба"}, "ыэъёЫЭЪЁ", commas},
		{"en", "Club rules", "<tr><th>Players</th><th>Citizens</th><th>Sheriff</th><th>Mafia</th><th>Don</th></tr>",
			[]string{"Правила клубу", "Правила клуба"}, "",
			[]string{"+1.3", "+0.3", "+0.5", "+0.7", "−0.8", "−0.05", "−0.1", "−0.5", "+0.05", "−0.03", "+0.1", "±0.1 / ±0.3 / ±0.5"}},
		{"ru", "Правила клуба", "<tr><th>Игроков</th><th>Мирные</th><th>Шериф</th><th>Мафия</th><th>Дон</th></tr>",
			[]string{"Правила клубу", "Club rules"}, "іїєґІЇЄҐ", commas},
	} {
		body := render(tc.lang)
		text := article(tc.lang, body)
		articles[tc.lang] = text
		if !strings.Contains(body, `<html lang="`+tc.lang+`">`) {
			t.Errorf("%s: page not in its language", tc.lang)
		}
		if !strings.Contains(body, "<title>"+tc.title+" ·") || !strings.Contains(text, "<h1>"+tc.title+"</h1>") {
			t.Errorf("%s: title %q missing", tc.lang, tc.title)
		}
		for _, other := range tc.notOther {
			if strings.Contains(body, other) {
				t.Errorf("%s: the other language's text %q leaked in", tc.lang, other)
			}
		}
		if i := strings.IndexAny(text, tc.notLetters); i >= 0 {
			before, after := []rune(text[:i]), []rune(text[i:])
			t.Errorf("%s: a letter of another language in %q", tc.lang,
				string(before[max(0, len(before)-30):])+string(after[:min(len(after), 10)]))
		}
		if strings.Count(text, tc.head) != 1 {
			t.Errorf("%s: role table head %s missing", tc.lang, tc.head)
		}
		for _, row := range rows {
			if !strings.Contains(text, row) {
				t.Errorf("%s: role table row %s missing", tc.lang, row)
			}
		}
		for _, v := range tc.points {
			if !strings.Contains(text, v) {
				t.Errorf("%s: points value %q missing", tc.lang, v)
			}
		}
		for _, id := range ids {
			if strings.Count(text, id) != 1 {
				t.Errorf("%s: section %s should appear once", tc.lang, id)
			}
		}
	}
	// The Russian page is the Ukrainian one in Russian: tag for tag (attributes included, but for the nav's label)
	// and number for number.
	tags := regexp.MustCompile(`<[^>]*>`)
	label := regexp.MustCompile(` aria-label="[^"]*"`)
	numbers := regexp.MustCompile(`[+−±]?[0-9]+(?:,[0-9]+)?`)
	skeleton := func(text string) (marks, nums []string) {
		for _, m := range tags.FindAllString(text, -1) {
			marks = append(marks, label.ReplaceAllString(m, ""))
		}
		return marks, numbers.FindAllString(tags.ReplaceAllString(text, " "), -1)
	}
	ukTags, ukNums := skeleton(articles["uk"])
	ruTags, ruNums := skeleton(articles["ru"])
	if d := firstDiff(ukTags, ruTags); d != "" {
		t.Errorf("ru: the markup differs from the Ukrainian page: %s", d)
	}
	if d := firstDiff(ukNums, ruNums); d != "" {
		t.Errorf("ru: the numbers differ from the Ukrainian page: %s", d)
	}
}

// firstDiff describes where two lists first differ, or is empty when they are equal.
func firstDiff(want, got []string) string {
	for i := range max(len(want), len(got)) {
		if i >= len(want) || i >= len(got) || want[i] != got[i] {
			w, g := "(end)", "(end)"
			if i < len(want) {
				w = want[i]
			}
			if i < len(got) {
				g = got[i]
			}
			return fmt.Sprintf("at %d of %d/%d: %q, not %q", i, len(want), len(got), g, w)
		}
	}
	return ""
}
