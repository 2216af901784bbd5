// Command liveload measures the live pages' fan-out: it opens many spectators' SSE streams of one game on one or
// more running mafiaclub servers, plays a host's actions on the first, and reports the time from the start of each
// action's POST to each spectator's frame (p50, p99, max), and the servers' memory per spectator. It is a tool, not
// a test: run it by hand (docs/live.md has the commands and the figures).
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"mafiaclub/mafia"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	servers := flag.String("servers", "http://127.0.0.1:8080", "the servers' addresses, comma-separated: spectators are spread over them, the host acts on the first")
	n := flag.Int("n", 5000, "spectators")
	wave := flag.Int("wave", 250, "spectators connected at a time")
	pids := flag.String("pids", "", "the servers' process ids, comma-separated, to read their memory (VmRSS)")
	login := flag.String("login", "host", "the host's login")
	password := flag.String("password", "demo-host", "the host's password")
	procs := flag.Int("procs", 1, "processes the spectators are spread over (the tool starts the others itself): one process may hold only as many connections as it may open files (ulimit -n), 20,000 on some machines")
	shard := flag.String("shard", "", "internal: GAME,FIRST,COUNT: this process is a shard started by another; it opens spectators FIRST to FIRST+COUNT-1 of the game and answers the keys it is sent")
	flag.Parse()
	bases := strings.Split(*servers, ",")
	if *shard != "" {
		if err := runShard(bases, *shard, *wave); err != nil {
			fmt.Fprintln(os.Stderr, "liveload shard:", err)
			os.Exit(1)
		}
		return
	}
	if *procs < 1 || *procs > *n {
		fmt.Fprintln(os.Stderr, "liveload: -procs is between 1 and -n")
		os.Exit(2)
	}
	if err := run(bases, *n, *wave, *procs, splitPIDs(*pids), *login, *password); err != nil {
		fmt.Fprintln(os.Stderr, "liveload:", err)
		os.Exit(1)
	}
}

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

type host struct {
	base string
	hc   *http.Client
}

func (h *host) post(path string, form url.Values) (int, string, error) {
	resp, err := h.hc.PostForm(h.base+path, form)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), nil
}

// key returns the current view's key of game id (from the JSON API).
func (h *host) key(id int64) (string, int64, error) {
	resp, err := h.hc.Get(fmt.Sprintf("%s/api/live/%d", h.base, id))
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	s := string(body)
	i := strings.Index(s, `"key": "`)
	if i < 0 {
		return "", 0, fmt.Errorf("api: %s", s)
	}
	s = s[i+8:]
	return s[:strings.IndexByte(s, '"')], 0, nil
}

// spectator is one stream's frames as they came: their ids and arrival times.
type spectator struct {
	mu     sync.Mutex
	ids    []string
	at     []time.Time
	closed atomic.Bool
}

func (s *spectator) arrival(id string) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.ids) - 1; i >= 0; i-- {
		if s.ids[i] == id {
			return s.at[i], true
		}
	}
	return time.Time{}, false
}

// crowd is one process's spectators: spectators first to first+len(specs)-1 of the run, spread over the servers
// by their number.
type crowd struct {
	specs             []*spectator
	connected, failed atomic.Int64
}

// open connects the crowd's spectators to game id's stream, wave at a time.
func (c *crowd) open(bases []string, id int64, first, count, wave int) {
	c.specs = make([]*spectator, count)
	for start := 0; start < count; start += wave {
		var wg sync.WaitGroup
		for i := start; i < min(start+wave, count); i++ {
			sp := &spectator{}
			c.specs[i] = sp
			wg.Add(1)
			go func(i int) {
				rd, conn, err := openStream(bases[(first+i)%len(bases)], fmt.Sprintf("/live/%d/events?kind=page&lang=en", id))
				if err != nil {
					c.failed.Add(1)
					sp.closed.Store(true)
					wg.Done()
					return
				}
				c.connected.Add(1)
				wg.Done()
				defer conn.Close()
				for {
					line, err := rd.ReadSlice('\n')
					if err != nil && err != bufio.ErrBufferFull {
						break
					}
					if v, ok := bytes.CutPrefix(line, []byte("id: ")); ok {
						now := time.Now()
						_, key, _ := bytes.Cut(bytes.TrimSpace(v), []byte(".")) // the id is the server's run, a dot, the view's key
						sp.mu.Lock()
						sp.ids = append(sp.ids, string(key))
						sp.at = append(sp.at, now)
						sp.mu.Unlock()
					}
				}
				sp.closed.Store(true)
			}(i)
		}
		wg.Wait()
	}
}

