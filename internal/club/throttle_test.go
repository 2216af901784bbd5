package club

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)

// refusal is the error admit gives, and the wait it says.
func refusal(err error) (*Error, time.Duration) {
	var th *Throttled
	if !errors.As(err, &th) {
		return nil, 0
	}
	return th.Err, th.RetryAfter
}

// TestGuessDelays: the delay after n checked passwords of a login, and the bound it gives.
func TestGuessDelays(t *testing.T) {
	want := []time.Duration{0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 60, 60, 60}
	for n, w := range want {
		if got := GuessDelay(n); got != w*time.Second {
			t.Errorf("GuessDelay(%d) = %v, want %v", n, got, w*time.Second)
		}
	}
	for _, c := range []struct {
		span time.Duration
		want int
	}{{0, 5}, {time.Second, 6}, {62 * time.Second, 10}, {63 * time.Second, 11}, {122 * time.Second, 11},
		{123 * time.Second, 12}, {10 * time.Minute, 19}, {time.Hour, 69}, {24 * time.Hour, 1449}} {
		if got := MaxGuesses(c.span); got != c.want {
			t.Errorf("MaxGuesses(%v) = %d, want %d", c.span, got, c.want)
		}
	}
}

// TestLoginDelayAcrossAddresses: five passwords of a login are checked at once, from any addresses; then each
// next one from an untrusted client waits 1 s, 2 s, 4 s ... at most 60 s after the last, and is refused before with
// the time left. Each address is held by its own bound too.
func TestLoginDelayAcrossAddresses(t *testing.T) {
	th := newThrottle()
	login := loginKey("Host")
	now := t0
	for i := range FreeGuesses {
		if err := th.admit(&guess{login: login, addr: fmt.Sprintf("198.51.100.%d", i)}, now); err != nil {
			t.Fatalf("guess %d: %v", i+1, err)
		}
	}
	addr := 100
	for _, wait := range []time.Duration{1, 2, 4, 8, 16, 32, 60, 60, 60} {
		wait *= time.Second
		addr++
		g := &guess{login: loginKey("HOST"), addr: fmt.Sprintf("203.0.113.%d", addr)}
		if e, w := refusal(th.admit(g, now)); e != ErrDelayed || w != wait {
			t.Fatalf("a fresh address at once: %v, wait %v; want delayed %v", e, w, wait)
		}
		if e, w := refusal(th.admit(g, now.Add(wait-time.Millisecond))); e != ErrDelayed || w != time.Millisecond {
			t.Fatalf("a millisecond early: %v, wait %v", e, w)
		}
		now = now.Add(wait)
		if err := th.admit(g, now); err != nil {
			t.Fatalf("after %v: %v", wait, err)
		}
	}
	// the pair bound: the address that failed five times waits ten minutes, whatever the delay
	for i := range FreeGuesses {
		if err := th.admit(&guess{login: loginKey("member"), addr: "192.0.2.7"}, now); err != nil {
			t.Fatalf("member's guess %d: %v", i+1, err)
		}
	}
	if e, w := refusal(th.admit(&guess{login: loginKey("member"), addr: "192.0.2.7"}, now.Add(2*time.Minute))); e != ErrThrottled || w != 8*time.Minute {
		t.Errorf("a sixth from the same address: %v, wait %v; want throttled for 8 minutes", e, w)
	}
	// the delay ends with the run: RunQuiet after the last guess, five are free again
	now = now.Add(RunQuiet)
	for i := range FreeGuesses {
		if err := th.admit(&guess{login: login, addr: fmt.Sprintf("192.0.2.%d", 100+i)}, now); err != nil {
			t.Fatalf("after a quiet run, guess %d: %v", i+1, err)
		}
	}
}

// TestInFlightGuessesCount: parallel guesses are counted before their hashes, and one given back (the server was
// busy) is no longer counted.
func TestInFlightGuessesCount(t *testing.T) {
	th := newThrottle()
	var gs []*guess
	for i := range FreeGuesses + 1 {
		g := &guess{login: loginKey("host"), addr: fmt.Sprintf("198.51.100.%d", i)}
		err := th.admit(g, t0)
		if (err == nil) != (i < FreeGuesses) {
			t.Fatalf("parallel guess %d: %v", i+1, err)
		}
		gs = append(gs, g)
	}
	th.giveBack(gs[0], t0)
	if err := th.admit(gs[5], t0); err != nil {
		t.Errorf("after a guess was given back: %v", err)
	}
	if err := th.admit(gs[0], t0); !errors.Is(err, ErrDelayed) {
		t.Errorf("one more: %v, want delayed", err)
	}
}

