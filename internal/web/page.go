package web

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/hostview"
	"mafiaclub/mafia"
)

// Page is what every page's view starts with.
type Page struct {
	Lang  string
	Langs []string
	User  *club.User
	// Person is the installation's person logged in (Persons), nil when none: his account here is User, nil when
	// he is not a member of this club.
	Person *club.Person
	// Unread is the viewer's unread notices, shown in the menu.
	Unread int
	Title  string
	Path   string
	// Club is the club's identity (shared: never changed by a page) and SiteName its name in the page's language,
	// or the catalogue's "site.name" for a club without one: every page's title and header say it.
	Club *club.Club
	// Platform: this is the installation's own site with other clubs to look after (/admin/clubs, for its admins).
	Platform bool
	SiteName string
	cat      Catalog
	zone     *time.Location

	// DiskLow is the admins' warning that the server's disk is nearly full ("" when it is not; storage.go).
	DiskLow string
	// NoEngine is the admins' warning that host pages have no engine in the browser ("" when they have; release.go).
	NoEngine string
}

// LoginName is the login the viewer logged in with: his person's (the installation's account), or his account's
// in this club.
func (p Page) LoginName() string {
	switch {
	case p.Person != nil:
		return p.Person.Login
	case p.User != nil:
		return p.User.Login
	}
	return ""
}

// T translates a catalogue key in the page's language.
func (p Page) T(key string, args ...any) string { return p.cat.T(p.Lang, key, args...) }

// N translates a plural catalogue key ("....n") for the count n in the page's language.
func (p Page) N(key string, n int, args ...any) string { return p.cat.N(p.Lang, key, n, args...) }

// RulesTitle is a rule set's title in the page's language (the engine's Title is English).
func (p Page) RulesTitle(rs *mafia.Rules) string { return hostview.RulesTitle(p.cat, p.Lang, rs) }

// RoleLetter is a role's protocol letter in the page's language.
func (p Page) RoleLetter(r mafia.Role) string { return hostview.RoleLetter(p.cat, p.Lang, r) }

// IsAdmin reports whether the viewer is an admin.
func (p Page) IsAdmin() bool { return p.User != nil && p.User.Role.Can(club.RoleAdmin) }

// IsHost reports whether the viewer may host games.
func (p Page) IsHost() bool { return p.User != nil && p.User.Role.Can(club.RoleHost) }

// Time formats t in the club's time zone.
func (p Page) Time(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(p.zone).Format("2006-01-02 15:04")
}

// Clock formats the time of day of t in the club's time zone.
func (p Page) Clock(t time.Time) string { return t.In(p.zone).Format("15:04:05") }

func (s *Server) page(r *http.Request) Page {
	u := currentUser(r)
	lang := ""
	if u != nil {
		lang = u.Lang
	}
	p := Page{Lang: s.pickLang(r, lang), Langs: Languages, User: u, Person: currentPerson(r), Path: r.URL.RequestURI(), cat: s.Catalog, zone: s.zone()}
	p.Club = s.clubOf(r.Context())
	p.Platform = s.Platform != nil
	if p.SiteName = p.Club.NameIn(p.Lang); p.SiteName == "" {
		p.SiteName = p.T("site.name")
	}
	if u != nil {
		p.Unread, _ = s.svc.Notices.Unread(r.Context(), u) // a page without the count is better than no page
	}
	if p.IsAdmin() {
		p.DiskLow = s.diskWarning(p.Lang)
		p.NoEngine = s.engineWarning(p.Lang)
	}
	return p
}

var funcs = template.FuncMap{
	"seq": func(n int) []int {
		out := make([]int, n)
		for i := range out {
			out[i] = i + 1
		}
		return out
	},
	"points": formatPoints,
	"add":    func(a, b int) int { return a + b },
	"kb":     func(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) },
	// newKey is a fresh idempotency key for an action's form: a browser that sends the form again (its answer
	// lost) sends the same key, and the action is recorded once.
	"newKey": newRequestID,
	"dict": func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	},
}

// formatPoints writes hundredths as a signed decimal with two places: "1.30", "-0.05".
func formatPoints(h int) string { return hostview.Points(h) }

func urlQueryEscape(s string) string { return url.QueryEscape(s) }

// safeNext keeps a post-login redirect on this club's site: a path with no scheme, no host, no backslash and no
// control character (browsers drop tabs and newlines, which would turn "/\t/evil" into "//evil"), under Base (a
// next names the whole path, "/c/x/games/12", as the pages write it); anything else is the club's front door.
func (s *Server) safeNext(next string) string {
	home := s.path("/") // the front door, which shows each role its own
	for _, c := range next {
		if c < 0x20 || c == 0x7f || c == '\\' {
			return home
		}
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") {
		return home
	}
	if s.Base != "" && next != s.Base && !strings.HasPrefix(next, s.Base+"/") && !strings.HasPrefix(next, s.Base+"?") {
		return home // another club's page, or the root's
	}
	return next
}
