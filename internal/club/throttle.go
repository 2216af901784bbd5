package club

import (
	"crypto/sha256"
	"strconv"
	"strings"
	"sync"
	"time"
)

// throttle counts attempts per key (a login from one address, a client address, a device, an account, a
// sign-up's address) within a window: once a key has used up its limit, it is refused until its oldest attempt is
// older than the window. An attempt is reserved before the slow password hash runs, so that parallel requests
// cannot all pass the check before any is counted; a success gives its reservation back. It keeps at most maxKeys
// keys.
//
// Logins have, besides, a delay of their own across all addresses (guess, admit): see loginRun.
type throttle struct {
	mu       sync.Mutex
	attempts map[string][]time.Time
	maxKeys  int

	runs       map[string]loginRun // by loginKey
	maxRuns    int
	runsFullTo time.Time // when the runs are full, no run ends before this: no need to look again until then

	trusted    map[string][]trustedAddr // by account (guess.account): the addresses the account was logged into from
	maxTrusted int
}

// A limit is how many attempts a kind of key may make within its window.
type limit struct {
	max    int
	window time.Duration
}

// The limits, by the prefix of the key. An address may be a reverse proxy's, shared by every client behind it,
// so its limits are higher than a login's.
var limits = map[string]limit{
	"pair:":    {5, 10 * time.Minute},  // failed logins of one login from one address
	"device:":  {5, 10 * time.Minute},  // failed logins of one login from one device it logged in on before
	"addr:":    {50, 10 * time.Minute}, // failed logins from one address, any logins
	"signup:":  {10, time.Hour},        // sign-ups from one address
	"account:": {5, 10 * time.Minute},  // failed password changes of one account
	"link:":    {5, 15 * time.Minute},  // one-time links asked for one login, from any address (links.go)
	"linkip:":  {20, 15 * time.Minute}, // one-time links asked from one address, any logins
}

// The bounds of the throttle's memory: keys of counted attempts, logins' runs, logins' trusted addresses (each up
// to maxTrustedPerLogin addresses). Every entry is a few dozen bytes (logins are kept as 16-byte digests), so the
// whole is some 20 MB at most, whatever the flood.
const (
	throttleKeys       = 50000
	runKeys            = 50000
	trustedKeys        = 50000
	maxTrustedPerLogin = 8
)

// The per-login delay (loginRun): FreeGuesses passwords are checked at once; then each next one from a client
// the login does not trust waits FirstDelay after the login's last one, doubled with each further one up to
// MaxDelay. A run ends RunQuiet after its last password. An address the login succeeded from is trusted for
// TrustAddrFor.
const (
	FreeGuesses  = 5
	FirstDelay   = time.Second
	MaxDelay     = time.Minute
	RunQuiet     = 10 * time.Minute
	TrustAddrFor = 30 * 24 * time.Hour
)

// GuessDelay is how long the next password of a login waits, after the login's last one, when n passwords of it
// have been checked in its run: 0 for the first FreeGuesses, then FirstDelay, doubled each time, at most MaxDelay.
func GuessDelay(n int) time.Duration {
	if n < FreeGuesses {
		return 0
	}
	d := FirstDelay
	for i := FreeGuesses; i < n && d < MaxDelay; i++ {
		d *= 2
	}
	return min(d, MaxDelay)
}

// MaxGuesses is the most passwords of one login that clients it does not trust can have checked within any period
// of length span, from any number of addresses: the delays of one run starting with the period (a pause long
// enough to start another run gives fewer). With the constants above: 5 at once, 11 in the first 63 s, then one a
// minute: 11 + ⌊(span − 63 s) / 60 s⌋, that is 19 in 10 minutes, 69 in an hour, 1,449 in a day.
func MaxGuesses(span time.Duration) int {
	n, at := 1, time.Duration(0)
	for {
		next := at + GuessDelay(n)
		if next > span {
			return n
		}
		if GuessDelay(n) == MaxDelay {
			return n + int((span-at)/MaxDelay)
		}
		n, at = n+1, next
	}
}

// A loginRun is a login's passwords checked one after another with less than RunQuiet between them, from every
// client: right and wrong ones, since a success must not start the delay again. A client the login does not trust
// gets the next check only GuessDelay(n) after the run's last; earlier, it is refused with the time left.
type loginRun struct {
	n    int       // passwords checked (or being checked) in the run
	last time.Time // when the last one was
}

// A trustedAddr is an address a login succeeded from, and when it last did.
type trustedAddr struct {
	addr string
	at   time.Time
}

