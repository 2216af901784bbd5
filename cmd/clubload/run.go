package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mafiaclub/mafia"
)

// host is a club's admin logged in on one server, acting as the host of its tables.
type host struct {
	base string // the server and the club's prefix: http://127.0.0.1:8080/c/club-001
	hc   *http.Client
}

func newHost(server, slug string) *host {
	jar, _ := cookiejar.New(nil)
	tr := &http.Transport{MaxIdleConnsPerHost: 64, IdleConnTimeout: time.Minute}
	return &host{base: strings.TrimSuffix(server, "/") + "/c/" + slug, hc: &http.Client{Jar: jar, Transport: tr, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// post posts a form and returns the status and the Location.
func (h *host) post(path string, form url.Values) (int, string, error) {
	resp, err := h.hc.PostForm(h.base+path, form)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), nil
}

// login logs the club's admin in, again while the server says the password-hashing slots are busy.
func (h *host) login(password string) error {
	var code int
	var err error
	for try := 0; try < 20; try++ {
		code, _, err = h.post("/login", url.Values{"login": {adminLogin}, "password": {password}})
		if err == nil && code == http.StatusSeeOther {
			return nil
		}
		time.Sleep(time.Duration(200*(try+1)) * time.Millisecond)
	}
	return fmt.Errorf("%s: login: %d %v", h.base, code, err)
}

// key returns the current view's key of game id, from the public API.
func (h *host) key(id int64) (string, error) {
	resp, err := h.hc.Get(fmt.Sprintf("%s/api/live/%d", h.base, id))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	s := string(body)
	i := strings.Index(s, `"key": "`)
	if i < 0 {
		return "", fmt.Errorf("api: %d %.200s", resp.StatusCode, s)
	}
	s = s[i+8:]
	return s[:strings.IndexByte(s, '"')], nil
}

// idOf reads a game's id from the last segment of a redirect's Location ("/games/7" or "/c/club-001/games/7"),
// whether or not the page put the club's prefix in it.
func idOf(loc string) (int64, error) {
	loc, _, _ = strings.Cut(loc, "?")
	loc = strings.TrimSuffix(loc, "/")
	return strconv.ParseInt(loc[strings.LastIndexByte(loc, '/')+1:], 10, 64)
}

// table is one live table of a club: the game under way and its script, and its spectators' streams.
type table struct {
	n       int // across the run
	host    *host
	rng     *rand.Rand
	game    atomic.Int64
	version int64
	script  *script
	step    int

	mu    sync.Mutex
	conns map[net.Conn]bool // the spectators' open streams, closed when the table starts its next game
	specs []*spectator
}

// start starts the table's next game: ten guests, the roles dealt by hand as the script's deal.
func (t *table) start(rules string) (time.Duration, error) {
	s, err := newScript(t.rng, rules)
	if err != nil {
		return 0, err
	}
	f := url.Values{"form": {"1"}, "rules": {rules}, "n": {"10"}, "deal": {"hand"}, "rated": {"on"}}
	if rs, ok := mafia.RuleSet(rules); ok {
		// the club's extras start as the club chooses; the script is played with the rule set's default
		if info, ok := rs.Option("club_extras"); ok {
			f.Set("opt_club_extras_shown", "1")
			if info.Default.Bool {
				f.Set("opt_club_extras", "on")
			}
		}
	}
	for i, r := range s.roles {
		k := strconv.Itoa(i + 1)
		f.Set("name"+k, fmt.Sprintf("Table %d player %d", t.n, i+1))
		f.Set("guest"+k, "on")
		f.Set("role"+k, r.String())
	}
	t0 := time.Now()
	code, loc, err := t.host.post("/games", f)
	took := time.Since(t0)
	if err != nil || code != http.StatusSeeOther {
		return took, fmt.Errorf("new game: %d %v", code, err)
	}
	id, err := idOf(loc)
	if err != nil {
		return took, fmt.Errorf("new game: Location %q: %v", loc, err)
	}
	t.script, t.step, t.version = s, 0, 0
	t.game.Store(id)
	t.mu.Lock()
	for c := range t.conns {
		c.Close() // its spectator opens the new game's stream
	}
	t.mu.Unlock()
	return took, nil
}

// act posts the script's next step; done when the script has run out (the game is over).
func (t *table) act() (took time.Duration, done bool, err error) {
	if t.step >= len(t.script.steps) {
		return 0, true, nil
	}
	id := t.game.Load()
	// the step's idempotency key, as the host page sends one: a step retried after a lost answer (a timeout) is
	// recorded once, and answered as done
	form := url.Values{"version": {strconv.FormatInt(t.version, 10)}, "key": {fmt.Sprintf("clubload-%d-%d-%d", t.n, id, t.step)}}
	for k, v := range t.script.steps[t.step] {
		form[k] = v
	}
	t0 := time.Now()
	code, _, err := t.host.post(fmt.Sprintf("/games/%d/act", id), form)
	took = time.Since(t0)
	if err != nil || code != http.StatusSeeOther {
		return took, false, fmt.Errorf("game %d step %d %v: %d %v", id, t.step, t.script.steps[t.step], code, err)
	}
	t.step++
	t.version++
	return took, false, nil
}

// save saves the finished game as rated.
func (t *table) save() error {
	id := t.game.Load()
	code, _, err := t.host.post(fmt.Sprintf("/games/%d/save", id), url.Values{"version": {strconv.FormatInt(t.version, 10)}, "rated": {"yes"}})
	if err != nil || code != http.StatusSeeOther {
		return fmt.Errorf("save game %d: %d %v", id, code, err)
	}
	return nil
}

// frame is a view's frame as a spectator had it.
type frame struct {
	game int64
	key  string
	at   time.Time
}

// spectator is one stream of a table, reopened on the table's next game.
type spectator struct {
	base string // the server and the club's prefix
	mu   sync.Mutex
	got  []frame
	fail atomic.Int64 // streams that could not be opened
}

func (sp *spectator) arrival(game int64, key string) (time.Time, bool) {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	for i := len(sp.got) - 1; i >= 0; i-- {
		if sp.got[i].game == game && sp.got[i].key == key {
			return sp.got[i].at, true
		}
	}
	return time.Time{}, false
}

// watch keeps the spectator on its table's game until stop closes: it opens the game's stream, records every
// frame's key, and opens the stream again when it ends (the table's next game). opened is told once after the
// first stream is open (or could not be).
func (sp *spectator) watch(t *table, stop <-chan struct{}, opened func()) {
	first := true
	for {
		select {
		case <-stop:
			return
		default:
		}
		game := t.game.Load()
		rd, conn, err := openStream(sp.base, fmt.Sprintf("/live/%d/events?kind=page&lang=en", game))
		if first {
			first = false
			opened()
		}
		if err != nil {
			sp.fail.Add(1)
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
			continue
		}
		t.mu.Lock()
		t.conns[conn] = true
		t.mu.Unlock()
		if t.game.Load() != game { // the table moved on while the stream was opening
			conn.Close()
		}
		for {
			line, err := rd.ReadSlice('\n')
			if err != nil && err != bufio.ErrBufferFull {
				break
			}
			if v, ok := bytes.CutPrefix(line, []byte("id: ")); ok {
				now := time.Now()
				_, key, _ := bytes.Cut(bytes.TrimSpace(v), []byte(".")) // the server's run, a dot, the view's key
				sp.mu.Lock()
				sp.got = append(sp.got, frame{game: game, key: string(key), at: now})
				sp.mu.Unlock()
			}
		}
		conn.Close()
		t.mu.Lock()
		delete(t.conns, conn)
		t.mu.Unlock()
	}
}

// action is one host action as measured: its table, game and the view's key after it, when it started and how
// long the POST took to its 303.
type action struct {
	table *table
	game  int64
	key   string
	t0    time.Time
	took  time.Duration
}

func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	servers := fs.String("servers", "http://127.0.0.1:8080", "the servers, comma-separated: club i is hosted on server i mod S, spectators spread over all")
	clubs := fs.Int("clubs", 100, "clubs: club-001 .. club-NNN (made by clubload setup)")
	tables := fs.Int("tables", 10, "live tables per club")
	pace := fs.Duration("pace", 3*time.Second, "one action per table every -pace")
	nspec := fs.Int("spectators", 5000, "spectators' streams, spread evenly over the tables and the servers")
	duration := fs.Duration("duration", 60*time.Second, "how long the tables are played")
	pids := fs.String("pids", "", "the servers' process ids, comma-separated, to read their memory (VmRSS)")
	password := fs.String("password", adminPassword, "the clubs' admins' password")
	rules := fs.String("rules", mafia.DefaultRuleSetID, "the games' rule set")
	seed := fs.Uint64("seed", 1, "the games' seed")
	wave := fs.Int("wave", 250, "spectators connected at a time")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	bases := strings.Split(*servers, ",")
	if *clubs < 1 || *tables < 1 || *pace <= 0 || *nspec < 0 {
		fmt.Fprintln(stderr, "clubload run: -clubs, -tables and -pace are positive")
		return 2
	}
	if _, ok := mafia.RuleSet(*rules); !ok {
		fmt.Fprintf(stderr, "clubload run: no rule set %q\n", *rules)
		return 2
	}
	pidList := splitPIDs(*pids)
	fmt.Fprintf(stdout, "clubload: %d clubs × %d tables at one action per %s over %d server(s), %d spectators, for %s; load average %s\n",
		*clubs, *tables, *pace, len(bases), *nspec, *duration, loadAvg())
	rssStart := totalRSS(pidList)

	// the hosts, logged in a few at a time (a login hashes a password: the servers refuse many at once)
	t0 := time.Now()
	var all []*table
	hosts := make([]*host, *clubs)
	for c := range hosts {
		hosts[c] = newHost(bases[c%len(bases)], slugOf(c+1))
	}
	if err := parallel(hosts, 4, func(h *host) error { return h.login(*password) }); err != nil {
		fmt.Fprintf(stderr, "clubload run: %v\n", err)
		return 1
	}
	for _, h := range hosts {
		for k := 0; k < *tables; k++ {
			n := len(all)
			all = append(all, &table{n: n, host: h, rng: rand.New(rand.NewPCG(*seed, uint64(n))), conns: map[net.Conn]bool{}})
		}
	}
	fmt.Fprintf(stdout, "logged in %d admins in %s\n", *clubs, time.Since(t0).Round(time.Millisecond))

	// every table's first game, a few clubs at a time
	t0 = time.Now()
	if err := parallel(all, 8, func(t *table) error { _, err := t.start(*rules); return err }); err != nil {
		fmt.Fprintf(stderr, "clubload run: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "started %d games in %s\n", len(all), time.Since(t0).Round(time.Millisecond))
	rssGames := totalRSS(pidList)

	// the spectators: spectator j watches table j mod T on server (j div T) mod S
	stop := make(chan struct{})
	var specWG sync.WaitGroup
	var specs []*spectator
	t0 = time.Now()
	for start := 0; start < *nspec; start += *wave {
		var opened sync.WaitGroup
		for j := start; j < min(start+*wave, *nspec); j++ {
			t := all[j%len(all)]
			server := bases[(j/len(all))%len(bases)]
			sp := &spectator{base: strings.TrimSuffix(server, "/") + strings.TrimPrefix(t.host.base, hostPart(t.host.base))}
			t.specs = append(t.specs, sp)
			specs = append(specs, sp)
			opened.Add(1)
			specWG.Add(1)
			go func() { defer specWG.Done(); sp.watch(t, stop, opened.Done) }()
		}
		opened.Wait()
	}
	var failedOpen int64
	for _, sp := range specs {
		failedOpen += sp.fail.Load()
	}
	time.Sleep(2 * time.Second)
	rssSpecs := totalRSS(pidList)
	fmt.Fprintf(stdout, "opened %d spectators' streams (%d failed) in %s\n", len(specs), failedOpen, time.Since(t0).Round(time.Millisecond))

	// the tables, each at the pace, staggered evenly
	var mu sync.Mutex
	var acts []action
	var errs []string
	var starts, saves, refused int
	var startTook []time.Duration
	note := func(err error) {
		mu.Lock()
		if len(errs) < 10 {
			errs = append(errs, err.Error())
		}
		refused++
		mu.Unlock()
	}
	cpuStart := totalCPU(pidList)
	began := time.Now()
	end := began.Add(*duration)
	var wg sync.WaitGroup
	for i, t := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := began.Add(time.Duration(int64(*pace) * int64(i) / int64(len(all))))
			// behind the pace (a slow answer), the table acts at once, and stops at the end whatever it owes
			for ; next.Before(end) && time.Now().Before(end); next = next.Add(*pace) {
				time.Sleep(time.Until(next))
				at := time.Now()
				took, done, err := t.act()
				if err != nil {
					note(err) // the same step again at the table's next turn
					continue
				}
				if done {
					if err := t.save(); err != nil {
						note(err)
					} else {
						mu.Lock()
						saves++
						mu.Unlock()
					}
					st, err := t.start(*rules)
					if err != nil {
						note(err)
						continue
					}
					mu.Lock()
					starts++
					startTook = append(startTook, st)
					mu.Unlock()
					continue
				}
				key, err := t.host.key(t.game.Load())
				if err != nil {
					note(err)
					continue
				}
				mu.Lock()
				acts = append(acts, action{table: t, game: t.game.Load(), key: key, t0: at, took: took})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	played := time.Since(began)
	cpu := totalCPU(pidList) - cpuStart
	rssEnd := totalRSS(pidList)
	time.Sleep(5 * time.Second) // the last frames on their way
	close(stop)
	for _, t := range all {
		t.mu.Lock()
		for c := range t.conns {
			c.Close()
		}
		t.mu.Unlock()
	}
	specWG.Wait()

	// the figures
	var host, fan []time.Duration
	missing := 0
	for _, a := range acts {
		host = append(host, a.took)
		for _, sp := range a.table.specs {
			if at, ok := sp.arrival(a.game, a.key); ok {
				fan = append(fan, at.Sub(a.t0))
			} else {
				missing++
			}
		}
	}
	slices.Sort(host)
	slices.Sort(fan)
	slices.Sort(startTook)
	fmt.Fprintf(stdout, "played %s: %d actions, %.1f a second (the pace asks %.1f); %d games started and %d saved meanwhile; %d refused or failed\n",
		played.Round(time.Millisecond), len(acts), float64(len(acts))/played.Seconds(), float64(len(all))/pace.Seconds(), starts, saves, refused)
	fmt.Fprintf(stdout, "host action (POST to its 303): p50 %s, p99 %s, max %s\n", msOf(pct(host, 50)), msOf(pct(host, 99)), msOf(pct(host, 100)))
	if len(startTook) > 0 {
		fmt.Fprintf(stdout, "new game (POST to its 303): p50 %s, p99 %s, max %s\n", msOf(pct(startTook, 50)), msOf(pct(startTook, 99)), msOf(pct(startTook, 100)))
	}
	fmt.Fprintf(stdout, "fan-out (action's start to each spectator's frame): %d frames, p50 %s, p99 %s, max %s; %d missing\n",
		len(fan), msOf(pct(fan, 50)), msOf(pct(fan, 99)), msOf(pct(fan, 100)), missing)
	if len(pidList) > 0 {
		fmt.Fprintf(stdout, "servers' memory (RSS, all of -pids): %.0f MiB at the start, %.0f MiB with the games, %.0f MiB with the spectators, %.0f MiB at the end\n",
			mib(rssStart), mib(rssGames), mib(rssSpecs), mib(rssEnd))
	}
	if len(pidList) > 0 {
		fmt.Fprintf(stdout, "servers' CPU while played: %.1f s (%.2f of a core), %.2f ms per action\n",
			cpu.Seconds(), cpu.Seconds()/played.Seconds(), ms(cpu)/float64(max(len(acts), 1)))
	}
	fmt.Fprintf(stdout, "load average at the end: %s\n", loadAvg())
	for _, e := range errs {
		fmt.Fprintln(stderr, "clubload run:", e)
	}
	if refused > 0 || missing > 0 {
		return 1
	}
	return 0
}

// hostPart is a base's scheme and host: http://127.0.0.1:8080 of http://127.0.0.1:8080/c/club-001.
func hostPart(base string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	return u.Scheme + "://" + u.Host
}

// parallel runs f on every one of ts, k at a time; the errors.
func parallel[T any](ts []T, k int, f func(T) error) error {
	var mu sync.Mutex
	var first error
	sem := make(chan struct{}, k)
	var wg sync.WaitGroup
	for _, t := range ts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(t); err != nil {
				mu.Lock()
				first = errors.Join(first, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := (len(d)*p + 99) / 100
	return d[min(max(i-1, 0), len(d)-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// totalCPU is the user and system time the processes have used (Linux: /proc/PID/stat, in clock ticks of 10 ms).
func totalCPU(pids []int) time.Duration {
	var t time.Duration
	for _, p := range pids {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // after the command's name: state is f[0], utime f[11]
		if len(f) > 12 {
			u, _ := strconv.ParseInt(f[11], 10, 64)
			k, _ := strconv.ParseInt(f[12], 10, 64)
			t += time.Duration(u+k) * 10 * time.Millisecond
		}
	}
	return t
}

func msOf(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func mib(b int64) float64 { return float64(b) / (1 << 20) }

func splitPIDs(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ",") {
		if v, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			out = append(out, v)
		}
	}
	return out
}

// rss returns a process's resident memory in bytes (Linux).
func rss(pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func totalRSS(pids []int) int64 {
	var t int64
	for _, p := range pids {
		t += rss(p)
	}
	return t
}

// loadAvg is the machine's one-minute load average (Linux; "?" elsewhere).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// openStream opens an SSE stream with a bare HTTP/1.1 GET and returns a reader positioned at its body, as
// cmd/liveload does (its comment says why: thousands of streams cost the tool's process as little as possible,
// and a 4 KiB buffer reused from its start).
func openStream(base, path string) (*bufio.Reader, net.Conn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, nil, err
	}
	conn, err := net.DialTimeout("tcp", u.Host, 10*time.Second)
	if err != nil {
		return nil, nil, err
	}
	if _, err := fmt.Fprintf(conn, "GET %s%s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", u.Path, path, u.Host); err != nil {
		conn.Close()
		return nil, nil, err
	}
	rd := bufio.NewReaderSize(conn, 4<<10)
	status, err := rd.ReadString('\n')
	if err != nil || !strings.HasPrefix(status, "HTTP/1.1 200 ") {
		conn.Close()
		return nil, nil, fmt.Errorf("stream: %q %v", status, err)
	}
	for { // the headers
		line, err := rd.ReadString('\n')
		if err != nil {
			conn.Close()
			return nil, nil, err
		}
		if line == "\r\n" {
			return rd, conn, nil
		}
	}
}
