package web_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// MaxImportBurstMemory is the stated bound of the memory a burst of parallel imports may add to the server (issue
// 23, item 3): at most club.HeavySlots imports run at once, each holding at most 2 MiB of its upload in memory (the
// rest waits in temporary files) and the file it converts; the others wait, or are refused before their upload is
// read. Without the bound, 1,000 parallel imports of 1 MB took the server from 155 MiB to 1.33 GiB.
const MaxImportBurstMemory = 64 << 20

// TestImportBurstMemoryBounded sends 300 imports of 1 MB at once from an admin and measures the peak memory while
// they run: it stays under MaxImportBurstMemory; every import is answered, either done (its report) or refused at
// once with 503 and Retry-After; and some are done.
func TestImportBurstMemoryBounded(t *testing.T) {
	h := newHarness(t)
	admin := h.login("admin", "demo-admin")
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("from", "mafiaratings")
	fw, _ := mw.CreateFormFile("files", "big.json")
	fw.Write([]byte(`{"padding": "` + strings.Repeat("x", 1<<20) + `"}`))
	mw.Close()
	upload := body.Bytes()
	// the client sends an upload only once the server asks for it (Expect: 100-continue, as curl does for large
	// bodies): a refused import is answered without its upload crossing the wire
	tr := &http.Transport{ExpectContinueTimeout: 10 * time.Second, MaxConnsPerHost: 0, MaxIdleConnsPerHost: 300}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Jar: admin.Jar, CheckRedirect: admin.CheckRedirect}

	runtime.GC()
	base := memInUse()
	var peak atomic.Uint64
	peak.Store(base) // the memory may fall below the base meanwhile: what the burst adds is never less than nothing
	stop, sampled := make(chan struct{}), make(chan struct{})
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
	const n = 300
	codes := make([]int, n)
	retry := make([]string, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/admin/import", bytes.NewReader(upload))
			req.Header.Set("Content-Type", mw.FormDataContentType())
			req.Header.Set("Expect", "100-continue")
			resp, err := client.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			codes[i], retry[i] = resp.StatusCode, resp.Header.Get("Retry-After")
		}()
	}
	close(start)
	wg.Wait()
	close(stop)
	<-sampled
	count := map[int]int{}
	for i, c := range codes {
		count[c]++
		if c == http.StatusServiceUnavailable && retry[i] == "" {
			t.Errorf("import %d refused without Retry-After", i)
		}
	}
	used := peak.Load() - base
	t.Logf("%d parallel imports of 1 MB: %v; peak %.0f MiB over %.0f MiB before", n, count, float64(used)/(1<<20), float64(base)/(1<<20))
	if used > MaxImportBurstMemory {
		t.Errorf("the burst took %d MiB, over the stated %d MiB", used>>20, MaxImportBurstMemory>>20)
	}
	for c, k := range count {
		if c != http.StatusOK && c != http.StatusServiceUnavailable {
			t.Errorf("%d imports answered %d", k, c)
		}
	}
	if count[http.StatusOK] < club.HeavySlots {
		t.Errorf("%d imports were done, want at least %d", count[http.StatusOK], club.HeavySlots)
	}
	if count[http.StatusServiceUnavailable] == 0 {
		t.Error("no import was refused: the bound did not hold")
	}
}
