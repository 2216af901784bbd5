package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"mafiaclub/internal/club"
	"mafiaclub/internal/i18n"
)

// numberVerb is a format's integer verb: %d or %[N]d.
var numberVerb = regexp.MustCompile(`%(?:\[\d+\])?d`)

// wordsThatDoNotAgree follow a number without changing with it, in every language: prepositions and adverbs ("3 of
// 7", "5 з 7", "2 за" in a vote, "3 in line", "round 2 out") and the abbreviations of units ("40 s", "3 хв", "12 MB",
// "2 Ф" for fouls).
var wordsThatDoNotAgree = map[string]bool{
	"of": true, "to": true, "for": true, "per": true, "in": true, "at": true, "on": true, "out": true,
	"з": true, "із": true, "до": true, "за": true, "по": true, "на": true,
	"из": true, "с": true, "во": true,
	"s": true, "min": true, "kb": true, "mb": true, "gb": true, "f": true, "w": true,
	"хв": true, "мин": true, "кб": true, "мб": true, "гб": true, "ф": true, "п": true, "в": true,
}

// numbersThatCountNothing are the keys whose number is followed by a word it does not count: an identifier in the
// middle of a sentence ("seat 3 has no role", "round 2 has begun", "Game 12 live", "event 40 of the log"). Every
// other number a word follows is a count, and its message a plural key. A seat written "#3" or "№3", an ordinal
// ("3-й") and a number that a label precedes ("Tables: 3", "Night 2", "version 7") need no entry: the test knows
// them.
var numbersThatCountNothing = map[string]string{
	"msg:seat %d has no role": "a seat's number",
	"msg:seat %d has no name": "a seat's number",
	"msg:round %d has begun":  "a round's number",
	"live.game_title":         "a game's number",
	"seats.broken":            "an event's number in the game's log",
}

// TestCatalogCountsArePlural: no message of any catalogue says a count with a word that agrees with it ("1
// strikes", "3 порушень", "at most 1 times") other than through a plural key, whose forms follow the language's
// CLDR rules. A non-plural message's integer (%d, %[N]d) may be followed only by punctuation, the end, another
// number, an ordinal's ending, a word that does not agree with numbers (wordsThatDoNotAgree) or, for the few
// identifiers in numbersThatCountNothing, any word.
func TestCatalogCountsArePlural(t *testing.T) {
	cat := mustCatalog(t)
	checked := 0
	for _, lang := range i18n.Languages {
		for _, key := range cat.Keys(lang) {
			if strings.HasSuffix(key, ".n") {
				continue
			}
			if _, ok := numbersThatCountNothing[key]; ok {
				continue
			}
			msg := cat[lang][key]
			for _, m := range numberVerb.FindAllStringIndex(msg, -1) {
				checked++
				if w := countedWord(msg, m[0], m[1]); w != "" {
					t.Errorf("%s %s: %q counts %q: make it a plural key (%s.n) with %s's forms", lang, key, msg, w, key, lang)
				}
			}
		}
	}
	for key := range numbersThatCountNothing {
		if !cat.Has(key) {
			t.Errorf("%s is on numbersThatCountNothing but in no catalogue: take it off", key)
		}
	}
	if checked < 100 {
		t.Fatalf("checked only %d numbers: the catalogues were not read", checked)
	}
}

// countedWord returns the word that follows the number verb msg[start:end] and may agree with it, or "".
func countedWord(msg string, start, end int) string {
	if before, _ := utf8.DecodeLastRuneInString(msg[:start]); before == '#' || before == '№' {
		return "" // a seat's or a game's number
	}
	rest := msg[end:]
	if strings.HasPrefix(rest, "-") {
		return "" // an ordinal: "3-й"
	}
	rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
	i := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
	if i < 0 {
		i = len(rest)
	}
	word := rest[:i]
	if word == "" || wordsThatDoNotAgree[strings.ToLower(word)] {
		return ""
	}
	return word
}

// A domain refusal that counts is said with the count's form (the plural key "msg:FORMAT.n"): two approved players
// "do not fill" a table in the plural's few form, one in the singular.
func TestDomainCountsArePlural(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	adminUser, _ := h.store.UserByLogin(ctx, "admin")
	admin := h.login("admin", "demo-admin")
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-02", Rules: club.ClubRules, ChiefJudge: adminUser.ID}
	if err := h.site.Services().Tournaments.Create(ctx, adminUser, tour); err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/tournaments/%d", tour.ID)
	for _, c := range []struct{ add, want string }{
		{"Joker", "1 підтверджений гравець не заповнює стіл на 10"},
		{"Bohdana", "2 підтверджені гравці не заповнюють стіл на 10"},
	} {
		if r := h.post(admin, path+"/bulk", url.Values{"list": {c.add}}); r.StatusCode != http.StatusOK {
			t.Fatalf("bulk: %d", r.StatusCode)
		}
		r := h.post(admin, path+"/stages", url.Values{"name": {"Q"}, "rounds": {"2"}, "per_table": {"10"}})
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), c.want) {
			t.Errorf("a stage: %d %q, want %q", r.StatusCode, errorOf(r.Body), c.want)
		}
	}
}