// arrivals waits until every spectator of the crowd has the frame of key (or the deadline passes) and returns
// when each had it, and how many did not (a stream that failed or closed counts as missing).
func (c *crowd) arrivals(key string, deadline time.Time) (at []time.Time, missing int) {
	for _, sp := range c.specs {
		for {
			if t, ok := sp.arrival(key); ok {
				at = append(at, t)
				break
			}
			if sp.closed.Load() || time.Now().After(deadline) {
				missing++
				break
			}
			time.Sleep(time.Millisecond)
		}
	}
	return at, missing
}

// shards are the crowds of other processes of this tool (-procs): each, started with -shard, says "ready
// CONNECTED FAILED" once its spectators are open, then answers each line "KEY DEADLINE" (Unix nanoseconds) of its
// input with "MISSING T1 T2 ..." (the arrivals, Unix nanoseconds), until its input closes. The processes share
// the machine's clock, so the arrivals are compared with the action's start as they are.
type shards struct {
	cmds []*exec.Cmd
	in   []io.WriteCloser
	out  []*bufio.Reader
}

func startShards(bases []string, id int64, n, procs, wave int) (*shards, int64, int64, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, 0, 0, err
	}
	sh := &shards{}
	for p, first := 0, 0; p < procs; p++ {
		count := n / procs
		if p < n%procs {
			count++
		}
		cmd := exec.Command(self, "-servers", strings.Join(bases, ","), "-wave", strconv.Itoa(wave),
			"-shard", fmt.Sprintf("%d,%d,%d", id, first, count))
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			return nil, 0, 0, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, 0, 0, err
		}
		if err := cmd.Start(); err != nil {
			sh.stop()
			return nil, 0, 0, err
		}
		sh.cmds, sh.in, sh.out = append(sh.cmds, cmd), append(sh.in, in), append(sh.out, bufio.NewReaderSize(out, 1<<20))
		first += count
	}
	var connected, failed int64
	for _, out := range sh.out {
		line, err := out.ReadString('\n')
		var c, f int64
		if _, serr := fmt.Sscanf(line, "ready %d %d", &c, &f); err != nil || serr != nil {
			sh.stop()
			return nil, 0, 0, fmt.Errorf("a shard did not start: %q %v", line, err)
		}
		connected, failed = connected+c, failed+f
	}
	return sh, connected, failed, nil
}

// arrivals asks every shard for the frame of key, as crowd.arrivals.
func (sh *shards) arrivals(key string, deadline time.Time) ([]time.Time, int, error) {
	for _, in := range sh.in {
		if _, err := fmt.Fprintf(in, "%s %d\n", key, deadline.UnixNano()); err != nil {
			return nil, 0, err
		}
	}
	var at []time.Time
	missing := 0
	for _, out := range sh.out {
		line, err := out.ReadString('\n')
		if err != nil {
			return nil, 0, fmt.Errorf("a shard: %v", err)
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			return nil, 0, fmt.Errorf("a shard: %q", line)
		}
		m, _ := strconv.Atoi(f[0])
		missing += m
		for _, v := range f[1:] {
			ns, _ := strconv.ParseInt(v, 10, 64)
			at = append(at, time.Unix(0, ns))
		}
	}
	return at, missing, nil
}

func (sh *shards) stop() {
	for _, in := range sh.in {
		in.Close()
	}
	for _, c := range sh.cmds {
		c.Wait()
	}
}

// runShard is a process of -procs: it opens its spectators, then answers the keys it is sent (see shards).
func runShard(bases []string, spec string, wave int) error {
	var id int64
	var first, count int
	if _, err := fmt.Sscanf(spec, "%d,%d,%d", &id, &first, &count); err != nil {
		return fmt.Errorf("-shard %q: %v", spec, err)
	}
	c := &crowd{}
	c.open(bases, id, first, count, wave)
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	fmt.Fprintf(w, "ready %d %d\n", c.connected.Load(), c.failed.Load())
	if err := w.Flush(); err != nil {
		return err
	}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var key string
		var deadline int64
		if _, err := fmt.Sscanf(in.Text(), "%s %d", &key, &deadline); err != nil {
			return fmt.Errorf("%q: %v", in.Text(), err)
		}
		at, missing := c.arrivals(key, time.Unix(0, deadline))
		fmt.Fprint(w, missing)
		for _, t := range at {
			fmt.Fprintf(w, " %d", t.UnixNano())
		}
		fmt.Fprintln(w)
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return in.Err()
}

