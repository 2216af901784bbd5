package web_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/web"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// MaxLoginBurstMemory is the stated bound of the memory a burst of parallel logins may add to the server: each
// argon2id check takes 64 MiB while it runs and at most club.HashSlots run at once; the rest is the garbage of
// finished checks before the collector returns it. Without the bound, 100 parallel logins asked for 6.4 GB.
const MaxLoginBurstMemory = 384 << 20

// memInUse is the memory the Go runtime holds from the system and has not given back.
func memInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// TestLoginBurstMemoryBounded sends 100 logins at once, from one address and for 100 different logins, and
// measures the server's peak memory while they run: it stays under MaxLoginBurstMemory, and every login is
// answered (wrong, throttled or busy), none fails.
func TestLoginBurstMemoryBounded(t *testing.T) {
	h := newHarness(t)
	runtime.GC()
	base := memInUse()
	var peak atomic.Uint64
	peak.Store(base) // what the burst adds is never less than nothing
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if m := memInUse(); m > peak.Load() {
				peak.Store(m)
			}
			select {
			case <-stop:
				return
			case <-time.After(500 * time.Microsecond):
			}
		}
	}()
	var wg sync.WaitGroup
	codes := make([]int, 100)
	start := make(chan struct{})
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/login",
				strings.NewReader(url.Values{"login": {fmt.Sprintf("nobody%d", i)}, "password": {"wrong-password"}}.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes[i] = resp.StatusCode
		}()
	}
	close(start)
	wg.Wait()
	close(stop)
	<-sampled
	count := map[int]int{}
	for _, c := range codes {
		count[c]++
	}
	used := peak.Load() - base
	t.Logf("100 parallel logins: %v; peak %.0f MiB over %.0f MiB before", count, float64(used)/(1<<20), float64(base)/(1<<20))
	if used > MaxLoginBurstMemory {
		t.Errorf("the burst took %d MiB, over the stated %d MiB", used>>20, MaxLoginBurstMemory>>20)
	}
	for c, n := range count {
		if c != http.StatusUnauthorized && c != http.StatusTooManyRequests && c != http.StatusServiceUnavailable {
			t.Errorf("%d logins answered %d", n, c)
		}
	}
	if count[http.StatusUnauthorized] == 0 {
		t.Error("no login was checked at all")
	}
}

