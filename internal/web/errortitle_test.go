package web_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/internal/i18n"
)

var titleRE = regexp.MustCompile(`<title>([^<]*)</title>`)

// An error page names itself in its title, in the reader's language, as every other page does: a tab or the
// browser's history showed " · Mafia club" (an empty name) for a page that does not exist, a refusal or a login
// asked for.
func TestErrorPagesHaveATitle(t *testing.T) {
	h := newHarness(t)
	cat := mustCatalog(t)
	host := h.login(club.DemoHostLogin, club.DemoHostPassword)
	cases := []struct {
		name string
		c    *http.Client
		path string
		code int
	}{
		{"no such page", h.client(), "/no-such-page", http.StatusNotFound},
		{"no such game", host, "/games/999999", http.StatusNotFound},
		{"an admin's page to a host", host, "/admin/members", http.StatusForbidden},
	}
	for _, lang := range i18n.Languages {
		want := cat.T(lang, "error.title") + " · "
		for _, c := range cases {
			r := h.langGet(c.c, lang, c.path)
			m := titleRE.FindStringSubmatch(r.Body)
			if r.StatusCode != c.code || m == nil || !strings.HasPrefix(m[1], want) {
				t.Errorf("%s, %s: %d, title %q; want %d and a title starting %q", lang, c.name, r.StatusCode, m, c.code, want)
			}
		}
	}
}
