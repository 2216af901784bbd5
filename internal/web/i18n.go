package web

import (
	"embed"
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

// LoadCatalog reads the embedded catalogues (i18n.Load: LANG.json and every LANG.AREA.json of each language).
func LoadCatalog() (Catalog, error) {
	sub, err := fs.Sub(catalogFS, "i18n")
	if err != nil {
		return nil, err
	}
	return i18n.Load(sub)
}

// langCookie names the cookie that keeps the reader's choice of language (per club: Server.cookieName).
const langCookie = "lang"

// pickLang chooses the language: the club's lang cookie, the account's, then Accept-Language.
func (s *Server) pickLang(r *http.Request, userLang string) string {
	valid := func(l string) bool {
		for _, x := range Languages {
			if x == l {
				return true
			}
		}
		return false
	}
	if c, err := r.Cookie(s.cookieName(langCookie)); err == nil && valid(c.Value) {
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
