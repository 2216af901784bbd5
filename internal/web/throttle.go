package web

import (
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// throttle counts failed logins per login and per client address: after maxFailures for a login (or
// maxAddrFailures for an address, which a reverse proxy may share among all clients) within the window, the key
// is refused until its oldest failure is older than the window. It keeps a bounded number of keys.
type throttle struct {
	mu       sync.Mutex
	failures map[string][]time.Time
}

const (
	maxFailures     = 5
	maxAddrFailures = 50
	throttleWindow  = 10 * time.Minute
	throttleKeys    = 50000
)

func newThrottle() *throttle { return &throttle{failures: map[string][]time.Time{}} }

func loginKeys(r *http.Request, login string) []string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return []string{"login:" + strings.ToLower(strings.TrimSpace(login)), "addr:" + host}
}

// blocked reports whether any of the keys has used up its failures at now.
func (t *throttle) blocked(keys []string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range keys {
		limit := maxFailures
		if strings.HasPrefix(k, "addr:") {
			limit = maxAddrFailures
		}
		if len(t.recent(k, now)) >= limit {
			return true
		}
	}
	return false
}

func (t *throttle) recent(k string, now time.Time) []time.Time {
	list := t.failures[k]
	i := 0
	for i < len(list) && now.Sub(list[i]) >= throttleWindow {
		i++
	}
	list = list[i:]
	if len(list) == 0 {
		delete(t.failures, k)
	} else {
		t.failures[k] = list
	}
	return list
}

// fail records a failure for every key.
func (t *throttle) fail(keys []string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.failures) > throttleKeys {
		for k := range t.failures {
			t.recent(k, now)
		}
		if len(t.failures) > throttleKeys {
			t.failures = map[string][]time.Time{} // an attack on the map itself: start again rather than grow
		}
	}
	for _, k := range keys {
		t.failures[k] = append(t.recent(k, now), now)
	}
}

// succeed forgets the failures of a login that has just succeeded (not of the address).
func (t *throttle) succeed(keys []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.failures, keys[0])
}