// TestTrustedClients: an address the login succeeded from and a device of the login are not held by the delay,
// only by their own bounds (5 in 10 minutes); a success does not end the delay for the others, clears its own
// client's failures but not its address's at other logins.
func TestTrustedClients(t *testing.T) {
	th := newThrottle()
	login := loginKey("host")
	clubAddr := &guess{login: login, addr: "192.0.2.1", account: userAccount(1)}
	if err := th.admit(clubAddr, t0); err != nil {
		t.Fatal(err)
	}
	th.succeeded(clubAddr, t0)
	now := t0.Add(time.Minute)
	for i := range 8 { // the run reaches its longest delay
		g := &guess{login: login, addr: fmt.Sprintf("198.51.100.%d", i)}
		if err := th.admit(g, now); err != nil {
			t.Fatalf("guess %d: %v", i+1, err)
		}
		now = now.Add(GuessDelay(th.runs[login].n))
	}
	stranger := &guess{login: login, addr: "203.0.113.9"}
	if !errors.Is(th.admit(stranger, now.Add(-time.Millisecond)), ErrDelayed) {
		t.Fatal("a stranger is not delayed")
	}
	for i := range 4 {
		if err := th.admit(clubAddr, now); err != nil {
			t.Fatalf("the club's address, failure %d during the delay: %v", i+1, err)
		}
	}
	phone := &guess{login: login, addr: "203.0.113.9", device: strings.Repeat("ab", 16)}
	for i := range 5 {
		if err := th.admit(phone, now); err != nil {
			t.Fatalf("the host's phone, failure %d during the delay: %v", i+1, err)
		}
	}
	if e, w := refusal(th.admit(phone, now)); e != ErrThrottled || w != 10*time.Minute {
		t.Errorf("the phone's sixth failure: %v %v, want throttled for 10 minutes", e, w)
	}
	// the club's address succeeds: its failures at this login go; the delay for strangers stays
	if err := th.admit(clubAddr, now); err != nil {
		t.Fatal(err)
	}
	th.succeeded(clubAddr, now)
	if e, w := refusal(th.admit(stranger, now)); e != ErrDelayed || w != MaxDelay {
		t.Errorf("a stranger right after the host's login: %v %v, want delayed a minute", e, w)
	}
	for i := range 5 {
		if err := th.admit(clubAddr, now); err != nil {
			t.Fatalf("the club's address after its success, failure %d: %v", i+1, err)
		}
	}
	if !errors.Is(th.admit(clubAddr, now), ErrThrottled) {
		t.Error("the club's address has more than five failures")
	}
	// the trust of an address lasts TrustAddrFor after its last success
	later := now.Add(TrustAddrFor - time.Second)
	for i := range 8 {
		if err := th.admit(&guess{login: login, addr: fmt.Sprintf("198.51.100.%d", i)}, later); err != nil && i < FreeGuesses {
			t.Fatal(err)
		}
	}
	if err := th.admit(clubAddr, later); err != nil {
		t.Errorf("the club's address a second before 30 days after its last success: %v", err)
	}
	if !errors.Is(th.admit(clubAddr, later.Add(time.Second)), ErrDelayed) {
		t.Error("an address is trusted 30 days after its last success")
	}

	// the address bound: 49 failures at other logins, a success at one's own login, then one more
	th = newThrottle()
	for i := range 49 {
		if err := th.admit(&guess{login: loginKey(fmt.Sprintf("victim%d", i)), addr: "192.0.2.66"}, t0); err != nil {
			t.Fatal(err)
		}
	}
	own := &guess{login: loginKey("attacker"), addr: "192.0.2.66", account: userAccount(2)}
	if err := th.admit(own, t0); err != nil {
		t.Fatal(err)
	}
	th.succeeded(own, t0)
	if err := th.admit(&guess{login: loginKey("victim49"), addr: "192.0.2.66"}, t0); err != nil {
		t.Fatal(err)
	}
	if !errors.Is(th.admit(&guess{login: loginKey("victim50"), addr: "192.0.2.66"}, t0), ErrThrottled) {
		t.Error("a success at one's own login cleared the address's failures at others")
	}
}

