package web_test

import (
	"net/http"
	"os"
	"path/filepath"
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

// A rating page past the last one says so and leads to the last page: it said "no rated games in this period" of a
// rating that has them.
func TestRatingPastItsEnd(t *testing.T) {
	h := newBaseHarness(t, "") // the demo's season: a rating of some pages
	r := h.langGet(h.client(), "uk", "/rating?page=999")
	last := regexp.MustCompile(`id="rating-past-end">Такої сторінки немає \(999\): остання — (\d+)\. <a href="(/rating\?page=\d+)">`).FindStringSubmatch(r.Body)
	if r.StatusCode != http.StatusOK || last == nil || strings.Contains(r.Body, "Немає рейтингових ігор") {
		t.Fatalf("/rating?page=999: %d, says the page is past the end: %v\n%s", r.StatusCode, last != nil, section(r.Body, "<main", "</main>"))
	}
	if page := h.get(h.client(), last[2]); !strings.Contains(page.Body, `id="rating"`) || !strings.Contains(page.Body, "сторінка "+last[1]+" з "+last[1]) && !strings.Contains(page.Body, "page "+last[1]+" of "+last[1]) {
		t.Errorf("the link %s does not lead to the last page", last[2])
	}
}

// textRE is a page's text outside its tags (attribute values, where the ids belong, are left out).
var textRE = regexp.MustCompile(`>[^<]*<`)

// Tournament pages name their rule set as every other page does, in the reader's language, never by its id
// ("fiim-xcraft"): the list, the tournament's page and the organiser's form.
func TestTournamentPagesNameTheirRules(t *testing.T) {
	h := newBaseHarness(t, "") // the demo's season has a tournament
	admin := h.login(club.DemoAdminLogin, club.DemoAdminPassword)
	list := h.langGet(admin, "uk", "/tournaments")
	m := regexp.MustCompile(`href="/tournaments/(\d+)"`).FindStringSubmatch(list.Body)
	if m == nil {
		t.Fatal("the demo has no tournament")
	}
	for _, lang := range i18n.Languages {
		for _, path := range []string{"/tournaments", "/tournaments/" + m[1]} {
			body := h.langGet(admin, lang, path).Body
			text := strings.Join(textRE.FindAllString(section(body, "<main", "</main>"), -1), "")
			if strings.Contains(text, "fiim-") || strings.Contains(text, "fsm-") {
				t.Errorf("%s, %s shows a rule set's id: %q", lang, path, regexp.MustCompile(`\b(fiim|fsm)-[a-z0-9-]+`).FindString(text))
			}
		}
	}
}

// Every table of the site's pages scrolls within itself on a phone (class "list": its own sideways scroll), so that
// a long cell (a Telegram failure's reason, a backup's name) never widens the page: the admin's Telegram page was
// 781-922 px wide at 360 px. The few tables made to fit a phone by their own layout are named here, each with the
// test that holds it.
func TestTablesScrollWithinThemselves(t *testing.T) {
	fitting := map[string]string{
		`class="seats-form"`:    "TestE2EEveryPageFitsAPhone (the seats' correction)",
		`class="meta"`:          "TestE2EPointsAndProtocol360 (the protocol)",
		`class="sheet players"`: "TestE2EPointsAndProtocol360",
		`class="sheet"`:         "TestE2EPointsAndProtocol360",
	}
	names, err := filepath.Glob(filepath.Join("templates", "*.html"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no templates: %v", err)
	}
	tableRE := regexp.MustCompile(`<table\b([^>]*)>`)
	tables := 0
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tableRE.FindAllStringSubmatch(string(b), -1) {
			tables++
			attrs := strings.TrimSpace(m[1])
			if regexp.MustCompile(`class="list\b`).MatchString(attrs) {
				continue
			}
			if _, ok := fitting[strings.SplitN(attrs, " id=", 2)[0]]; ok {
				continue
			}
			t.Errorf("%s: <table %s> does not scroll within itself (class \"list\") on a phone", name, attrs)
		}
	}
	if tables < 20 {
		t.Fatalf("only %d tables found in the templates", tables)
	}
}