func run(bases []string, n, wave, procs int, pids []int, login, password string) error {
	jar, _ := cookiejar.New(nil)
	h := &host{base: bases[0], hc: &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
	if code, _, err := h.post("/login", url.Values{"login": {login}, "password": {password}}); err != nil || code != http.StatusSeeOther {
		return fmt.Errorf("login: %d %v", code, err)
	}
	f := url.Values{"form": {"1"}, "rules": {mafia.DefaultRuleSetID}, "n": {"10"}, "deal": {"random"}}
	for i := 1; i <= 10; i++ {
		f.Set("name"+strconv.Itoa(i), fmt.Sprintf("Spectated %d", i))
	}
	code, loc, err := h.post("/games", f)
	if err != nil || code != http.StatusSeeOther {
		return fmt.Errorf("new game: %d %v", code, err)
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(loc, "/games/"), 10, 64)
	version := int64(0)
	act := func(fields ...string) error {
		form := url.Values{"version": {strconv.FormatInt(version, 10)}}
		for i := 0; i+1 < len(fields); i += 2 {
			form.Set(fields[i], fields[i+1])
		}
		code, _, err := h.post(fmt.Sprintf("/games/%d/act", id), form)
		if err != nil || code != http.StatusSeeOther {
			return fmt.Errorf("%v: %d %v", fields, code, err)
		}
		version++
		return nil
	}
	if err := act("type", "day"); err != nil {
		return err
	}

	before := totalRSS(pids)
	began := time.Now()
	var arrivals func(key string, deadline time.Time) ([]time.Time, int, error)
	var connected, failed int64
	if procs == 1 {
		c := &crowd{}
		c.open(bases, id, 0, n, wave)
		connected, failed = c.connected.Load(), c.failed.Load()
		arrivals = func(key string, deadline time.Time) ([]time.Time, int, error) {
			at, missing := c.arrivals(key, deadline)
			return at, missing, nil
		}
	} else {
		sh, c, f, err := startShards(bases, id, n, procs, wave)
		if err != nil {
			return err
		}
		defer sh.stop()
		connected, failed, arrivals = c, f, sh.arrivals
	}
	time.Sleep(2 * time.Second) // let the first frames settle before measuring memory
	after := totalRSS(pids)
	fmt.Printf("spectators: %d connected, %d failed, in %v over %d server(s), read by %d process(es)\n", connected, failed, time.Since(began).Round(time.Millisecond), len(bases), procs)
	if len(pids) > 0 {
		fmt.Printf("servers' memory (RSS): %.1f MiB before, %.1f MiB with the spectators: %.1f KiB per spectator\n",
			float64(before)/(1<<20), float64(after)/(1<<20), float64(after-before)/1024/float64(max(connected, 1)))
	}

	// the host's actions: day 1's speeches and a nomination each, one after another once every spectator has it
	var actions [][]string
	for s := 1; s <= 10; s++ {
		actions = append(actions, []string{"type", "speech", "seat", strconv.Itoa(s)})
		if s <= 5 {
			actions = append(actions, []string{"type", "nominate", "by", strconv.Itoa(s), "target", strconv.Itoa(s + 5)})
		}
	}
	var lat []time.Duration
	missing := 0
	for _, a := range actions {
		t0 := time.Now()
		if err := act(a...); err != nil {
			return err
		}
		acked := time.Since(t0)
		key, _, err := h.key(id)
		if err != nil {
			return err
		}
		at, miss, err := arrivals(key, time.Now().Add(10*time.Second))
		if err != nil {
			return err
		}
		missing += miss
		got := make([]time.Duration, len(at))
		for i, t := range at {
			got[i] = t.Sub(t0)
		}
		slices.Sort(got)
		fmt.Printf("%-28s answered in %6.1f ms; %d frames: p50 %6.1f ms, p99 %6.1f ms, max %6.1f ms\n", strings.Join(a[1:], " "),
			ms(acked), len(got), ms(pct(got, 50)), ms(pct(got, 99)), ms(pct(got, 100)))
		lat = append(lat, got...)
		time.Sleep(200 * time.Millisecond)
	}
	slices.Sort(lat)
	fmt.Printf("all %d frames (%d actions): p50 %.1f ms, p99 %.1f ms, max %.1f ms; %d missing\n", len(lat), len(actions),
		ms(pct(lat, 50)), ms(pct(lat, 99)), ms(pct(lat, 100)), missing)
	return nil
}

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	i := (len(d)*p + 99) / 100
	return d[min(max(i-1, 0), len(d)-1)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// openStream opens an SSE stream with a bare HTTP/1.1 GET and returns a reader positioned at its body. The tool
// reads streams this way rather than through net/http's client so that 5,000 of them cost its process as little
// as possible: it shares the two cores with the servers, and what it spends is added to every figure. The body's
// chunk-size lines are read as lines of their own and ignored; an "id: " line always starts a frame and a frame
// starts a chunk. The 4 KiB buffer is reused from its start at every read: a buffer that is appended to until it
// is full (bufio.Scanner's, at 64 KiB) made every spectator touch a fresh page of memory at the same frame, and
// 5,000 page faults at once added 40-70 ms to that one frame, the tool's cost, not the server's.
func openStream(base, path string) (*bufio.Reader, net.Conn, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, nil, err
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		return nil, nil, err
	}
	if _, err := fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: text/event-stream\r\n\r\n", path, u.Host); err != nil {
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
