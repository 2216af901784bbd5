package web_test

import (
	"html"
	"net/http"
	"strings"
	"testing"

	"mafiaclub/internal/wasmengine"
)

// noEngineBanner is the admins' warning that host pages have no engine, "" when the page has none.
func noEngineBanner(body string) string {
	_, rest, ok := strings.Cut(body, `id="no-engine"`)
	if !ok {
		return ""
	}
	_, rest, _ = strings.Cut(rest, ">")
	text, _, _ := strings.Cut(rest, "</p>")
	return html.UnescapeString(text)
}

// pageIn is the body of a page in a language (the language cookie comes before the account's and the browser's).
func pageIn(h *harness, c *http.Client, path, lang string) string {
	h.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	req.AddCookie(&http.Cookie{Name: "lang", Value: lang})
	return h.do(c, req).Body
}

// TestNoEngineBanner: while the program has no engine for the host pages (a binary that does not carry it, run
// where it cannot be built), every admin's page says so in his language and names the README's section on
// releases; hosts and members are not shown it, and it goes once an engine is there.
func TestNoEngineBanner(t *testing.T) {
	h := newHarness(t)
	admin := h.login("admin", "demo-admin")
	host := h.login("host", "demo-host")
	if b := noEngineBanner(pageIn(h, admin, "/admin/members", "en")); b != "" {
		t.Fatalf("a banner before the engine is known to be missing: %q", b)
	}
	h.site.SetEngineMissing(true)
	for _, path := range []string{"/nights", "/admin/members", "/games/new", "/rating"} {
		b := noEngineBanner(pageIn(h, admin, path, "en"))
		if !strings.Contains(b, "plain form posts") || !strings.Contains(b, "Installing a club's server") {
			t.Errorf("%s: the admin's banner is %q, want what is lost and where to get a release", path, b)
		}
	}
	if b := noEngineBanner(pageIn(h, host, "/games/new", "en")); b != "" {
		t.Errorf("a host is shown the admins' banner: %q", b)
	}
	if b := noEngineBanner(pageIn(h, h.client(), "/rating", "en")); b != "" {
		t.Errorf("a visitor is shown the admins' banner: %q", b)
	}
	for lang, want := range map[string]string{"uk": "звичайними формами", "ru": "обычными формами"} {
		if b := noEngineBanner(pageIn(h, admin, "/rating", lang)); !strings.Contains(b, want) {
			t.Errorf("%s: the banner is %q, want it in that language (%q)", lang, b, want)
		}
	}
	m, err := wasmengine.New([]byte("\x00asm\x01\x00\x00\x00"), []byte("// the loader\n"))
	if err != nil {
		t.Fatal(err)
	}
	h.site.SetEngine(m)
	if b := noEngineBanner(pageIn(h, admin, "/admin/members", "en")); b != "" {
		t.Errorf("the banner stays once the engine is there: %q", b)
	}
}
