package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"
)

// PagePair is one thing both sides show, and its path on each side (in the order of the bases).
type PagePair struct {
	Name  string    `json:"name"`
	Paths [2]string `json:"paths"`
}

// maxBody bounds what one answer may be: a page larger than this is an error, never read whole into memory.
const maxBody = 32 << 20

// side is one site under load.
type side struct {
	name, base string
}

type baseFlags []side

func (b *baseFlags) String() string { return fmt.Sprint(*b) }
func (b *baseFlags) Set(v string) error {
	name, url, ok := strings.Cut(v, "=")
	if !ok || name == "" || !strings.HasPrefix(url, "http") {
		return errors.New("want NAME=http://host:port")
	}
	*b = append(*b, side{name: name, base: strings.TrimSuffix(url, "/")})
	return nil
}

// sample is what one run of one side gave: every request's time, the errors, and the page's size on the wire.
type sample struct {
	times    []time.Duration
	errs     int
	firstErr string
	bytes    int64 // body bytes as sent (compressed), of the last good answer
	elapsed  time.Duration
}

func loadCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var bases baseFlags
	fs.Var(&bases, "base", "NAME=URL of a side (give two: ours first, then the peer)")
	pagesFile := fs.String("pages", "", "the page pairs: make's manifest.json, or a file of lines NAME<TAB>OUR-PATH<TAB>THEIR-PATH")
	only := fs.String("only", "", "measure only the pairs whose name contains this")
	clientsList := fs.String("clients", "1,20", "concurrent clients, a comma-separated list")
	rounds := fs.Int("rounds", 3, "rounds per page and client count; each round runs every side once, the first side alternating")
	duration := fs.Duration("duration", 3*time.Second, "how long each side is loaded in a round")
	warmup := fs.Int("warmup", 20, "requests to each side before a round's timing (not counted)")
	timeout := fs.Duration("timeout", 10*time.Second, "one request's timeout")
	encoding := fs.String("accept-encoding", "gzip, deflate, br", "the Accept-Encoding sent, as a browser does ('' for none)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if len(bases) != 2 || *pagesFile == "" {
		fmt.Fprintln(stderr, "pageload run: give two -base NAME=URL and -pages FILE")
		return 2
	}
	var clients []int
	for _, c := range strings.Split(*clientsList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 || n > 1000 {
			fmt.Fprintf(stderr, "pageload run: -clients: %q is not a count of 1-1000\n", c)
			return 2
		}
		clients = append(clients, n)
	}
	pages, err := readPages(*pagesFile)
	if err != nil {
		fmt.Fprintf(stderr, "pageload run: %v\n", err)
		return 2
	}
	tr := &http.Transport{MaxIdleConnsPerHost: slices.Max(clients) + 4, DisableCompression: true,
		ResponseHeaderTimeout: *timeout, IdleConnTimeout: time.Minute}
	hc := &http.Client{Transport: tr, Timeout: *timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	fmt.Fprintf(stdout, "pageload: %d rounds of %s per side, warm-up %d, Accept-Encoding %q; load average %s\n",
		*rounds, *duration, *warmup, *encoding, loadAvg())
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "page\tclients\t%s p50 / p99\t%s req/s\t%s p50 / p99\t%s req/s\tp50 ratio\treq/s ratio\tbytes %s / %s\terrors\tload\t\n",
		bases[0].name, bases[0].name, bases[1].name, bases[1].name, bases[0].name, bases[1].name)
	failed := false
	for _, pg := range pages {
		if *only != "" && !strings.Contains(pg.Name, *only) {
			continue
		}
		for _, c := range clients {
			var total [2]sample
			for r := 0; r < *rounds; r++ {
				order := []int{0, 1}
				if r%2 == 1 {
					order = []int{1, 0}
				}
				for _, k := range order {
					url := bases[k].base + pg.Paths[k]
					for i := 0; i < *warmup; i++ {
						if _, err := fetch(hc, url, *encoding); err != nil {
							break
						}
					}
					s := loadOne(hc, url, *encoding, c, *duration)
					total[k].times = append(total[k].times, s.times...)
					total[k].errs += s.errs
					total[k].elapsed += s.elapsed
					if s.bytes > 0 {
						total[k].bytes = s.bytes
					}
					if total[k].firstErr == "" {
						total[k].firstErr = s.firstErr
					}
				}
			}
			a, b := total[0], total[1]
			pa, pb := pct(a.times, 50), pct(b.times, 50)
			ra, rb := rate(a), rate(b)
			errs := ""
			if a.errs+b.errs > 0 {
				failed = true
				errs = fmt.Sprintf("%d / %d (%s%s)", a.errs, b.errs, a.firstErr, b.firstErr)
			}
			fmt.Fprintf(tw, "%s\t%d\t%s / %s\t%.0f\t%s / %s\t%.0f\t%s\t%s\t%d / %d\t%s\t%s\t\n", pg.Name, c,
				ms(pa), ms(pct(a.times, 99)), ra, ms(pb), ms(pct(b.times, 99)), rb,
				ratio(float64(pb), float64(pa)), ratio(ra, rb), a.bytes, b.bytes, errs, loadAvg())
			fmt.Fprintf(stderr, "pageload: %s, %d clients: done\n", pg.Name, c)
		}
	}
	tw.Flush()
	fmt.Fprintln(stdout, "p50 ratio: theirs / ours (above 1: ours is faster); req/s ratio: ours / theirs")
	if failed {
		return 1
	}
	return 0
}

// loadOne runs c clients against one URL for d and collects their times.
func loadOne(hc *http.Client, url, enc string, c int, d time.Duration) sample {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	var mu sync.Mutex
	var out sample
	var wg sync.WaitGroup
	t0 := time.Now()
	for range c {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			var errs int
			var first string
			var size int64
			for ctx.Err() == nil {
				t := time.Now()
				n, err := fetch(hc, url, enc)
				el := time.Since(t)
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
					continue
				}
				mine = append(mine, el)
				size = n
			}
			mu.Lock()
			out.times = append(out.times, mine...)
			out.errs += errs
			if out.firstErr == "" {
				out.firstErr = first
			}
			if size > 0 {
				out.bytes = size
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	out.elapsed = time.Since(t0)
	return out
}

// fetch asks for a page and reads its body to the end: the size on the wire, or why it failed (a status other
// than 200, a body larger than maxBody, a timeout).
func fetch(hc *http.Client, url, enc string) (int64, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	if enc != "" {
		req.Header.Set("Accept-Encoding", enc)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return n, err
	}
	if n > maxBody {
		return n, fmt.Errorf("%s: the body is over %d bytes", url, maxBody)
	}
	if resp.StatusCode != http.StatusOK {
		return n, fmt.Errorf("%s: status %d", url, resp.StatusCode)
	}
	return n, nil
}

func readPages(path string) ([]PagePair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.HasSuffix(path, ".json") {
		var m struct {
			Pages []PagePair `json:"pages"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		return m.Pages, nil
	}
	var out []PagePair
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return nil, fmt.Errorf("%s:%d: want NAME<TAB>OUR-PATH<TAB>THEIR-PATH", path, ln)
		}
		out = append(out, PagePair{Name: f[0], Paths: [2]string{f[1], f[2]}})
	}
	return out, nil
}

func pct(ts []time.Duration, p int) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func rate(s sample) float64 {
	if s.elapsed <= 0 {
		return 0
	}
	return float64(len(s.times)) / s.elapsed.Seconds()
}

func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	}
	return fmt.Sprintf("%.2f ms", v)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f×", a/b)
}

// loadAvg is the machine's one-minute load average, to print beside the figures (Linux; "?" elsewhere).
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
