package web_test

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"mafiaclub/internal/i18n"
	"mafiaclub/mafia"
)

// catalogueRuleID matches what no catalogue message may say (issue 24): the matrix's rows ("R43", "R86-R94",
// "C-03"), the seeds' points and lines ("§T6.2", "000 L105", "7.1-7.2" after a §), an option's name as the engine or
// a platform spells it ("liftOnly", "ugayka_all_blacks").
var catalogueRuleID = regexp.MustCompile(`\bR\d\d\b|\bC-\d\d\b|§|\bL\d+\b|\b\d+\.\d+\.\d+\b|\b[a-z]+[A-Z]\w*\b|\b[a-z0-9]+(?:_[a-z0-9]+)+\b`)

// programNames are words a message may quote as they are, since the reader types them: the PostgreSQL backup
// program the admins' backup page names.
var programNames = []string{"pg_dump"}

// TestCatalogueSaysRulesInWords: no message of any catalogue, in any language, names a rule by its id or an option
// by its name: the rule is said in words ("a second shot makes tonight's shot a miss", not "R43"). Catalogue keys
// ("msg:..." keys are English formats) are not read, only the messages.
func TestCatalogueSaysRulesInWords(t *testing.T) {
	cat := mustCatalog(t)
	options := []string{"liftOnly"}
	for _, rs := range mafia.RuleSets() {
		options = append(options, rs.OptionKeys()...)
	}
	n := 0
	for _, lang := range i18n.Languages {
		for _, key := range cat.Keys(lang) {
			msg := cat[lang][key]
			n++
			for _, p := range programNames {
				msg = strings.ReplaceAll(msg, p, "")
			}
			if m := catalogueRuleID.FindString(msg); m != "" {
				t.Errorf("%s %s: %q names %q", lang, key, cat[lang][key], m)
			}
			for _, o := range options {
				if strings.Contains(msg, o) {
					t.Errorf("%s %s: %q names the option %s", lang, key, cat[lang][key], o)
				}
			}
		}
	}
	if n < 1000 {
		t.Fatalf("read only %d messages: the catalogues were not loaded", n)
	}
}

// cyrillicInEnglish are the English catalogue's keys whose message is Cyrillic on purpose: the language menu names
// each language in itself, so that a reader finds his own.
var cyrillicInEnglish = map[string]bool{"lang.uk": true, "lang.ru": true}

// TestEnglishCatalogueHasNoCyrillic: the English pages say nothing in Ukrainian or Russian ("The угайка extra").
func TestEnglishCatalogueHasNoCyrillic(t *testing.T) {
	cat := mustCatalog(t)
	for _, key := range cat.Keys("en") {
		msg := cat["en"][key]
		if cyrillicInEnglish[key] {
			continue
		}
		for _, r := range msg {
			if unicode.Is(unicode.Cyrillic, r) {
				t.Errorf("en %s: %q is partly Cyrillic", key, msg)
				break
			}
		}
	}
	for key := range cyrillicInEnglish {
		if _, ok := cat["en"][key]; !ok {
			t.Errorf("en: the allowed %s is gone: take it off the list", key)
		}
	}
}
