// Package i18n holds the catalogue type every user-facing string goes through: one format per key and language,
// with CLDR plural forms for counts. It is pure (no HTTP; files only through the fs.FS that Load is given), so the
// host page's engine in WebAssembly translates with the same code as the server.
package i18n

import (
	"fmt"
	"sort"
	"strings"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Languages are the interface languages, the default first.
var Languages = []string{"uk", "en", "ru"}

// Catalog holds every user-facing string by language and key. Values are fmt formats (%[1]v ...).
type Catalog map[string]map[string]string

// T translates key into lang. A missing key shows itself in brackets, so a test or a person notices.
func (c Catalog) T(lang, key string, args ...any) string {
	s, ok := c[lang][key]
	if !ok {
		s, ok = c["en"][key]
	}
	if !ok {
		return "[" + key + "]"
	}
	if len(args) == 0 {
		return s
	}
	return fmt.Sprintf(s, args...)
}

// Has reports whether key exists in every language.
func (c Catalog) Has(key string) bool {
	for _, lang := range Languages {
		if _, ok := c[lang][key]; !ok {
			return false
		}
	}
	return true
}

// Keys returns the keys of one language, sorted.
func (c Catalog) Keys(lang string) []string {
	var keys []string
	for k := range c[lang] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Plural keys end in ".n". Their value lists one format per CLDR plural form of the language, each after its
// form's name: "one:%[1]d game|other:%[1]d games" in English; "one:%[1]d гра|few:%[1]d гри|many:%[1]d ігор|other:%[1]d
// гри" in Ukrainian and Russian. The form is chosen by golang.org/x/text's CLDR rules for the count; the count is
// the first argument of the format.

// PluralForms returns the CLDR plural forms a language's whole numbers take ("one", "few", "many", "other", ...).
func PluralForms(lang string) []string {
	seen := map[string]bool{}
	var out []string
	for n := 0; n < 1000; n++ {
		f := pluralForm(lang, n)
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

func pluralForm(lang string, n int) string {
	if n < 0 {
		n = -n
	}
	switch plural.Cardinal.MatchPlural(language.Make(lang), n, 0, 0, 0, 0) {
	case plural.Zero:
		return "zero"
	case plural.One:
		return "one"
	case plural.Two:
		return "two"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}

// PluralValue splits a plural key's value into its formats by form name.
func PluralValue(v string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(v, "|") {
		if form, format, ok := strings.Cut(part, ":"); ok {
			out[form] = format
		}
	}
	return out
}

// N translates a plural key for the count n: the format of n's plural form in lang (or "other"), given n and then
// args.
func (c Catalog) N(lang, key string, n int, args ...any) string {
	v, ok := c[lang][key]
	if !ok {
		v, ok = c["en"][key]
		lang = "en"
	}
	if !ok {
		return "[" + key + "]"
	}
	forms := PluralValue(v)
	f, ok := forms[pluralForm(lang, n)]
	if !ok {
		f = forms["other"]
	}
	return fmt.Sprintf(f, append([]any{n}, args...)...)
}

// Msg says a domain message of the given format ("msg:FORMAT" in the catalogue), or, where the message counts,
// its plural key "msg:FORMAT.n" for the count that is its first argument. ok is false when the catalogue has neither.
func (c Catalog) Msg(lang, format string, args ...any) (text string, ok bool) {
	// Known, not Has: the browser's engine holds the page's language only
	if c.Known(lang, "msg:"+format) {
		return c.T(lang, "msg:"+format, args...), true
	}
	if key := "msg:" + format + ".n"; c.Known(lang, key) && len(args) > 0 {
		switch n := args[0].(type) {
		case int:
			return c.N(lang, key, n, args[1:]...), true
		case int64:
			return c.N(lang, key, int(n), args[1:]...), true
		}
	}
	return "", false
}

// Known reports whether T finds key for lang (in lang, or in English).
func (c Catalog) Known(lang, key string) bool {
	if _, ok := c[lang][key]; ok {
		return true
	}
	_, ok := c["en"][key]
	return ok
}