// TestMaxGuessesHolds: attackers from as many addresses as they like, guessing as soon as they may or pausing to
// let the run end, never get more of a login's passwords checked in any period than MaxGuesses says; the one who
// never pauses gets exactly that many in the first hour.
func TestMaxGuessesHolds(t *testing.T) {
	for _, pause := range []int{0, 10, 11, 12, 19, 30} { // 0: never; n: after each n guesses, wait for the run to end
		th := newThrottle()
		var checked []time.Time
		addr := 0
		for s := 0; s < 4*3600; s++ {
			now := t0.Add(time.Duration(s) * time.Second)
			if pause > 0 && len(checked) > 0 && len(checked)%pause == 0 && now.Sub(checked[len(checked)-1]) < RunQuiet {
				continue
			}
			for range 20 { // 20 requests a second, each from a new address
				addr++
				if th.admit(&guess{login: loginKey("host"), addr: fmt.Sprintf("10.%d.%d.%d", addr>>16, addr>>8&255, addr&255)}, now) == nil {
					checked = append(checked, now)
				}
			}
		}
		for _, span := range []time.Duration{0, time.Second, 63 * time.Second, 10 * time.Minute, time.Hour, 3 * time.Hour} {
			most := 0
			for i := range checked {
				j := i
				for j < len(checked) && checked[j].Sub(checked[i]) <= span {
					j++
				}
				most = max(most, j-i)
			}
			if most > MaxGuesses(span) {
				t.Errorf("pausing after %d: %d guesses within %v, over the bound %d", pause, most, span, MaxGuesses(span))
			}
			if pause == 0 && most != MaxGuesses(span) {
				t.Errorf("never pausing: %d guesses within %v, want the bound %d", most, span, MaxGuesses(span))
			}
		}
	}
}

// TestThrottleMemoryBounded: a flood of distinct logins from distinct addresses keeps the throttle's maps within
// their bounds. A run is never forgotten while it lasts: when there is no room for another, a new login from an
// untrusted client waits for a run to end, and a trusted one is still checked.
func TestThrottleMemoryBounded(t *testing.T) {
	th := newThrottle()
	th.maxKeys, th.maxRuns, th.maxTrusted = 200, 100, 10
	target := loginKey("host")
	now := t0
	for i := range 11 {
		if i > 0 {
			now = now.Add(GuessDelay(th.runs[target].n))
		}
		if err := th.admit(&guess{login: target, addr: fmt.Sprintf("192.0.2.%d", i)}, now); err != nil {
			t.Fatal(err)
		}
	}
	refused := 0
	for i := range 10000 {
		g := &guess{login: loginKey(fmt.Sprintf("flood%d", i)), addr: fmt.Sprintf("10.0.%d.%d", i>>8, i&255)}
		err := th.admit(g, now)
		if e, w := refusal(err); err != nil {
			refused++
			if e != ErrDelayed || w <= 0 || w > RunQuiet {
				t.Fatalf("a flood's login: %v %v", err, w)
			}
		}
		if len(th.runs) > th.maxRuns || len(th.attempts) > th.maxKeys+2 {
			t.Fatalf("after %d logins: %d runs, %d keys", i+1, len(th.runs), len(th.attempts))
		}
	}
	if refused < 9000 {
		t.Errorf("only %d of the flood's logins were refused", refused)
	}
	if e, w := refusal(th.admit(&guess{login: target, addr: "203.0.113.1"}, now.Add(30*time.Second))); e != ErrDelayed || w != 30*time.Second {
		t.Errorf("the flood made the target's run forget its delay: %v %v", e, w)
	}
	phone := &guess{login: loginKey("member"), addr: "203.0.113.2", device: strings.Repeat("cd", 16)}
	if err := th.admit(phone, now); err != nil {
		t.Errorf("a trusted device while the runs are full: %v", err)
	}
	th.succeeded(phone, now)
	now = now.Add(RunQuiet)
	if err := th.admit(&guess{login: loginKey("newcomer"), addr: "203.0.113.3"}, now); err != nil {
		t.Errorf("a new login once the flood's runs ended: %v", err)
	}
	for i := range 1000 {
		th.trust(userAccount(int64(i%50)), fmt.Sprintf("10.1.%d.%d", i>>8, i&255), now)
		if len(th.trusted) > th.maxTrusted {
			t.Fatalf("%d logins trusted", len(th.trusted))
		}
		for _, l := range th.trusted {
			if len(l) > maxTrustedPerLogin {
				t.Fatalf("%d addresses trusted for a login", len(l))
			}
		}
	}

	// with the real bounds: 200,000 distinct logins and addresses in ten minutes
	th = newThrottle()
	for i := range 200000 {
		now := t0.Add(time.Duration(i) * 3 * time.Millisecond)
		g := &guess{login: loginKey(fmt.Sprintf("flood%d", i)), addr: fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&255, i&255),
			account: userAccount(int64(i))}
		if th.admit(g, now) == nil && i%10 == 0 {
			th.succeeded(g, now)
		}
	}
	if len(th.runs) > runKeys || len(th.attempts) > throttleKeys+2 || len(th.trusted) > trustedKeys {
		t.Errorf("%d runs, %d keys, %d trusted logins", len(th.runs), len(th.attempts), len(th.trusted))
	}
}

