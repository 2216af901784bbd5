package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/sqlstore"
	"mafiaclub/internal/storetest"
)

// parallelRetries is how many copies of one action, with one key, the host's device sends at once in
// TestParallelRetriesAnsweredAsDone.
const parallelRetries = 400

// keyGate holds every check of one idempotency key until all the copies of the action have made it (or a few
// seconds have passed), so that all of them find the key not yet recorded and race to record it: the window a
// copy falls in when another commits between its check and its own write, which without the gate only a few of
// 400 copies hit, and not in every run.
type keyGate struct {
	*sqlstore.DB
	key     string
	arrived sync.WaitGroup
	open    chan struct{}
}

func newKeyGate(db *sqlstore.DB, key string, n int) *keyGate {
	g := &keyGate{DB: db, key: key, open: make(chan struct{})}
	g.arrived.Add(n)
	go func() { g.arrived.Wait(); close(g.open) }()
	return g
}

func (g *keyGate) ActionRecorded(ctx context.Context, gameID int64, key string) (string, bool, error) {
	if key == g.key {
		g.arrived.Done()
		select {
		case <-g.open:
		case <-time.After(5 * time.Second):
		}
	}
	return g.DB.ActionRecorded(ctx, gameID, key)
}

// TestParallelRetriesAnsweredAsDone: a host's device that sends the same action with the same key many times at
// once (a flaky network, a script that retries) has every copy answered as done, 200 with the game as recorded,
// and the action recorded once, on SQLite and on PostgreSQL alike. PostgreSQL answered a copy that waited for
// another's commit "someone else changed this game" (409, "repeat the action").
func TestParallelRetriesAnsweredAsDone(t *testing.T) {
	t.Run("SQLite", func(t *testing.T) {
		parallelRetriesAnsweredAsDone(t, newHarnessOn(t, filepath.Join(t.TempDir(), "club.db")))
	})
	t.Run("PostgreSQL", func(t *testing.T) { parallelRetriesAnsweredAsDone(t, newHarnessOn(t, storetest.FreshPostgres(t))) })
}

// parallelRetriesAnsweredAsDone runs on h's database, with its services' key checks behind a keyGate.
func parallelRetriesAnsweredAsDone(t *testing.T, h *harness) {
	const key = "parallel-key-0001"
	gated := newHarnessWith(t, h.store, newKeyGate(h.store, key, parallelRetries))
	host := gated.login("host", "demo-host")
	id := gated.newGame(host, "fiim-2025-club", tenRoles, nil)
	act := gated.srv.URL + fmt.Sprintf("/games/%d/act", id)
	form := url.Values{"version": {"0"}, "key": {key}, "type": {"foul"}, "seat": {"3"}}.Encode()
	type answer struct {
		status  int
		version int64
		body    string
	}
	answers := make([]answer, parallelRetries)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range answers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodPost, act, strings.NewReader(form))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Accept", "application/json")
			<-start
			resp, err := host.Do(req)
			if err != nil {
				answers[i] = answer{body: err.Error()}
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			var a jsonAnswer
			json.Unmarshal(b, &a)
			answers[i] = answer{resp.StatusCode, a.version(), string(b)}
		}()
	}
	close(start)
	wg.Wait()
	bad := map[string]int{}
	for _, a := range answers {
		if a.status != http.StatusOK || a.version != 1 {
			bad[fmt.Sprintf("%d %.120s", a.status, a.body)]++
		}
	}
	for what, n := range bad {
		t.Errorf("%d of %d copies of one action answered %s, want 200 at version 1", n, parallelRetries, what)
	}
	if n := h.events(id); n != 1 || h.version(id) != 1 {
		t.Errorf("the game has %d events at version %d, want the action once, at version 1", n, h.version(id))
	}
}
