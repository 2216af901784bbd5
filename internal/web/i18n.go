package web

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"mafiaclub/internal/i18n"
	"net/http"
	"strings"
)

//go:embed i18n/*.json
var catalogFS embed.FS

// Languages are the interface languages, the default first.
var Languages = i18n.Languages

// Catalog holds every user-facing string by language and key (see package i18n).
type Catalog = i18n.Catalog

// PluralForms and PluralValue are i18n's, for the catalogue's tests.
var (
	PluralForms = i18n.PluralForms
	PluralValue = i18n.PluralValue
)

// LoadCatalog reads the embedded catalogues: for each language, i18n/LANG.json and every i18n/LANG.AREA.json (one
// file per area of the site, so that work on one area does not touch another's file). A key in two files of one
// language is an error.
func LoadCatalog() (Catalog, error) {
	c := Catalog{}
	for _, lang := range Languages {
		files, err := fs.Glob(catalogFS, "i18n/"+lang+".*json")
		if err != nil {
			return nil, err
		}
		m := map[string]string{}
		for _, name := range files {
			data, err := catalogFS.ReadFile(name)
			if err != nil {
				return nil, err
			}
			part := map[string]string{}
			if err := json.Unmarshal(data, &part); err != nil {
				return nil, fmt.Errorf("catalogue %s: %w", name, err)
			}
			for k, v := range part {
				if _, dup := m[k]; dup {
					return nil, fmt.Errorf("catalogue %s: the key %q is in another file of %s too", name, k, lang)
				}
				m[k] = v
			}
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("no catalogue for %s", lang)
		}
		c[lang] = m
	}
	return c, nil
}

// pickLang chooses the language: a ?lang= choice, the lang cookie, the account's, then Accept-Language.
func pickLang(r *http.Request, userLang string) string {
	valid := func(l string) bool {
		for _, x := range Languages {
			if x == l {
				return true
			}
		}
		return false
	}
	if c, err := r.Cookie("lang"); err == nil && valid(c.Value) {
		return c.Value
	}
	if valid(userLang) {
		return userLang
	}
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		if l := strings.SplitN(tag, "-", 2)[0]; valid(l) {
			return l
		}
	}
	return Languages[0]
}
