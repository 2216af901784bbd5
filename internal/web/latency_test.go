package web_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/web"
	"mafiaclub/mafia/record"
)

// BenchmarkHostActionLatency measures how long a host waits for an action: the site runs in-process on a real
// loopback listener over a SQLite file (synchronous=FULL, as in production), 200 live games are created with 40
// events each already in their log (a game in its first day; a whole game has some 60-100), and 200 clients, one
// per game, post actions on their own game at once. Each POST is timed from the send until the 303 answer, which
// the server gives only once the event is committed. Reported: p50, p99 and max in milliseconds, and the
// throughput. "think=0s" posts back to back (a stress test); "think=100ms" waits 100 ms between a client's answer
// and its next action; "think=3s" is a host's real pace, at 200 tables. "clients=1" is one host alone: the
// latency without any queueing. Figures and findings: docs/host-latency.md.
//
//	go test ./internal/web -run '^$' -bench HostActionLatency -benchtime 1x
func BenchmarkHostActionLatency(b *testing.B) {
	for _, c := range []struct {
		clients, actions int
		think            time.Duration
	}{
		{1, 60, 0},
		{200, 15, 0},
		{200, 15, 100 * time.Millisecond},
		{200, 6, 3 * time.Second},
	} {
		name := fmt.Sprintf("clients=%d/think=%s", c.clients, c.think)
		b.Run(name, func(b *testing.B) { benchLatency(b, c.clients, c.actions, c.think) })
	}
}

// prefill is how many events each game has in its log before the timed actions.
const prefill = 40

// benchLatency runs clients concurrent clients, each posting perClient actions per iteration on its own game.
func benchLatency(b *testing.B, clients, perClient int, think time.Duration) {
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, filepath.Join(b.TempDir(), "club.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	if _, err := club.SeedDemo(ctx, store); err != nil {
		b.Fatal(err)
	}
	site, err := web.New(club.NewServices(store, club.NewClock(time.UTC, nil)))
	if err != nil {
		b.Fatal(err)
	}
	site.Cookies = web.CookieSecureNever
	site.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()

	jar, _ := cookiejar.New(nil)
	tr := &http.Transport{MaxIdleConns: 2 * clients, MaxIdleConnsPerHost: 2 * clients}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Jar: jar, Transport: tr, Timeout: time.Minute,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path string, form url.Values) (int, string, error) {
		resp, err := hc.PostForm(srv.URL+path, form)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return resp.StatusCode, resp.Header.Get("Location"), err
	}
	login := url.Values{"login": {club.DemoHostLogin}, "password": {club.DemoHostPassword}}
	if code, _, err := post("/login", login); err != nil || code != http.StatusSeeOther {
		b.Fatalf("login: %d %v", code, err)
	}
	games := make([]int64, clients)
	for i := range games {
		f := url.Values{"form": {"1"}, "rules": {"fiim-2025-club"}, "n": {"10"}, "deal": {"random"}, "rated": {"on"}}
		for s := 1; s <= 10; s++ {
			f.Set("name"+strconv.Itoa(s), fmt.Sprintf("Guest %d", s))
		}
		code, loc, err := post("/games", f)
		if err != nil || code != http.StatusSeeOther {
			b.Fatalf("new game %d: %d %v", i+1, code, err)
		}
		if games[i], err = strconv.ParseInt(strings.TrimPrefix(loc, "/games/"), 10, 64); err != nil {
			b.Fatalf("new game %d: redirected to %q", i+1, loc)
		}
	}

	// The first events of every game go in directly, in one action each: only the actions after them are timed.
	host, err := store.UserByLogin(ctx, club.DemoHostLogin)
	if err != nil {
		b.Fatal(err)
	}
	events := make([]record.Event, prefill)
	for i := range events {
		if events[i], err = record.DecodeEvent(actionJSON(i), 10); err != nil {
			b.Fatal(err)
		}
	}
	versions := make([]int, clients) // every action raises the version by one, however many events it records
	for c, id := range games {
		if _, err := site.Services().Games.Act(ctx, host, id, 0, events); err != nil {
			b.Fatalf("prefill game %d: %v", id, err)
		}
		versions[c] = 1
	}
	offset := prefill - 1 // so version v makes the stream's event v+offset: the prefill was one action of 40 events
	lat := make([][]time.Duration, clients)
	b.ResetTimer()
	start := time.Now()
	for range b.N {
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		for c := range clients {
			wg.Go(func() {
				if think > 0 {
					time.Sleep(rand.N(think)) // spread the clients over the first think time
				}
				for range perClient {
					v := versions[c]
					f := actionForm(v + offset)
					f.Set("version", strconv.Itoa(v))
					t0 := time.Now()
					code, _, err := post(fmt.Sprintf("/games/%d/act", games[c]), f)
					d := time.Since(t0)
					if err != nil || code != http.StatusSeeOther {
						errs <- fmt.Errorf("game %d, version %d, %v: %d %v", games[c], v, f, code, err)
						return
					}
					lat[c] = append(lat[c], d)
					versions[c]++
					if think > 0 {
						time.Sleep(think)
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()

	all := slices.Concat(lat...)
	slices.Sort(all)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	pct := func(p float64) time.Duration { return all[min(len(all)-1, int(p*float64(len(all))))] }
	b.ReportMetric(ms(pct(0.50)), "p50-ms")
	b.ReportMetric(ms(pct(0.99)), "p99-ms")
	b.ReportMetric(ms(all[len(all)-1]), "max-ms")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "actions/s")
}

// actionJSON is the i-th event of actionForm's stream as the record writes it.
func actionJSON(i int) []byte {
	f := actionForm(i)
	s := `{"type": "` + f.Get("type") + `"`
	if f.Has("seat") {
		s += `, "seat": ` + f.Get("seat")
	}
	if f.Has("points") {
		s += `, "points": ` + f.Get("points")
	}
	return []byte(s + "}")
}

// actionForm is the form of the i-th action (from 0) of a long valid fiim-2025-club game that needs no knowledge
// of the deal: the city wakes, the ten speeches of day 1, then fouls (two per seat, so nobody is muted or
// removed) alternating with point adjustments of ±0.1, which the 2025 system allows without limit.
func actionForm(i int) url.Values {
	switch {
	case i == 0:
		return url.Values{"type": {"day"}}
	case i <= 10:
		return url.Values{"type": {"speech"}, "seat": {strconv.Itoa(i)}}
	}
	k := i - 11
	if k%2 == 0 && k/2 < 20 {
		return url.Values{"type": {"foul"}, "seat": {strconv.Itoa(k/2%10 + 1)}}
	}
	p := "0.1"
	if k%4 >= 2 {
		p = "-0.1"
	}
	return url.Values{"type": {"adjust"}, "seat": {strconv.Itoa(k%10 + 1)}, "points": {p}}
}