// settingsOnly is a store with nothing but the club's settings.
type settingsOnly struct {
	Store
	m map[string]string
}

func (s *settingsOnly) Setting(_ context.Context, name string) (string, bool, error) {
	v, ok := s.m[name]
	return v, ok, nil
}

func (s *settingsOnly) SetSetting(_ context.Context, name, value string) error {
	s.m[name] = value
	return nil
}

// TestDeviceTokens: a device token is signed under a key made on first use and kept in the club's settings; it
// is good for its own login for DeviceTTL, and nothing altered, expired, of another login or under another key
// is trusted. A new token for the same account on the same browser keeps the device's id.
func TestDeviceTokens(t *testing.T) {
	ctx := context.Background()
	store := &settingsOnly{m: map[string]string{}}
	now := t0
	clock := NewClock(nil, func() time.Time { return now })
	a := newAccounts(store, clock)
	u := &User{ID: 7, Login: "Olha"}
	tok, err := a.DeviceToken(ctx, u, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := store.m[deviceKeySetting]; !ok {
		t.Fatal("the key is not in the club's settings")
	}
	if strings.Contains(tok, "password") || len(tok) > maxDeviceToken {
		t.Errorf("token %q", tok)
	}
	dev := a.trustedDevice(ctx, tok, "OLHA", now)
	if len(dev) != 32 {
		t.Fatalf("the token is not trusted for its own login: %q", dev)
	}
	// another server of the club (the same settings) trusts it; a club with another key does not
	if got := newAccounts(store, clock).trustedDevice(ctx, tok, "olha", now); got != dev {
		t.Errorf("another server: %q, want %q", got, dev)
	}
	if got := newAccounts(&settingsOnly{m: map[string]string{}}, clock).trustedDevice(ctx, tok, "olha", now); got != "" {
		t.Error("a token is trusted under another key")
	}
	again, _ := a.DeviceToken(ctx, u, tok)
	if got := a.trustedDevice(ctx, again, "olha", now); got != dev {
		t.Errorf("a new token on the same browser: device %q, want %q", got, dev)
	}
	other, _ := a.DeviceToken(ctx, &User{ID: 8, Login: "taras"}, tok)
	if got := a.trustedDevice(ctx, other, "taras", now); got == "" || got == dev {
		t.Errorf("another account's token on the same browser: device %q", got)
	}
	p64, m64, _ := strings.Cut(tok, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(p64)
	if strings.Contains(strings.ToLower(string(payload)), "olha") {
		t.Errorf("the token shows its login: %q", payload)
	}
	key := a.devices.key
	forged := base64.RawURLEncoding.EncodeToString([]byte(strings.Replace(string(payload), deviceLogin(key, "olha"), deviceLogin(key, "taras"), 1))) + "." + m64
	for name, c := range map[string]struct {
		token, login string
		at           time.Time
	}{
		"another login":   {tok, "taras", now},
		"altered":         {forged, "taras", now},
		"cut":             {tok[:len(tok)-2], "olha", now},
		"expired":         {tok, "olha", now.Add(DeviceTTL)},
		"no token":        {"", "olha", now},
		"garbage":         {"x.y", "olha", now},
		"a huge one":      {strings.Repeat("a", 5000) + "." + m64, "olha", now},
		"from the future": {tok, "olha", now.Add(-2 * time.Hour)},
	} {
		if got := a.trustedDevice(ctx, c.token, c.login, c.at); got != "" {
			t.Errorf("%s: trusted as %q", name, got)
		}
	}
	if got := a.trustedDevice(ctx, tok, "olha", now.Add(DeviceTTL-time.Second)); got != dev {
		t.Errorf("a day before it expires: %q", got)
	}
}