func newThrottle() *throttle {
	return &throttle{attempts: map[string][]time.Time{}, maxKeys: throttleKeys,
		runs: map[string]loginRun{}, maxRuns: runKeys, trusted: map[string][]trustedAddr{}, maxTrusted: trustedKeys}
}

// loginKey is what the throttle keeps of a login: a digest of it, ignoring case, so that a long login costs no
// more memory than a short one.
func loginKey(login string) string {
	h := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(login))))
	return string(h[:16])
}

func limitOf(key string) limit {
	prefix, _, _ := strings.Cut(key, ":")
	if l, ok := limits[prefix+":"]; ok {
		return l
	}
	return limits["pair:"]
}

func (t *throttle) recent(k string, now time.Time) []time.Time {
	list := t.attempts[k]
	window := limitOf(k).window
	i := 0
	for i < len(list) && now.Sub(list[i]) >= window {
		i++
	}
	list = list[i:]
	if len(list) == 0 {
		delete(t.attempts, k)
	} else {
		t.attempts[k] = list
	}
	return list
}

// wait is how long until every key may make an attempt: 0 when they all may now.
func (t *throttle) wait(keys []string, now time.Time) time.Duration {
	var longest time.Duration
	for _, k := range keys {
		l := limitOf(k)
		if list := t.recent(k, now); len(list) >= l.max {
			longest = max(longest, list[len(list)-l.max].Add(l.window).Sub(now))
		}
	}
	return longest
}

// count counts an attempt at now for every key.
func (t *throttle) count(keys []string, now time.Time) {
	if len(t.attempts) > t.maxKeys {
		for k := range t.attempts {
			t.recent(k, now)
		}
		if len(t.attempts) > t.maxKeys {
			t.attempts = map[string][]time.Time{} // an attack on the map itself: start again rather than grow
		}
	}
	for _, k := range keys {
		t.attempts[k] = append(t.recent(k, now), now)
	}
}

// reserve counts an attempt for every key at now, unless one of them has used up its limit: then it counts
// nothing and reports false.
func (t *throttle) reserve(keys []string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.wait(keys, now) > 0 {
		return false
	}
	t.count(keys, now)
	return true
}

// release gives back the attempt reserved at now for every key (a login or a password change that succeeded).
func (t *throttle) release(keys []string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.releaseLocked(keys, now)
}

func (t *throttle) releaseLocked(keys []string, now time.Time) {
	for _, k := range keys {
		list := t.attempts[k]
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].Equal(now) {
				t.attempts[k] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(t.attempts[k]) == 0 {
			delete(t.attempts, k)
		}
	}
}

// A guess is one login attempt as the throttle sees it. Its client's bounds and its login's run are by login (the
// throttle is one store's: a club's accounts, or the installation's persons, each their own), since they are
// counted whether or not an account has the login; the trust of an address or a device is the account's: an
// address that logged into one account is trusted for that account only, never for the login string, which an
// account of another store (a person and a club's admin, say) may share.
type guess struct {
	login   string // loginKey of the login
	addr    string // the client's address
	device  string // the device id of a valid device token of this very account (devices.go); "" when none
	account string // the account the login names in the throttle's store ("user#12", "person#3"); "" when none
}

// userAccount and personAccount are guess.account of a club's account and of an installation's person: the kind
// of store is in the key, so that the two never meet even in one map.
func userAccount(id int64) string   { return "user#" + strconv.FormatInt(id, 10) }
func personAccount(id int64) string { return "person#" + strconv.FormatInt(id, 10) }

// keys are the bounds of the guess's client: its device when it has one (then neither an attacker sharing its
// address nor one guessing many logins from there holds it), else the login from its address, and its address.
func (g *guess) keys() []string {
	if g.device != "" {
		return []string{"device:" + g.device}
	}
	return []string{"pair:" + g.login + "\x00" + g.addr, "addr:" + g.addr}
}

