package web_test

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// TestHeavyWorkSharedByClubs: one club's admin floods the import with uploads that never finish (a slow client);
// the club's share of the heavy work holds HeavyClubSlots+HeavyClubQueue of them and refuses the rest at once, 503
// with Retry-After. Another club of the same installation imports meanwhile: it is done, not refused. Before,
// one bound for the whole installation let the first club's flood fill it, and every other club's imports and
// backups were answered 503.
func TestHeavyWorkSharedByClubs(t *testing.T) {
	a, b := newHarness(t), newHarness(t) // two clubs, each its own site and store, in one process
	adminA, adminB := a.login("admin", "demo-admin"), b.login("admin", "demo-admin")
	const flood = 6
	type answer struct {
		status int
		retry  string
		err    error
	}
	answers := make(chan answer, flood+1)
	// the client sends an upload once the server asks for it (Expect: 100-continue, as curl does for large
	// bodies): a refused import is answered at once, without waiting for an upload that never comes
	tr := &http.Transport{ExpectContinueTimeout: time.Minute}
	defer tr.CloseIdleConnections()
	clientA := &http.Client{Transport: tr, Jar: adminA.Jar, CheckRedirect: adminA.CheckRedirect}
	var stalled []*io.PipeWriter
	defer func() {
		for _, w := range stalled { // the slow uploads end, and the imports held with them
			w.CloseWithError(errors.New("the client went away"))
		}
	}()
	slowImport := func() {
		r, w := io.Pipe()
		stalled = append(stalled, w)
		mw := multipart.NewWriter(w)
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/admin/import", r)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Expect", "100-continue")
		go func() {
			mw.WriteField("from", "mafiaratings")
			mw.CreateFormFile("files", "season.json") // and the file's bytes never come
		}()
		go func() {
			resp, err := clientA.Do(req)
			if err != nil {
				answers <- answer{err: err}
				return
			}
			resp.Body.Close()
			answers <- answer{status: resp.StatusCode, retry: resp.Header.Get("Retry-After")}
		}()
	}
	for range flood {
		slowImport()
	}
	held := flood
	deadline := time.After(5 * time.Second)
wait:
	for held > club.HeavyClubSlots+club.HeavyClubQueue {
		select {
		case an := <-answers:
			held--
			if an.status != http.StatusServiceUnavailable || an.retry == "" {
				t.Errorf("club A's import beyond its share: %d (Retry-After %q) %v, want 503 with Retry-After", an.status, an.retry, an.err)
			}
		case <-deadline:
			t.Errorf("club A's flood of %d slow imports: %d held after 5 s, want %d, the rest refused at once", flood, held, club.HeavyClubSlots+club.HeavyClubQueue)
			break wait
		}
	}

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("from", "mafiaratings")
	fw, _ := mw.CreateFormFile("files", "game.json")
	fw.Write([]byte(`{"not": "a game"}`))
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL+"/admin/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	done := make(chan response, 1)
	go func() { done <- b.do(adminB, req) }()
	select {
	case r := <-done:
		if r.StatusCode != http.StatusOK {
			t.Errorf("club B's import while club A's are held: %d %s, want it done", r.StatusCode, errorOf(r.Body))
		}
	case <-time.After(10 * time.Second):
		t.Error("club B's import waits behind club A's")
	}

	slowImport()
	select {
	case an := <-answers:
		if an.status != http.StatusServiceUnavailable || an.retry == "" {
			t.Errorf("club A's next import: %d (Retry-After %q) %v, want 503 with Retry-After", an.status, an.retry, an.err)
		}
	case <-time.After(5 * time.Second):
		t.Error("club A's next import beyond its share is held, not refused at once")
	}
}
