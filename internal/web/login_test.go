package web_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
)

// A loginSite is a harness whose clock the test moves and whose clients' addresses it names (as the club's proxy
// on this machine would, in X-Forwarded-For).
type loginSite struct {
	*harness
	clk *clock
}

func newLoginSite(t *testing.T) *loginSite {
	h := newHarness(t)
	h.site.TrustedProxies, _ = web.ParseTrustedProxies("127.0.0.1,::1")
	clk := &clock{t: time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	return &loginSite{h, clk}
}

// account adds an account whose password is "password-LOGIN", without logging in.
func (s *loginSite) account(login string) {
	s.t.Helper()
	hash, _ := club.HashPassword("password-" + login)
	if err := s.store.CreateUser(context.Background(), &club.User{Login: login, Name: login, Role: club.RoleHost, PasswordHash: hash}); err != nil {
		s.t.Fatal(err)
	}
}

// loginFrom posts the login form with c from the client address addr.
func (s *loginSite) loginFrom(c *http.Client, addr, login, password string) response {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.srv.URL+"/login", strings.NewReader(url.Values{"login": {login}, "password": {password}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", addr)
	return s.do(c, req)
}

func (s *loginSite) wait(d time.Duration) { s.clk.t = s.clk.t.Add(d) }

// retryAfter is a refusal's Retry-After in seconds: -1 when it has none.
func retryAfter(r response) int {
	n, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil {
		return -1
	}
	return n
}

// attacker is the address of the i-th of many clients.
func attacker(i int) string { return fmt.Sprintf("198.18.%d.%d", i/250, 1+i%250) }

// TestLoginRightPasswordFromAnotherAddress (issue 23.2): five wrong passwords from one address no longer lock the
// account: a moment later the right password from another address logs in, while the address that failed waits
// out its ten minutes.
func TestLoginRightPasswordFromAnotherAddress(t *testing.T) {
	s := newLoginSite(t)
	s.account("olha")
	for i := range 5 {
		if r := s.loginFrom(s.client(), "203.0.113.66", "olha", "guess"); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d", i+1, r.StatusCode)
		}
	}
	s.wait(time.Second)
	home := s.client()
	if r := s.loginFrom(home, "198.51.100.7", "olha", "password-olha"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the right password from another address: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := s.get(home, "/me"); r.StatusCode != http.StatusOK {
		t.Errorf("logged in from the other address, /me: %d", r.StatusCode)
	}
	r := s.loginFrom(s.client(), "203.0.113.66", "OLHA", "password-olha")
	if r.StatusCode != http.StatusTooManyRequests || !strings.Contains(errorOf(r.Body), "зачекайте десять хвилин") {
		t.Errorf("the right password from the address that failed: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if ra := retryAfter(r); ra != 599 {
		t.Errorf("the address that failed: Retry-After %d, want 599 (its first failure leaves the ten minutes)", ra)
	}
}

// TestLoginDelayGrows (issue 23.2): after a login's five free passwords, each next one from a client it does not
// trust is refused until a delay after the last has passed, 429 with a Retry-After of 1, 2, 4 ... 32, then 60 s;
// the delay ends ten minutes after the last password.
func TestLoginDelayGrows(t *testing.T) {
	s := newLoginSite(t)
	s.account("olha")
	next := 0
	guess := func() response {
		next++
		return s.loginFrom(s.client(), attacker(next), "olha", "guess")
	}
	for i := range 5 {
		if r := guess(); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i+1, r.StatusCode)
		}
	}
	for _, c := range []struct {
		wait int
		says string
	}{{1, "за 1 секунду"}, {2, "за 2 секунди"}, {4, "за 4 секунди"}, {8, "за 8 секунд"}, {16, "за 16 секунд"},
		{32, "за 32 секунди"}, {60, "за 60 секунд"}, {60, "за 60 секунд"}} {
		r := guess()
		if r.StatusCode != http.StatusTooManyRequests || retryAfter(r) != c.wait || !strings.Contains(errorOf(r.Body), c.says) {
			t.Fatalf("a guess at once: %d, Retry-After %q, %q; want 429 with %d s", r.StatusCode, r.Header.Get("Retry-After"),
				errorOf(r.Body), c.wait)
		}
		s.wait(time.Duration(c.wait)*time.Second - time.Millisecond)
		if r := guess(); r.StatusCode != http.StatusTooManyRequests || retryAfter(r) != 1 {
			t.Fatalf("a millisecond early: %d, Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
		}
		s.wait(time.Millisecond)
		if r := guess(); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("after %d s: %d %s", c.wait, r.StatusCode, errorOf(r.Body))
		}
	}
	req, _ := http.NewRequest(http.MethodPost, s.srv.URL+"/login", strings.NewReader("login=olha&password=guess"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Forwarded-For", attacker(999))
	req.AddCookie(&http.Cookie{Name: "lang", Value: "en"})
	if r := s.do(s.client(), req); !strings.Contains(errorOf(r.Body), "try again in 60 seconds") {
		t.Errorf("in English: %q", errorOf(r.Body))
	}
	s.wait(10 * time.Minute)
	for i := range 5 {
		if r := guess(); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("ten minutes after the last, guess %d: %d", i+1, r.StatusCode)
		}
	}
}

// TestLoginDeviceCookieDuringTheDelay (issue 23.2): the browser the real user logged in on before holds a device
// cookie, and with it he logs in from anywhere while guesses from elsewhere keep his login's delay at its longest;
// so does any client from an address he logged in from. A client without the cookie, with a forged one or with
// another account's waits. His login does not end the delay for the others.
func TestLoginDeviceCookieDuringTheDelay(t *testing.T) {
	s := newLoginSite(t)
	s.account("olha")
	s.account("taras")
	phone := s.client()
	r := s.loginFrom(phone, "192.0.2.10", "olha", "password-olha")
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the first login: %d", r.StatusCode)
	}
	var device *http.Cookie
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == "mafiaclub_device" {
			device = c
		}
	}
	if device == nil {
		t.Errorf("no device cookie: %q", r.Header.Values("Set-Cookie"))
		device = &http.Cookie{Name: "mafiaclub_device", Value: "none"}
	}
	if !device.HttpOnly || device.SameSite != http.SameSiteLaxMode || device.MaxAge != 365*24*3600 || device.Path != "/login" ||
		strings.Contains(device.Value, "password") {
		t.Errorf("device cookie %s", device)
	}
	s.post(phone, "/logout", nil)
	tarasDevice := s.client()
	s.loginFrom(tarasDevice, "192.0.2.11", "taras", "password-taras")

	// an hour later, guesses from 20 addresses bring the login's delay to its longest
	s.wait(time.Hour)
	for i := 0; i < 20; i++ {
		r := s.loginFrom(s.client(), attacker(i), "olha", "guess")
		if r.StatusCode == http.StatusTooManyRequests {
			s.wait(time.Duration(retryAfter(r)) * time.Second)
			r = s.loginFrom(s.client(), attacker(i), "olha", "guess")
		}
		if r.StatusCode != http.StatusUnauthorized {
			t.Errorf("guess %d: %d, Retry-After %q", i+1, r.StatusCode, r.Header.Get("Retry-After"))
			break
		}
	}
	s.wait(10 * time.Second)
	stranger := s.loginFrom(s.client(), "203.0.113.50", "olha", "password-olha")
	if stranger.StatusCode != http.StatusTooManyRequests || retryAfter(stranger) != 50 {
		t.Errorf("a new browser at a new address during the delay: %d, Retry-After %q", stranger.StatusCode, stranger.Header.Get("Retry-After"))
	}
	forged := *device
	forged.Value = device.Value[:len(device.Value)-4] + "AAAA"
	for name, c := range map[string]*http.Cookie{"a forged device cookie": &forged, "taras's device cookie": nil} {
		client := s.client()
		u, _ := url.Parse(s.srv.URL + "/login")
		if c == nil {
			client.Jar.SetCookies(u, tarasDevice.Jar.Cookies(u))
		} else {
			client.Jar.SetCookies(u, []*http.Cookie{{Name: c.Name, Value: c.Value, Path: "/login"}})
		}
		if r := s.loginFrom(client, "203.0.113.51", "olha", "password-olha"); r.StatusCode != http.StatusTooManyRequests {
			t.Errorf("%s during the delay: %d", name, r.StatusCode)
		}
	}
	if r := s.loginFrom(phone, "203.0.113.50", "olha", "password-olha"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("his phone, with its device cookie, during the delay: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := s.get(phone, "/games"); r.StatusCode != http.StatusOK {
		t.Errorf("his phone after the login: %d", r.StatusCode)
	}
	if r := s.loginFrom(s.client(), "192.0.2.10", "olha", "password-olha"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("another browser at the address he logged in from before, during the delay: %d", r.StatusCode)
	}
	if r := s.loginFrom(s.client(), attacker(100), "olha", "guess"); r.StatusCode != http.StatusTooManyRequests || retryAfter(r) != 60 {
		t.Errorf("a guess right after his logins: %d, Retry-After %q; want the delay to go on", r.StatusCode, r.Header.Get("Retry-After"))
	}
	// the device's own bound: five wrong passwords on his phone, then it waits like anyone
	for i := range 5 {
		if r := s.loginFrom(phone, attacker(200+i), "olha", "typo"); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("a typo %d on his phone: %d", i+1, r.StatusCode)
		}
	}
	if r := s.loginFrom(phone, attacker(210), "olha", "password-olha"); r.StatusCode != http.StatusTooManyRequests {
		t.Errorf("his phone after five wrong passwords: %d", r.StatusCode)
	}
}

// TestLoginGuessesSpreadOver1000Addresses (issue 23.2): guesses at one login from 1,000 addresses, two a second
// for a simulated hour, get at most club.MaxGuesses(an hour) = 69 passwords checked; every other one is refused
// with a Retry-After of at most a minute, and the real user logs in from his phone in the middle of it.
func TestLoginGuessesSpreadOver1000Addresses(t *testing.T) {
	s := newLoginSite(t)
	s.site.Log = slog.New(slog.DiscardHandler) // 7,200 requests
	s.account("olha")
	phone := s.client()
	if r := s.loginFrom(phone, "192.0.2.10", "olha", "password-olha"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the first login: %d", r.StatusCode)
	}
	s.post(phone, "/logout", nil)
	s.wait(time.Hour)
	start := s.clk.t
	checked, refused, next, badWait := 0, 0, 0, 0
	used := map[string]bool{}
	for sec := range 3600 {
		s.clk.t = start.Add(time.Duration(sec) * time.Second)
		if sec == 1830 {
			if r := s.loginFrom(phone, "203.0.113.99", "olha", "password-olha"); r.StatusCode != http.StatusSeeOther {
				t.Errorf("his phone in the middle of the attack: %d", r.StatusCode)
			}
			s.post(phone, "/logout", nil)
		}
		for range 2 {
			addr := attacker(next % 1000)
			next++
			used[addr] = true
			switch r := s.loginFrom(s.client(), addr, "olha", "guess"); r.StatusCode {
			case http.StatusUnauthorized:
				checked++
			case http.StatusTooManyRequests:
				refused++
				if ra := retryAfter(r); (ra < 1 || ra > 60) && badWait == 0 {
					badWait++
					t.Errorf("second %d: Retry-After %q, want 1 to 60 s", sec, r.Header.Get("Retry-After"))
				}
			default:
				t.Fatalf("second %d: %d", sec, r.StatusCode)
			}
		}
	}
	bound := club.MaxGuesses(time.Hour)
	t.Logf("an hour from %d addresses: %d passwords checked, %d refused (bound %d)", len(used), checked, refused, bound)
	if checked > bound {
		t.Errorf("%d passwords checked in an hour, over the bound %d", checked, bound)
	}
	if checked < bound-1 { // his own login took one place
		t.Errorf("only %d passwords checked in an hour: held more than the stated delay (%d)", checked, bound)
	}
	if len(used) != 1000 {
		t.Errorf("%d addresses", len(used))
	}
}
