package club

import (
	"strings"
	"sync"
	"time"
)

// throttle counts attempts per key (a login, a client address, an account) within a window: once a key has used
// up its limit, it is refused until its oldest attempt is older than the window. An attempt is reserved before
// the slow password hash runs, so that parallel requests cannot all pass the check before any is counted; a
// success gives its reservation back. It keeps at most throttleKeys keys.
type throttle struct {
	mu       sync.Mutex
	attempts map[string][]time.Time
}

// A limit is how many attempts a kind of key may make within its window.
type limit struct {
	max    int
	window time.Duration
}

// The limits, by the prefix of the key. An address may be a reverse proxy's, shared by every client behind it,
// so its limits are higher than a login's.
var limits = map[string]limit{
	"login:":   {5, 10 * time.Minute},  // failed logins of one login
	"addr:":    {50, 10 * time.Minute}, // failed logins from one address
	"signup:":  {10, time.Hour},        // sign-ups from one address
	"account:": {5, 10 * time.Minute},  // failed password changes of one account
}

const throttleKeys = 50000

func newThrottle() *throttle { return &throttle{attempts: map[string][]time.Time{}} }

func limitOf(key string) limit {
	prefix, _, _ := strings.Cut(key, ":")
	if l, ok := limits[prefix+":"]; ok {
		return l
	}
	return limits["login:"]
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

// reserve counts an attempt for every key at now, unless one of them has used up its limit: then it counts
// nothing and reports false.
func (t *throttle) reserve(keys []string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		if len(t.recent(k, now)) >= limitOf(k).max {
			return false
		}
	}
	if len(t.attempts) > throttleKeys {
		for k := range t.attempts {
			t.recent(k, now)
		}
		if len(t.attempts) > throttleKeys {
			t.attempts = map[string][]time.Time{} // an attack on the map itself: start again rather than grow
		}
	}
	for _, k := range keys {
		t.attempts[k] = append(t.recent(k, now), now)
	}
	return true
}

// release gives back the attempt reserved at now for every key (a login or a password change that succeeded).
func (t *throttle) release(keys []string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
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

// forget drops every attempt of the keys (a login that has just succeeded forgets its login's failures).
func (t *throttle) forget(keys ...string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		delete(t.attempts, k)
	}
}