// admit reserves a guess before its password is checked: it counts the guess for its client's bounds and in its
// login's run, or counts nothing and refuses it, with the time to wait. A client the account trusts (a device of
// it, an address it was logged into from) is held only by its own bounds; any other also by the login's delay.
func (t *throttle) admit(g *guess, now time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	keys := g.keys()
	if w := t.wait(keys, now); w > 0 {
		return &Throttled{Err: ErrThrottled, RetryAfter: w}
	}
	trusted := g.device != "" || t.trusts(g.account, g.addr, now)
	r, running := t.runs[g.login]
	if running && now.Sub(r.last) >= RunQuiet {
		r, running = loginRun{}, false
		delete(t.runs, g.login)
	}
	if !trusted {
		if w := r.last.Add(GuessDelay(r.n)).Sub(now); running && w > 0 {
			return &Throttled{Err: ErrDelayed, RetryAfter: w}
		}
	}
	if !running && len(t.runs) >= t.maxRuns && !t.pruneRuns(now) {
		// Full of runs that have not ended: more logins are being guessed than the hashing slots could check
		// in RunQuiet. A run cannot be forgotten (its delay would start again), so a client the login does not
		// trust waits for a place; a trusted one is checked, held by its own bounds, and not counted in a run.
		if !trusted {
			return &Throttled{Err: ErrDelayed, RetryAfter: t.runsFullTo.Sub(now)}
		}
		t.count(keys, now)
		return nil
	}
	t.count(keys, now)
	r.n++
	if now.After(r.last) {
		r.last = now
	}
	t.runs[g.login] = r
	return nil
}

// pruneRuns forgets the runs that have ended, when some may have (not before runsFullTo), and reports whether
// there is room for another.
func (t *throttle) pruneRuns(now time.Time) bool {
	if now.Before(t.runsFullTo) {
		return false
	}
	var first time.Time
	for k, r := range t.runs {
		switch end := r.last.Add(RunQuiet); {
		case !now.Before(end):
			delete(t.runs, k)
		case first.IsZero() || end.Before(first):
			first = end
		}
	}
	t.runsFullTo = first
	return len(t.runs) < t.maxRuns
}

// giveBack returns a guess that was not the client's failure (the server was busy, or the database failed): the
// client's bounds and the login's run no longer count it. The run's last time stays: it only ever holds the next
// guess longer.
func (t *throttle) giveBack(g *guess, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.releaseLocked(g.keys(), now)
	if r, ok := t.runs[g.login]; ok {
		if r.n--; r.n <= 0 {
			delete(t.runs, g.login)
		} else {
			t.runs[g.login] = r
		}
	}
}

// succeeded records a guess whose password was right for its account. Its client's failures at this login are
// forgotten (the login from this address, or this device), and the address is trusted by the account from now on. The address's
// failures at other logins stay (only this attempt is given back): else anyone with an account of his own could
// clear his address's bound by logging in to it between guesses at others. And the guess stays counted in the
// login's run: a success does not start the delay again for the clients the login does not trust, else every
// login of the real user (a host logs in on several devices a night) would hand guessers another FreeGuesses at
// once, and anyone who knows the password (of an account shared by the club's hosts, say) could do it at will.
func (t *throttle) succeeded(g *guess, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if g.device != "" {
		delete(t.attempts, "device:"+g.device)
	} else {
		delete(t.attempts, "pair:"+g.login+"\x00"+g.addr)
		t.releaseLocked([]string{"addr:" + g.addr}, now)
	}
	if g.account != "" {
		t.trust(g.account, g.addr, now)
	}
}

// trusts reports whether the account was logged into from addr within TrustAddrFor; no account ("") trusts none.
func (t *throttle) trusts(account, addr string, now time.Time) bool {
	if account == "" {
		return false
	}
	for _, a := range t.trusted[account] {
		if a.addr == addr && now.Sub(a.at) < TrustAddrFor {
			return true
		}
	}
	return false
}

// trust remembers that the account was logged into from addr at now: an account keeps its maxTrustedPerLogin
// latest addresses, and the throttle at most maxTrusted accounts (when full, those whose addresses have all
// expired go, and then an arbitrary one: an account that loses its addresses still has its devices).
func (t *throttle) trust(account, addr string, now time.Time) {
	list := t.trusted[account]
	kept := list[:0:0]
	for _, a := range list {
		if a.addr != addr && now.Sub(a.at) < TrustAddrFor {
			kept = append(kept, a)
		}
	}
	if len(kept) >= maxTrustedPerLogin {
		kept = kept[len(kept)-maxTrustedPerLogin+1:]
	}
	kept = append(kept, trustedAddr{addr, now})
	if _, known := t.trusted[account]; !known && len(t.trusted) >= t.maxTrusted {
		for k, l := range t.trusted {
			if now.Sub(l[len(l)-1].at) >= TrustAddrFor {
				delete(t.trusted, k)
			}
		}
		for k := range t.trusted {
			if len(t.trusted) < t.maxTrusted {
				break
			}
			delete(t.trusted, k)
		}
	}
	t.trusted[account] = kept
}
