package web_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mafiaclub/internal/club"
)

// upload posts files to the import page as a browser form would.
func (h *harness) upload(c *http.Client, from string, rated bool, files map[string][]byte) response {
	h.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("from", from)
	if rated {
		mw.WriteField("rated", "on")
	}
	for name, data := range files {
		fw, _ := mw.CreateFormFile("files", name)
		fw.Write(data)
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL+"/admin/import", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return h.do(c, req)
}

func conformance(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "conformance", rel))
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the conformance games are missing: %v", err)
		}
		t.Skipf("the conformance games are not here: %v", err)
	}
	return data
}

func TestImportPage(t *testing.T) {
	h := newHarness(t)
	admin := h.login("admin", "demo-admin")
	host := h.login("host", "demo-host")
	game := conformance(t, "mafiaratings/4842.json")
	if r := h.upload(host, "mafiaratings", true, map[string][]byte{"4842.json": game}); r.StatusCode != http.StatusForbidden {
		t.Errorf("a host imports: %d", r.StatusCode)
	}
	r := h.upload(admin, "mafiaratings", true, map[string][]byte{"4842.json": game, "broken.json": []byte(`{"players": 7`)})
	if r.StatusCode != http.StatusOK {
		t.Fatalf("import: %d %s", r.StatusCode, errorOf(r.Body))
	}
	ok := regexp.MustCompile(`4842.json: <a href="/history/(\d+)">`).FindStringSubmatch(r.Body)
	if ok == nil || !strings.Contains(r.Body, "broken.json: <span class=\"error-text\">відхилено: файл не є партією у форматі mafiaratings") {
		t.Fatalf("the report does not say which file was imported and which refused:\n%s", r.Body)
	}
	games, _ := h.store.Games(context.Background(), club.GameFilter{Status: club.GameSaved})
	if len(games) != 1 || !games[0].Rated || games[0].Source != "mafiaratings:4842" {
		t.Fatalf("saved games: %+v", games)
	}
	// the imported game is in the public history, with its result
	if page := h.get(h.client(), "/history/"+ok[1]).Body; !strings.Contains(page, "перемога") {
		t.Errorf("the imported game's page lacks its result")
	}
	// the same game again is refused, and nothing changes
	r = h.upload(admin, "mafiaratings", false, map[string][]byte{"again.json": game})
	if !strings.Contains(r.Body, "уже імпортовано") {
		t.Errorf("a second import is not refused:\n%s", errorOf(r.Body))
	}
	if games, _ := h.store.Games(context.Background(), club.GameFilter{}); len(games) != 1 {
		t.Errorf("%d games after the refused import", len(games))
	}
}