// TestTournamentCSVIsSafe: the standings' CSV is real CSV, and no cell starts with what a spreadsheet reads as a
// formula, names and negative points included (issue 9.3).
func TestTournamentCSVIsSafe(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	svc := h.site.Services()
	admin, _ := h.store.UserByLogin(ctx, "admin")
	tour := &club.Tournament{Name: "=Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-01", ChiefJudge: admin.ID}
	if err := svc.Tournaments.Create(ctx, admin, tour); err != nil {
		t.Fatal(err)
	}
	names := []string{`=HYPERLINK("http://evil")`, "+1", "-2", "@SUM(A1)", "Comma, Name", `Quote "Q"`, "Plain", "Семен", "Ivy", "Zed"}
	for _, n := range names {
		if _, err := svc.Tournaments.AddParticipant(ctx, admin, tour.ID, n); err != nil {
			t.Fatal(n, err)
		}
	}
	st, _, err := svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	g, err := svc.Tournaments.StartGame(ctx, admin, tour.ID, st.ID, 1, 1, roles)
	if err != nil {
		t.Fatal(err)
	}
	state, err := svc.Games.Act(ctx, admin, g.ID, 0, []record.Event{{Event: mafia.TeamLoss(3), Reason: "oath"}, {Event: mafia.Adjust(3, -50), Reason: "penalty"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Games.Save(ctx, admin, g.ID, state.Game.Version, true); err != nil {
		t.Fatal(err)
	}
	body, ok := strings.CutPrefix(h.get(h.client(), fmt.Sprintf("/tournaments/%d/standings.csv", tour.ID)).Body, "\ufeff")
	if !ok {
		t.Error("the CSV does not start with the byte-order mark: a spreadsheet garbles its Cyrillic")
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v\n%s", err, body)
	}
	if len(rows) != 11 {
		t.Fatalf("%d rows, want a header and 10 players", len(rows))
	}
	seen := map[string]bool{}
	negative := false
	number := regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)
	for _, row := range rows {
		for _, cell := range row {
			// a number is no formula: it stays a number, so that a spreadsheet sums it
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) && !number.MatchString(cell) {
				t.Errorf("a cell starts with %q: %q", cell[0], cell)
			}
			if strings.HasPrefix(cell, "'") && number.MatchString(cell[1:]) {
				t.Errorf("a number is written as text: %q", cell)
			}
			negative = negative || strings.HasPrefix(cell, "-0.")
		}
		seen[strings.TrimPrefix(row[len(row)-1], "'")] = true
	}
	for _, n := range names {
		if !seen[n] {
			t.Errorf("the name %q is not in the CSV as it is", n)
		}
	}
	if !negative {
		t.Error("the penalty's negative points are not in the CSV")
	}
}

// TestUnknownAddressGetsTheSitesPage: a 404 is the site's own page, in the reader's language.
func TestUnknownAddressGetsTheSitesPage(t *testing.T) {
	h := newHarness(t)
	r := h.get(h.client(), "/no/such/page")
	if r.StatusCode != http.StatusNotFound || !strings.Contains(r.Body, `<nav`) || !strings.Contains(r.Body, "Такої сторінки чи гри немає") {
		t.Errorf("unknown address: %d\n%.300s", r.StatusCode, r.Body)
	}
}

// TestStreamsBounded: the server keeps at most MaxStreams event streams open, and at most MaxStreamsPerAddress for
// one client (behind the club's proxy, each client's own address); one more is refused at once with 503 and
// Retry-After (nothing is held for it), every open one is counted in the metrics, and a place comes free when a
// stream ends.
func TestStreamsBounded(t *testing.T) {
	h := newHarness(t)
	h.site.MaxStreams, h.site.MaxStreamsPerAddress = 3, 2
	h.site.TrustedProxies, _ = web.ParseTrustedProxies("127.0.0.1,::1")
	open := func(from string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, h.srv.URL+"/live/events", nil)
		req.Header.Set("X-Forwarded-For", from)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	var streams []*http.Response
	defer func() {
		for _, s := range streams {
			s.Body.Close()
		}
	}()
	refused := func(what string, resp *http.Response) {
		t.Helper()
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("%s: %d, Retry-After %q; want 503 with Retry-After", what, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
	}
	for _, from := range []string{"198.51.100.1", "198.51.100.1"} {
		if resp := open(from); resp.StatusCode != http.StatusOK {
			t.Fatalf("stream %d: %d", len(streams)+1, resp.StatusCode)
		} else {
			streams = append(streams, resp)
		}
	}
	refused("a third stream from one address", open("198.51.100.1"))
	if resp := open("198.51.100.2"); resp.StatusCode != http.StatusOK {
		t.Fatalf("another address's stream: %d", resp.StatusCode)
	} else {
		streams = append(streams, resp)
	}
	refused("a stream beyond the server's bound", open("198.51.100.3"))

	m, err := http.Get(h.srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(m.Body)
	m.Body.Close()
	if !strings.Contains(string(body), "\nmafiaclub_sse_clients 3\n") {
		t.Errorf("the metrics do not count the 3 open streams:\n%s", grepLines(string(body), "sse_clients"))
	}
	streams[0].Body.Close()
	streams = streams[1:]
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp := open("198.51.100.1")
		if resp.StatusCode == http.StatusOK {
			streams = append(streams, resp)
			break
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatalf("no place came free after a stream ended: %d", resp.StatusCode)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestHostStreamsHaveTheirOwnPlaces: a host's own stream of a game's versions (followed by his other devices) has
// places of its own, counted by account: spectators who fill every place of theirs do not keep a host's device
// from following the game, and a host's account cannot take more than MaxHostStreamsPerAccount.
func TestHostStreamsHaveTheirOwnPlaces(t *testing.T) {
	h := newHarness(t)
	h.site.MaxStreams, h.site.MaxStreamsPerAddress = 1, 1
	h.site.MaxHostStreams, h.site.MaxHostStreamsPerAccount = 3, 2
	host, admin := h.login("host", "demo-host"), h.login("admin", "demo-admin")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	var open []*http.Response
	defer func() {
		for _, r := range open {
			r.Body.Close()
		}
	}()
	stream := func(c *http.Client, path string) int {
		t.Helper()
		resp, err := c.Get(h.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode == http.StatusOK {
			open = append(open, resp)
		} else {
			resp.Body.Close()
		}
		return resp.StatusCode
	}
	versions := fmt.Sprintf("/games/%d/live", id)
	if code := stream(h.client(), "/live/events"); code != http.StatusOK {
		t.Fatalf("a spectator's stream: %d", code)
	}
	if code := stream(h.client(), "/live/events"); code != http.StatusServiceUnavailable {
		t.Fatalf("a spectator's stream beyond the spectators' places: %d, want 503", code)
	}
	for i := 1; i <= 2; i++ {
		if code := stream(host, versions); code != http.StatusOK {
			t.Fatalf("the host's device %d, every spectators' place taken: %d, want 200", i, code)
		}
	}
	if code := stream(host, versions); code != http.StatusServiceUnavailable {
		t.Fatalf("the host's third stream (2 an account): %d, want 503", code)
	}
	if code := stream(admin, versions); code != http.StatusOK {
		t.Fatalf("another account's stream of the game: %d, want 200", code)
	}
	if code := stream(admin, versions); code != http.StatusServiceUnavailable {
		t.Fatalf("a stream beyond the hosts' 3 places: %d, want 503", code)
	}
	if code := stream(h.client(), "/live/events"); code != http.StatusServiceUnavailable {
		t.Fatalf("a spectator's stream, the hosts' places taken and the spectators' too: %d, want 503", code)
	}
}

// grepLines returns the lines of s that contain sub.
func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestClientAddr: behind the club's proxies the throttles count the client's address, read from the right end of
// X-Forwarded-For; a client cannot pass for another by writing the header itself, and a request from no trusted
// proxy is its connection's peer whatever it says.
func TestClientAddr(t *testing.T) {
	trusted, err := web.ParseTrustedProxies("127.0.0.1, ::1, 10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		peer string
		xff  []string
		want string
	}{
		{"203.0.113.9:5000", nil, "203.0.113.9"},
		{"203.0.113.9:5000", []string{"198.51.100.1"}, "203.0.113.9"},          // no proxy of ours: the header is the client's own words
		{"127.0.0.1:5000", nil, "127.0.0.1"},                                   // a trusted proxy that names nobody
		{"127.0.0.1:5000", []string{"198.51.100.1"}, "198.51.100.1"},           // Caddy on this machine
		{"127.0.0.1:5000", []string{"6.6.6.6, 198.51.100.1"}, "198.51.100.1"},  // the client wrote 6.6.6.6 itself
		{"127.0.0.1:5000", []string{"198.51.100.1, 10.1.2.3"}, "198.51.100.1"}, // a load balancer, then the proxy
		{"127.0.0.1:5000", []string{"6.6.6.6", "198.51.100.1"}, "198.51.100.1"},
		{"[::1]:5000", []string{"2001:db8::7"}, "2001:db8::/64"}, // one subscriber's /64 is one client
		{"[2001:db8:0:1::5]:5000", nil, "2001:db8:0:1::/64"},
		{"127.0.0.1:5000", []string{"198.51.100.1:4711"}, "198.51.100.1"}, // a proxy that writes the port
		{"127.0.0.1:5000", []string{"6.6.6.6, unknown, 198.51.100.1"}, "198.51.100.1"},
		{"127.0.0.1:5000", []string{"6.6.6.6, unknown"}, "127.0.0.1"}, // left of "unknown" is the client's word
		{"127.0.0.1:5000", []string{"10.0.0.5"}, "10.0.0.5"},          // only proxies: the farthest one
		{"127.0.0.1:5000", []string{"unknown"}, "127.0.0.1"},          // no address: the last one known
		{"[::ffff:127.0.0.1]:5000", []string{"::ffff:198.51.100.1"}, "198.51.100.1"},
	} {
		r, _ := http.NewRequest(http.MethodGet, "/", nil)
		r.RemoteAddr = tc.peer
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := web.ClientAddr(r, trusted); got != tc.want {
			t.Errorf("peer %s, X-Forwarded-For %q: %s, want %s", tc.peer, tc.xff, got, tc.want)
		}
		bare, _ := http.NewRequest(http.MethodGet, "/", nil)
		bare.RemoteAddr = tc.peer
		if got, peer := web.ClientAddr(r, nil), web.ClientAddr(bare, trusted); got != peer {
			t.Errorf("no trusted proxies, peer %s with X-Forwarded-For %q: %s, want the peer's %s", tc.peer, tc.xff, got, peer)
		}
	}
	if _, err := web.ParseTrustedProxies("10.0.0.0/33"); err == nil {
		t.Error("a prefix of 33 bits accepted")
	}
	if _, err := web.ParseTrustedProxies("proxy.example.org"); err == nil {
		t.Error("a name accepted as a proxy's address")
	}
}

// TestSignUpThrottledPerForwardedAddress: behind a trusted proxy, the sign-up throttle (10 an hour per address)
// counts each client's address, so one address's sign-ups do not close the club's door to the others.
func TestSignUpThrottledPerForwardedAddress(t *testing.T) {
	h := newHarness(t)
	h.site.TrustedProxies, _ = web.ParseTrustedProxies("127.0.0.1,::1")
	signup := func(i int, from string) int {
		req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/signup", strings.NewReader(url.Values{
			"login": {fmt.Sprintf("newcomer%d", i)}, "nick": {fmt.Sprintf("Newcomer %d", i)},
			"password": {"secret-pass"}, "password2": {"secret-pass"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", from)
		return h.do(h.client(), req).StatusCode
	}
	for i := range 10 {
		if code := signup(i, "198.51.100.1"); code != http.StatusSeeOther {
			t.Fatalf("sign-up %d: %d", i+1, code)
		}
	}
	if code := signup(10, "198.51.100.1"); code != http.StatusTooManyRequests {
		t.Errorf("the 11th sign-up from one address: %d, want 429", code)
	}
	if code := signup(11, "198.51.100.2"); code != http.StatusSeeOther {
		t.Errorf("another client behind the same proxy: %d, want its sign-up taken", code)
	}
}
