package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/storetest"
	"mafiaclub/internal/web"
)

// The owner on a new device gets in while his login is being guessed: the login page offers a one-time sign-in
// link, sent to his linked Telegram chat, that works once, for 15 minutes, in the browser that asked for it.

func TestSignInLinkWhileGuessed(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) { signInLinkWhileGuessed(t, newHarness(t)) })
	t.Run("PostgreSQL", func(t *testing.T) { signInLinkWhileGuessed(t, newHarnessOn(t, storetest.FreshPostgres(t))) })
}

var signInLinkRe = regexp.MustCompile(`https://club\.example\.org(/login/link\?token=[A-Za-z0-9_-]+)`)

func signInLinkWhileGuessed(t *testing.T, h *harness) {
	h.site.TrustedProxies, _ = web.ParseTrustedProxies("127.0.0.1,::1")
	g := newTGOn(t, h)
	g.sender.Links, g.sender.LinkRender = h.site.Services().Accounts, h.site.LinkText
	const chat = 5001
	olha := h.user("olha", "member")
	g.link(olha, chat)
	h.post(olha, "/logout", nil)
	h.user("taras", "member") // an account with no chat

	from := func(c *http.Client, method, path, addr string, form url.Values) response {
		t.Helper()
		req, _ := http.NewRequest(method, h.srv.URL+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", addr)
		return h.do(c, req)
	}
	const phone = "203.0.113.77" // the owner's new device, at an address the club has never seen
	sent := func() int { return len(g.fake.To(chatOf(chat))) }
	// askLink asks for a link for olha with c and returns the path it sends to her chat
	askLink := func(c *http.Client) string {
		t.Helper()
		before := sent()
		r := from(c, http.MethodPost, "/login/link", phone, url.Values{"login": {"olha"}})
		if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, `id="login-link-sent"`) {
			t.Fatalf("asking for a link: %d %s", r.StatusCode, errorOf(r.Body))
		}
		g.drain()
		if sent() != before+1 {
			t.Fatalf("%d messages to the chat, want %d", sent(), before+1)
		}
		m := signInLinkRe.FindStringSubmatch(g.fake.Last(chatOf(chat)).Text)
		if m == nil {
			t.Fatalf("no link in the message: %q", g.fake.Last(chatOf(chat)).Text)
		}
		return m[1]
	}
	loggedIn := func(c *http.Client) bool {
		return h.get(c, "/me").StatusCode == http.StatusOK
	}

	// 1,000 addresses guess olha's password, one each, one every 200 ms
	checked := 0
	for i := range 1000 {
		r := from(h.client(), http.MethodPost, "/login", attacker(i), url.Values{"login": {"olha"}, "password": {"guess"}})
		switch r.StatusCode {
		case http.StatusUnauthorized:
			checked++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("guess %d: %d %s", i+1, r.StatusCode, errorOf(r.Body))
		}
		g.clk.t = g.clk.t.Add(200 * time.Millisecond)
	}
	if checked > 20 {
		t.Errorf("%d of 1,000 guesses in 200 s were checked, want the login's delay to hold them", checked)
	}

	// the owner on a fresh device: the password waits, the page offers a link
	dev := h.client()
	r := from(dev, http.MethodPost, "/login", phone, url.Values{"login": {"olha"}, "password": {"password-olha"}})
	if r.StatusCode != http.StatusTooManyRequests || !strings.Contains(r.Body, `id="login-link-offer"`) ||
		!strings.Contains(r.Body, `action="/login/link"`) {
		t.Fatalf("the right password on a new device while guessed: %d, offer %v", r.StatusCode, strings.Contains(r.Body, `id="login-link-offer"`))
	}
	link := askLink(dev)
	r = from(dev, http.MethodGet, link, phone, nil)
	if r.StatusCode != http.StatusSeeOther || !loggedIn(dev) {
		t.Fatalf("following the link: %d %s, logged in %v", r.StatusCode, errorOf(r.Body), loggedIn(dev))
	}
	if c := cookieOf(r, "mafiaclub_device"); c == nil {
		t.Errorf("no device cookie after the link's sign-in: the next password would wait again")
	}
	if strings.Contains(g.fake.Last(chatOf(chat)).Text, "password-olha") {
		t.Errorf("the message holds the password")
	}

	// used twice: refused
	h.post(dev, "/logout", nil)
	if r := from(dev, http.MethodGet, link, phone, nil); r.StatusCode != http.StatusNotFound || loggedIn(dev) {
		t.Errorf("a link used twice: %d, logged in %v", r.StatusCode, loggedIn(dev))
	}

	// from another device (its own cookie jar, even one that asked for a link of its own): refused, and the link
	// still works on the device that asked
	link = askLink(dev)
	other := h.client()
	from(other, http.MethodPost, "/login/link", "198.51.100.9", url.Values{"login": {"nobody"}})
	for name, c := range map[string]*http.Client{"a fresh browser": h.client(), "a browser that asked for another login": other} {
		if r := from(c, http.MethodGet, link, "198.51.100.9", nil); r.StatusCode != http.StatusNotFound || loggedIn(c) {
			t.Errorf("%s: %d, logged in %v", name, r.StatusCode, loggedIn(c))
		}
	}
	if r := from(dev, http.MethodGet, link, phone, nil); r.StatusCode != http.StatusSeeOther || !loggedIn(dev) {
		t.Errorf("the link on its device after others tried it: %d %s", r.StatusCode, errorOf(r.Body))
	}
	h.post(dev, "/logout", nil)

	// after 15 minutes: refused
	link = askLink(dev)
	g.clk.t = g.clk.t.Add(15 * time.Minute)
	if r := from(dev, http.MethodGet, link, phone, nil); r.StatusCode != http.StatusNotFound || loggedIn(dev) ||
		!strings.Contains(errorOf(r.Body), "посилання для входу не діє") {
		t.Errorf("a link after 15 minutes: %d %q, logged in %v", r.StatusCode, errorOf(r.Body), loggedIn(dev))
	}

	// the answer is the same for olha, an unknown login and an account with no chat, after the same time: only
	// olha's chat gets a link
	answer := func(login string) (response, *http.Cookie) {
		t.Helper()
		start := time.Now()
		r := from(h.client(), http.MethodPost, "/login/link", "192.0.2.200", url.Values{"login": {login}})
		if took := time.Since(start); took < 250*time.Millisecond {
			t.Errorf("asking for %s was answered in %s: sooner than every answer's 250 ms", login, took)
		}
		r.Body = strings.ReplaceAll(r.Body, login, "LOGIN")
		return r, cookieOf(r, "mafiaclub_link")
	}
	before := sent()
	want, wantCookie := answer("olha")
	for _, login := range []string{"nobody", "taras"} {
		got, c := answer(login)
		if got.StatusCode != want.StatusCode || got.Body != want.Body {
			t.Errorf("asking for %s: %d, want %d as for olha; the pages differ: %v", login, got.StatusCode, want.StatusCode, got.Body != want.Body)
		}
		if c == nil || wantCookie == nil || c.MaxAge != wantCookie.MaxAge || c.Path != wantCookie.Path || len(c.Value) != len(wantCookie.Value) ||
			c.Value == wantCookie.Value {
			t.Errorf("asking for %s: cookie %v, olha's %v", login, c, wantCookie)
		}
	}
	g.drain()
	if sent() != before+1 {
		t.Errorf("%d links sent to olha's chat, want 1", sent()-before)
	}
}

// cookieOf is the cookie of that name the response set, nil when none.
func cookieOf(r response, name string) *http.Cookie {
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name {
			return c
		}
	}
	return nil
}
