package web

import (
	"mafiaclub/internal/club"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRulesPage renders the public rules page in both languages and checks that each carries the role tables
// for 7-10 players, the FIIM 2025 points, the club extras and the section anchors other pages link to.
func TestRulesPage(t *testing.T) {
	s, err := New(club.NewServices(nil, club.NewClock(time.UTC, nil))) // rulesPage never touches the store
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
	for _, tc := range []struct {
		lang, title, notOther string
		points                []string
	}{
		{"uk", "Правила клубу", "Club rules",
			[]string{"+1,3", "+0,3", "+0,5", "+0,7", "−0,8", "−0,05", "−0,1", "−0,5", "+0,05", "−0,03", "+0,1", "±0,1 / ±0,3 / ±0,5"}},
		{"en", "Club rules", "Правила клубу",
			[]string{"+1.3", "+0.3", "+0.5", "+0.7", "−0.8", "−0.05", "−0.1", "−0.5", "+0.05", "−0.03", "+0.1", "±0.1 / ±0.3 / ±0.5"}},
	} {
		body := render(tc.lang)
		if !strings.Contains(body, `<html lang="`+tc.lang+`">`) {
			t.Errorf("%s: page not in its language", tc.lang)
		}
		if !strings.Contains(body, "<title>"+tc.title+" ·") || !strings.Contains(body, "<h1>"+tc.title+"</h1>") {
			t.Errorf("%s: title %q missing", tc.lang, tc.title)
		}
		if strings.Contains(body, tc.notOther) {
			t.Errorf("%s: the other language's text %q leaked in", tc.lang, tc.notOther)
		}
		for _, row := range rows {
			if !strings.Contains(body, row) {
				t.Errorf("%s: role table row %s missing", tc.lang, row)
			}
		}
		for _, v := range tc.points {
			if !strings.Contains(body, v) {
				t.Errorf("%s: points value %q missing", tc.lang, v)
			}
		}
		for _, id := range ids {
			if strings.Count(body, id) != 1 {
				t.Errorf("%s: section %s should appear once", tc.lang, id)
			}
		}
	}
}
