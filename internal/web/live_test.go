package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/internal/live"
	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/web"
)

// liveClock is a clock the test moves: one minute per host action, so that two games played in step have the
// same times, and a broadcast's delay passes event by event.
type liveClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *liveClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *liveClock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// newLiveHarness is the harness on a clock the test moves.
func newLiveHarness(t *testing.T) (*harness, *liveClock) {
	t.Helper()
	db, err := sqlstore.Open(context.Background(), filepath.Join(t.TempDir(), "club.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := club.SeedDemo(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	clk := &liveClock{t: time.Date(2026, 12, 1, 19, 0, 0, 0, time.UTC)}
	clock := club.NewClock(time.UTC, clk.now)
	db.Now = clock.Now
	site, err := web.New(club.NewServices(db, clock))
	if err != nil {
		t.Fatal(err)
	}
	site.Cookies = web.CookieSecureNever
	srv := newServer(t, site)
	return &harness{t: t, srv: srv, site: site, store: db}, clk
}

// newServer serves the site; at the end its streams are ended first (a server does not close with one open).
func newServer(t *testing.T, site *web.Server) *httptest.Server {
	srv := httptest.NewServer(site.Handler())
	t.Cleanup(func() { site.CloseStreams(); srv.CloseClientConnections(); srv.Close() })
	return srv
}

// sseClient reads one stream's events.
type sseClient struct {
	t      *testing.T
	cancel context.CancelFunc
	frames chan sseFrame
	resp   *http.Response
}

// sseFrame is one frame as the client holds it: a delta applied is handed on as Event "view" with the whole view
// as Data, and Sent is the event as it came on the wire ("view" or "delta").
type sseFrame struct {
	ID, Event, Data, Sent string
}

// openSSE opens a stream holding no view. Delta frames are applied to the view the client holds, as the live pages'
// script does, and handed on as the whole view (Sent tells what came on the wire).
func openSSE(t *testing.T, base, path string) *sseClient {
	t.Helper()
	return resumeSSE(t, base, path, sseFrame{})
}

// resumeSSE opens a stream as a client that holds the view held (a "view" frame of an earlier stream; none when
// its ID is ""): its ID is sent as Last-Event-ID, and a delta the server sends on it is applied to its data.
func resumeSSE(t *testing.T, base, path string, held sseFrame) *sseClient {
	t.Helper()
	if held.ID != "" && held.Event != "view" {
		t.Fatalf("resume %s from a %q frame: a client holds only a view", path, held.Event)
	}
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if held.ID != "" {
		req.Header.Set("Last-Event-ID", held.ID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		cancel()
		t.Fatalf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	c := &sseClient{t: t, cancel: cancel, frames: make(chan sseFrame, 1000), resp: resp}
	go func() {
		defer close(c.frames)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		var f sseFrame
		var data []string
		var lines []string // the view held, as a browser holds it: a delta frame is applied to it
		heldID := held.ID
		if heldID != "" {
			lines = live.Lines([]byte(held.Data))
		}
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if f.Event != "" {
					f.Data = strings.Join(data, "\n")
					f.Sent = f.Event
					switch f.Event {
					case "view":
						lines, heldID = live.Lines([]byte(f.Data)), f.ID
					case "delta":
						base, next, ok := live.ApplyDelta(lines, []byte(f.Data))
						if !ok || base != heldID {
							f.Event = "bad delta for " + base + " on " + heldID // the test reports the frame
						} else {
							lines, heldID = next, f.ID
							f.Event, f.Data = "view", strings.Join(next, "\n")
						}
					}
					c.frames <- f
				}
				f, data = sseFrame{}, nil
			case strings.HasPrefix(line, "id: "):
				f.ID = line[4:]
			case strings.HasPrefix(line, "event: "):
				f.Event = line[7:]
			case strings.HasPrefix(line, "data: "):
				data = append(data, line[6:])
			}
		}
	}()
	t.Cleanup(c.close)
	return c
}

func (c *sseClient) close() { c.cancel() }

// wholeView is the view a new client of path is sent first: the topic's current frame, whole.
func wholeView(t *testing.T, base, path string) sseFrame {
	t.Helper()
	c := openSSE(t, base, path)
	defer c.close()
	f := c.next("a new client's first frame of " + path)
	if f.Event != "view" || f.Sent != "view" {
		t.Fatalf("a new client of %s was sent a %q frame (%s), want the whole view", path, f.Sent, f.Event)
	}
	return f
}

// wantView checks that f, a frame a client got, is the view whole (its id and data) after any delta was applied.
func wantView(t *testing.T, what string, f, whole sseFrame) {
	t.Helper()
	if f.Event != "view" {
		t.Fatalf("%s: the client got a %q frame %q (sent as %q), want a view:\n%s", what, f.Event, f.ID, f.Sent, f.Data)
	}
	if f.ID != whole.ID || f.Data != whole.Data {
		t.Fatalf("%s: the client holds view %q (sent as %q), want %q:\n%s\n----\n%s", what, f.ID, f.Sent, whole.ID, f.Data, whole.Data)
	}
}

// frameKey is the key of the view a frame's id names (the id names the server's run as well).
func frameKey(id string) string {
	_, key, _ := strings.Cut(id, ".")
	return key
}

// next returns the next frame; the deadline only keeps a broken test from hanging.
func (c *sseClient) next(what string) sseFrame {
	c.t.Helper()
	select {
	case f, ok := <-c.frames:
		if !ok {
			c.t.Fatalf("%s: the stream ended", what)
		}
		return f
	case <-time.After(20 * time.Second):
		c.t.Fatalf("%s: no frame within 20 s", what)
	}
	return sseFrame{}
}

// liveAPI is /api/live/{id}'s answer.
type liveAPI struct {
	ID    int64           `json:"id"`
	Mode  string          `json:"mode"`
	Key   string          `json:"key"`
	View  json.RawMessage `json:"view"`
	Delay int             `json:"delay_minutes"`
}

func (h *harness) liveAPI(id int64, query string) (liveAPI, string) {
	h.t.Helper()
	r := h.get(h.client(), fmt.Sprintf("/api/live/%d%s", id, query))
	if r.StatusCode != http.StatusOK {
		h.t.Fatalf("api: %d %s", r.StatusCode, r.Body)
	}
	var a liveAPI
	if err := json.Unmarshal([]byte(r.Body), &a); err != nil {
		h.t.Fatalf("api: %v\n%s", err, r.Body)
	}
	return a, r.Body
}

// Two deals of one table (the harness's tenRoles is deal A): other blacks, another sheriff, other answers.
var dealB = []string{"citizen", "don", "citizen", "sheriff", "citizen", "mafia", "citizen", "citizen", "citizen", "mafia"}

// liveStep is one step of the test's course: the same public action in both games, or each deal's night actions.
type liveStep struct {
	a, b   []string // form fields for game A and game B (b nil: the same as a)
	hidden bool     // a shot or a check: the spectators must get nothing
}

func pub(fields ...string) liveStep { return liveStep{a: fields} }

func night(a, b []string) liveStep { return liveStep{a: a, b: b, hidden: true} }

// liveCourse is a fiim-2025-club game's course with the same public course under both deals.
func liveCourse() []liveStep {
	var c []liveStep
	c = append(c, pub("type", "day"), pub("type", "speech", "seat", "1"), pub("type", "nominate", "by", "1", "target", "3"),
		pub("type", "foul", "seat", "4"))
	for s := 2; s <= 10; s++ {
		c = append(c, pub("type", "speech", "seat", strconv.Itoa(s)))
		if s == 5 {
			c = append(c, pub("type", "nominate", "by", "5", "target", "7"))
		}
	}
	c = append(c, pub("type", "vote", "target", "3", "voters", "1", "voters", "2", "voters", "4", "voters", "5", "voters", "6"),
		pub("type", "vote", "target", "7"),
		pub("type", "vote", "target", "3", "voters", "1", "voters", "2", "voters", "4", "voters", "5", "voters", "6", "voters", "8"),
		pub("type", "vote", "target", "7"), pub("type", "night"),
		// A's blacks 7 and 9 (3 is out), B's 2, 6 and 10 shoot #5; the dons and the sheriffs check
		night([]string{"type", "shoot_all", "target", "5"}, []string{"type", "shoot_all", "target", "5"}),
		night([]string{"type", "check", "by", "7", "target", "8"}, []string{"type", "check", "by", "2", "target", "8"}),
		night([]string{"type", "check", "by", "5", "target", "9"}, []string{"type", "check", "by", "4", "target", "9"}),
		pub("type", "foul", "seat", "6"), // a foul at night is public
		pub("type", "day"), pub("type", "best_move", "by", "5", "targets", "7", "targets", "9", "targets", "1"),
		liveStep{a: []string{"type", "adjust", "seat", "2", "points", "0.3", "reason", "good"}, hidden: true})
	for _, s := range []string{"2", "4", "6", "7", "8", "9", "10", "1"} {
		c = append(c, pub("type", "speech", "seat", s))
		if s == "2" {
			c = append(c, pub("type", "nominate", "by", "2", "target", "9"))
		}
	}
	c = append(c, pub("type", "vote", "target", "9"), pub("type", "night"))
	return c
}

// stripID removes a game's id from an output: the spec compares two games' outputs without it.
func stripID(s string, id int64) string {
	n := strconv.FormatInt(id, 10)
	re := regexp.MustCompile(`(/live/|%2flive%2f|/api/live/|/games/|[Gg]ame |Гра |"id": )` + n + `\b`)
	return re.ReplaceAllString(s, "${1}ID")
}

// roleWords are what no public output may hold before the end: the roles' names in both languages, the night's
// events and the check answers.
var roleWords = roleMatcher{regexp.MustCompile(`(?i)"role"|class="role"|\bdon\b|sheriff|\bmafia\b|\bдон\b|шериф|мафія|shot #|стріляє|checked|перевіря|"answer"`)}

// roleMatcher finds roleWords outside the site's name ("Mafia club", "Мафія-клуб").
type roleMatcher struct{ re *regexp.Regexp }

func (m roleMatcher) clean(s string) string {
	return strings.NewReplacer("Mafia club", "", "Мафія-клуб", "").Replace(s)
}

func (m roleMatcher) FindString(s string) string { return m.re.FindString(m.clean(s)) }

func (m roleMatcher) MatchString(s string) bool { return m.re.MatchString(m.clean(s)) }

// TestSpectatorSeesNothingHidden is the public-view spec's test over whole streams: two games with the same
// seats and public course but different deals are played in step; after every host action the spectators'
// streams (page, screen, overlay, list), the pages and the JSON API of the two are byte for byte the same once
// the game's id is taken out, nothing names a role, a shot or a check, and a hidden action sends nothing at all.
// Then game A ends and its spectators see the roles.
func TestSpectatorSeesNothingHidden(t *testing.T) {
	h, clk := newLiveHarness(t)
	host := h.login("host", "demo-host")
	idA := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	idB := h.newGame(host, "fiim-2025-club", dealB, nil)
	kinds := []string{"kind=page&lang=en", "kind=screen&lang=uk", "kind=overlay&layout=frame&lang=en"}
	streams := map[int64][]*sseClient{}
	for _, id := range []int64{idA, idB} {
		for _, k := range kinds {
			streams[id] = append(streams[id], openSSE(t, h.srv.URL, fmt.Sprintf("/live/%d/events?%s", id, k)))
		}
	}
	got := map[int64][]string{} // every frame of every stream, in order, id stripped
	key := map[int64]string{}
	receive := func(id int64, wantKey, what string) {
		t.Helper()
		for i, c := range streams[id] {
			f := c.next(what)
			if f.Event != "view" || frameKey(f.ID) != wantKey {
				t.Fatalf("%s: game %d stream %d got frame %q (%s), want the view %q", what, id, i, f.ID, f.Event, wantKey)
			}
			got[id] = append(got[id], f.ID+"\n"+stripID(f.Data, id))
		}
	}
	outputs := func(id int64) []string {
		var out []string
		for _, p := range []string{"/live/%d", "/live/%d/screen", "/live/%d/overlay?layout=frame&lang=en", "/live/%d/overlay?lang=uk"} {
			r := h.get(h.client(), fmt.Sprintf(p, id))
			if r.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d", fmt.Sprintf(p, id), r.StatusCode)
			}
			out = append(out, stripID(r.Body, id))
		}
		_, body := h.liveAPI(id, "")
		return append(out, stripID(body, id))
	}
	for _, id := range []int64{idA, idB} {
		a, _ := h.liveAPI(id, "")
		key[id] = a.Key
		receive(id, a.Key, "the first frame")
	}
	for i, step := range liveCourse() {
		clk.add(time.Minute) // both games' actions at the same time, as the spec's comparison needs
		what := fmt.Sprintf("step %d %v", i+1, step.a)
		for _, id := range []int64{idA, idB} {
			fields := step.a
			if id == idB && step.b != nil {
				fields = step.b
			}
			h.mustAct(host, id, fields...)
			a, _ := h.liveAPI(id, "")
			if step.hidden {
				if a.Key != key[id] {
					t.Fatalf("%s: a hidden action changed game %d's view", what, id)
				}
				continue
			}
			if a.Key == key[id] {
				t.Fatalf("%s: a public action did not change game %d's view", what, id)
			}
			key[id] = a.Key
			receive(id, a.Key, what)
		}
		oa, ob := outputs(idA), outputs(idB)
		for k := range oa {
			if oa[k] != ob[k] {
				t.Fatalf("%s: output %d differs between the deals:\n%s\n----\n%s", what, k, oa[k], ob[k])
			}
			if m := roleWords.FindString(oa[k]); m != "" {
				t.Fatalf("%s: output %d names %q before the end:\n%s", what, k, m, oa[k])
			}
		}
		for _, f := range got[idA] {
			if m := roleWords.FindString(f); m != "" {
				t.Fatalf("%s: a stream's frame names %q before the end:\n%s", what, m, f)
			}
		}
	}
	if len(got[idA]) != len(got[idB]) {
		t.Fatalf("the streams got %d and %d frames", len(got[idA]), len(got[idB]))
	}
	for i := range got[idA] {
		if got[idA][i] != got[idB][i] {
			t.Fatalf("frame %d differs:\n%s\n----\n%s", i, got[idA][i], got[idB][i])
		}
	}
	// the list of games live: the same for both (one line each), and never a role
	if l := h.get(h.client(), "/live").Body; roleWords.MatchString(l) || !strings.Contains(l, fmt.Sprintf(`href="/live/%d"`, idA)) {
		t.Errorf("the list of games names a role or misses game A:\n%s", l)
	}
	// The end: the don (#7) makes his team lose; the spectators see the result, the roles, the shots and checks.
	h.mustAct(host, idA, "type", "team_loss", "seat", "7", "reason", "a gesture")
	a, body := h.liveAPI(idA, "")
	end := streams[idA][0].next("the end")
	if frameKey(end.ID) != a.Key || !strings.Contains(end.Data, "Result: red win") || !strings.Contains(end.Data, `class="role" title="don"`) || !strings.Contains(end.Data, "#7 shot #5") ||
		!strings.Contains(end.Data, "#5 checked #9: black") {
		t.Errorf("the end's frame does not show the result, the roles and the night:\n%s", end.Data)
	}
	if !strings.Contains(body, `"role":"don"`) || !strings.Contains(body, `"finished":true`) {
		t.Errorf("the API at the end: %s", body)
	}
}

// TestBroadcastIsDelayed plays a game with its broadcast with roles set to 3 minutes while the clock moves a minute
// per action: after every action, the broadcast's stream and API show exactly the events recorded at least 3
// minutes ago, the roles only once the game is 3 minutes old, and the public view stays without roles. A tournament
// game is never broadcast.
func TestBroadcastIsDelayed(t *testing.T) {
	h, clk := newLiveHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	if r := h.get(h.client(), fmt.Sprintf("/api/live/%d?mode=broadcast", id)); r.StatusCode != http.StatusNotFound {
		t.Fatalf("a game without a broadcast: %d", r.StatusCode)
	}
	if r := h.post(host, fmt.Sprintf("/live/%d/broadcast", id), url.Values{"delay": {"3"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("set the broadcast: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(h.client(), fmt.Sprintf("/live/%d/broadcast", id), url.Values{"delay": {"0"}}); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("an anonymous visitor set the broadcast: %d", r.StatusCode)
	}
	streamPath := fmt.Sprintf("/live/%d/events?kind=overlay&lang=en&mode=broadcast", id)
	stream := openSSE(t, h.srv.URL, streamPath)
	pubStream := openSSE(t, h.srv.URL, fmt.Sprintf("/live/%d/events?kind=overlay&lang=en", id))
	last := frameKey(stream.next("the first frame").ID)
	pubStream.next("the first public frame")
	type view struct {
		Roles bool `json:"roles"`
		Lines []struct {
			Type string `json:"type"`
			At   string `json:"at"`
		} `json:"lines"`
	}
	start := clk.now()
	var at []time.Time // when each event was recorded
	for i, step := range liveCourse() {
		clk.add(time.Minute)
		h.mustAct(host, id, step.a...)
		n := 1
		if step.a[1] == "shoot_all" {
			n = 2 // A's two blacks
		}
		for ; n > 0; n-- {
			at = append(at, clk.now())
		}
		a, _ := h.liveAPI(id, "?mode=broadcast")
		var v view
		if err := json.Unmarshal(a.View, &v); err != nil {
			t.Fatal(err)
		}
		due := 0
		for _, x := range at {
			if !x.After(clk.now().Add(-3 * time.Minute)) {
				due++
			}
		}
		if len(v.Lines) != due {
			t.Fatalf("step %d at +%v: the broadcast shows %d events, want the %d recorded 3 minutes ago or more", i+1, clk.now().Sub(start), len(v.Lines), due)
		}
		if wantRoles := !clk.now().Before(start.Add(3 * time.Minute)); v.Roles != wantRoles {
			t.Fatalf("step %d at +%v: roles shown %v, want %v", i+1, clk.now().Sub(start), v.Roles, wantRoles)
		}
		if a.Key != last {
			what := fmt.Sprintf("step %d", i+1)
			f := stream.next(what)
			if frameKey(f.ID) != a.Key {
				t.Fatalf("step %d: the broadcast's stream sent %q, want %q", i+1, f.ID, a.Key)
			}
			// the frame (a delta, mostly) applied to the view the client held is the view a new client is sent
			wantView(t, what+": the broadcast's stream", f, wholeView(t, h.srv.URL, streamPath))
			last = frameKey(f.ID)
		}
		if p, _ := h.liveAPI(id, ""); strings.Contains(string(p.View), `"role"`) {
			t.Fatalf("step %d: the public view shows roles while the broadcast is on", i+1)
		}
	}
	for {
		select {
		case f := <-pubStream.frames:
			if roleWords.MatchString(f.Data) {
				t.Fatalf("the public stream named a role during a broadcast:\n%s", f.Data)
			}
			continue
		default:
		}
		break
	}
	// the club's default reaches a game without its own setting, never a tournament game
	admin := h.login("admin", "demo-admin")
	if r := h.post(admin, "/live/settings", url.Values{"delay": {"5"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the club's default: %d %s", r.StatusCode, errorOf(r.Body))
	}
	other := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	if a, _ := h.liveAPI(other, "?mode=broadcast"); a.Delay != 5 {
		t.Errorf("a new game's broadcast is %d minutes late, want the club's 5", a.Delay)
	}
}

// TestLiveResume cuts a spectator's stream, lets the host act twice, and comes back with Last-Event-ID: the
// stream sends the newest view once (with both changes), never the one the client had; coming back up to date
// sends nothing until the next change.
func TestLiveResume(t *testing.T) {
	h, _ := newLiveHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	h.mustAct(host, id, "type", "day")
	path := fmt.Sprintf("/live/%d/events?kind=page&lang=en", id)
	c := openSSE(t, h.srv.URL, path)
	first := c.next("the first frame")
	c.close()
	h.mustAct(host, id, "type", "speech", "seat", "1")
	h.mustAct(host, id, "type", "nominate", "by", "1", "target", "3")
	// the client comes back holding the first view; the server has moved on two changes
	c = resumeSSE(t, h.srv.URL, path, first)
	f := c.next("after the cut")
	if f.ID == first.ID || !strings.Contains(f.Data, "#1 speaks") || !strings.Contains(f.Data, "#1 → #3") {
		t.Fatalf("after the cut the stream sent %q (%s):\n%s", f.ID, f.Event, f.Data)
	}
	wantView(t, "after the cut", f, wholeView(t, h.srv.URL, path))
	c.close()
	// up to date: nothing until the host acts again, then exactly that change, applied to the view the client holds
	c = resumeSSE(t, h.srv.URL, path, f)
	h.mustAct(host, id, "type", "speech", "seat", "2")
	a, _ := h.liveAPI(id, "")
	g := c.next("the next change")
	if frameKey(g.ID) != a.Key || g.ID == f.ID {
		t.Fatalf("an up-to-date client got %q first, want the new view %q", g.ID, a.Key)
	}
	if !strings.Contains(g.Data, "#2 speaks") {
		t.Fatalf("an up-to-date client's view after the next change does not show it:\n%s", g.Data)
	}
	wantView(t, "an up-to-date client after the next change", g, wholeView(t, h.srv.URL, path))
	select {
	case extra, ok := <-c.frames:
		if ok {
			t.Fatalf("an up-to-date client got a second frame %q (%s) for one change", extra.ID, extra.Sent)
		}
	case <-time.After(300 * time.Millisecond):
	}
	// the page's own stream address names no view (the page holds its drawing, not the lines a delta applies to):
	// opened as it is, it starts with the whole view
	page := h.get(h.client(), fmt.Sprintf("/live/%d", id)).Body
	m := regexp.MustCompile(`data-events="([^"]*)"`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the page names no stream:\n%s", page)
	}
	addr := html.UnescapeString(m[1])
	if strings.Contains(addr, "last=") {
		t.Errorf("the page's stream address %q names a view", addr)
	}
	wantView(t, "the page's own stream", openSSE(t, h.srv.URL, addr).next("the page's own stream"), wholeView(t, h.srv.URL, addr))
}

// TestLivePagesTranslatedAndTournamentNotBroadcast renders every live page in both languages (no key left
// untranslated, no formatting error), and checks that a tournament game is never broadcast with roles: its host
// cannot set one, the club's default does not reach it, and its public view has no roles.
func TestLivePagesTranslatedAndTournamentNotBroadcast(t *testing.T) {
	h, _ := newLiveHarness(t)
	ctx := context.Background()
	svc := h.site.Services()
	admin, _ := h.store.UserByLogin(ctx, "admin")
	adminC := h.login("admin", "demo-admin")
	if r := h.post(adminC, "/live/settings", url.Values{"delay": {"2"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the club's default: %d", r.StatusCode)
	}
	tour := &club.Tournament{Name: "Cup", StartsOn: "2026-12-01", EndsOn: "2026-12-01", ChiefJudge: admin.ID}
	if err := svc.Tournaments.Create(ctx, admin, tour); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 10; i++ {
		if _, err := svc.Tournaments.AddParticipant(ctx, admin, tour.ID, fmt.Sprintf("Player %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	st, _, err := svc.Tournaments.AddStage(ctx, admin, tour.ID, club.StageForm{Name: "Q", Rounds: 1})
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Tournaments.StartGame(ctx, admin, tour.ID, st.ID, 1, 1, tenRoles)
	if err != nil {
		t.Fatal(err)
	}
	if r := h.post(adminC, fmt.Sprintf("/live/%d/broadcast", g.ID), url.Values{"delay": {"1"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a tournament game's broadcast was set: %d", r.StatusCode)
	}
	if r := h.get(h.client(), fmt.Sprintf("/api/live/%d?mode=broadcast", g.ID)); r.StatusCode != http.StatusNotFound {
		t.Errorf("the club's default reached a tournament game: %d %s", r.StatusCode, r.Body)
	}
	if a, _ := h.liveAPI(g.ID, ""); strings.Contains(string(a.View), `"role"`) {
		t.Errorf("a tournament game's public view has roles: %s", a.View)
	}
	clubGame := h.newGame(h.login("host", "demo-host"), "fiim-2025-club", tenRoles, nil)
	missing := regexp.MustCompile(`\[[a-z_]+\.[a-z_.]+\]`)
	for _, lang := range web.Languages {
		for _, p := range []string{"/live", "/live/%d", "/live/%d?mode=broadcast", "/live/%d/screen", "/live/%d/overlay", "/live/%d/overlay?layout=frame&mode=broadcast"} {
			path := p
			if strings.Contains(p, "%d") {
				path = fmt.Sprintf(p, clubGame)
			}
			req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
			req.AddCookie(&http.Cookie{Name: "lang", Value: lang})
			r := h.do(adminC, req)
			if r.StatusCode != http.StatusOK || missing.MatchString(r.Body) || strings.Contains(r.Body, "%!") {
				t.Errorf("%s %s: %d %s", lang, path, r.StatusCode, missing.FindString(r.Body))
			}
		}
	}
}

// TestLiveStreamHead: a HEAD request to a stream's address (a GET route answers HEAD too) is answered with the
// stream's head and nothing after it, so that a proxy that sends its next request on the same connection reads
// that request's answer, not a stream's chunks; it needs no place among the streams (all of them may be taken),
// and a game that is not there answers 404.
func TestLiveStreamHead(t *testing.T) {
	h, _ := newLiveHarness(t)
	h.site.MaxStreams = 1
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	// the host page's own stream of versions too: its client keeps the connection for the next request
	req, _ := http.NewRequest(http.MethodHead, fmt.Sprintf("%s/games/%d/live", h.srv.URL, id), nil)
	if resp, err := host.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("HEAD of the host page's stream: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	// the only place among the streams is taken: a HEAD needs none
	c := openSSE(t, h.srv.URL, "/live/events")
	c.next("the stream that takes the only place")
	conn, err := net.Dial("tcp", h.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rd := bufio.NewReader(conn)
	for _, path := range []string{"/live/events", fmt.Sprintf("/live/%d/events?kind=page&lang=en", id)} {
		fmt.Fprintf(conn, "HEAD %s HTTP/1.1\r\nHost: x\r\n\r\n", path) // one connection, kept alive, as a proxy's
		resp, err := http.ReadResponse(rd, &http.Request{Method: http.MethodHead})
		if err != nil {
			t.Fatalf("HEAD %s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("HEAD %s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		_ = conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		if b, err := rd.Peek(1); err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
			more, _ := rd.Peek(rd.Buffered())
			t.Fatalf("HEAD %s: the head was followed by %q (%v)", path, append(b, more...), err)
		}
		_ = conn.SetReadDeadline(time.Time{})
	}
	// a game that is not there is not there for a HEAD either
	req, _ = http.NewRequest(http.MethodHead, h.srv.URL+"/live/999999/events", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("HEAD of an unknown game's stream: %v %v, want 404", resp, err)
	} else {
		resp.Body.Close()
	}
	c.close()
}

// TestLiveShutdownWaitsForStreams: http.Server.Shutdown does not wait for a stream written straight to its
// connection, so a server that stops waits with WaitStreams before it closes the database: WaitStreams does not
// return while a stream is open, and when it returns after the shutdown the stream has ended, its chunked body
// finished with the last chunk.
func TestLiveShutdownWaitsForStreams(t *testing.T) {
	h, _ := newLiveHarness(t)
	id := h.newGame(h.login("host", "demo-host"), "fiim-2025-club", tenRoles, nil)
	conn, err := net.Dial("tcp", h.srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /live/%d/events?kind=page&lang=en HTTP/1.1\r\nHost: x\r\n\r\n", id)
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: http.MethodGet})
	if err != nil {
		t.Fatal(err)
	}
	body := bufio.NewReader(resp.Body)
	for line := ""; !strings.HasPrefix(line, "event: view"); {
		if line, err = body.ReadString('\n'); err != nil {
			t.Fatalf("the stream's first frame: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	waited := make(chan error, 1)
	go func() { waited <- h.site.WaitStreams(ctx) }()
	select {
	case err := <-waited:
		t.Fatalf("WaitStreams returned while a stream was open (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	h.srv.Config.RegisterOnShutdown(h.site.CloseStreams) // as the program does
	if err := h.srv.Config.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-waited; err != nil {
		t.Fatalf("WaitStreams after the shutdown: %v", err)
	}
	// the stream's last bytes were written before WaitStreams returned: they are there to read, to the end
	_ = conn.SetReadDeadline(time.Now().Add(time.Second))
	if rest, err := io.ReadAll(body); err != nil {
		t.Fatalf("the stream did not end with its last chunk: %v (after %q)", err, rest)
	}
}

// TestLiveResumeAfterRestart: a frame's id names the server's run as well as the view, so a browser that comes
// back to a new program (a restart, perhaps with other templates or catalogues, which draw the same view
// otherwise) with the id of a frame the old one drew is sent the whole view, never nothing (it would keep the old
// drawing) nor a delta against lines the new program did not draw.
func TestLiveResumeAfterRestart(t *testing.T) {
	h, _ := newLiveHarness(t)
	host := h.login("host", "demo-host")
	id := h.newGame(host, "fiim-2025-club", tenRoles, nil)
	h.mustAct(host, id, "type", "day")
	path := fmt.Sprintf("/live/%d/events?kind=page&lang=en", id)
	held := wholeView(t, h.srv.URL, path)
	// the same club's data served by a new program
	restarted, err := web.New(h.site.Services())
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, restarted)
	c := resumeSSE(t, srv.URL, path, held)
	f := c.next("the first frame after the restart")
	if f.Sent != "view" || f.ID == held.ID || frameKey(f.ID) != frameKey(held.ID) {
		t.Fatalf("after the restart a client holding %q was sent a %q frame %q, want the same view whole under a new id", held.ID, f.Sent, f.ID)
	}
	wantView(t, "after the restart", f, wholeView(t, srv.URL, path))
}
