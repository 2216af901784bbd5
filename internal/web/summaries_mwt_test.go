package web_test

import (
	"context"
	"html"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"mafiaclub/internal/club"
	"mafiaclub/mafia/record"
)

// TestSummaryImportPageTakesMWT: a foreign MWT game (mafiaratings' convert_game_to_mwt's output, no mafiaclub
// field) through the admin's page of old protocols: previewed, imported, and the rating changed by the points the
// game it came from gives; a bad MWT file is refused naming the field, and our own MWT export is sent to the game
// import.
func TestSummaryImportPageTakesMWT(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	admin := h.login("admin", "demo-admin")
	data, err := os.ReadFile("../convert/testdata/mwt/gen09.mwt.json") // fiim-2025-club, the club's rules
	if err != nil {
		t.Fatal(err)
	}
	recData, _ := os.ReadFile("../convert/testdata/mwt/gen09.rec.json")
	rec, err := record.Decode(recData)
	if err != nil || rec.Rules.ID != club.ClubRules {
		t.Fatalf("gen09: %v, rules %s", err, rec.Rules.ID)
	}
	g, err := rec.Replay()
	if err != nil {
		t.Fatal(err)
	}
	want := g.Result().Seats[0].Points
	p := club.Player{Nick: "MWT 101001"} // seat 1's MWT id
	if err := h.store.CreatePlayer(ctx, &p); err != nil {
		t.Fatal(err)
	}
	r := h.previewSummaries(admin, "game.mwt.json", data, map[string]string{"Accept-Language": "en"})
	if r.StatusCode != http.StatusOK || !strings.Contains(r.Body, "MWT 101002") {
		t.Fatalf("preview: %d %s", r.StatusCode, errorOf(r.Body))
	}
	m := hiddenData.FindStringSubmatch(r.Body)
	if m == nil {
		t.Fatalf("the preview has no confirmation form:\n%s", errorOf(r.Body))
	}
	r = h.post(admin, "/admin/summaries/import", url.Values{"file": {"game.mwt.json"}, "data": {html.UnescapeString(m[1])}})
	if r.StatusCode != http.StatusOK {
		t.Fatalf("import: %d %s", r.StatusCode, errorOf(r.Body))
	}
	st, err := h.store.Standings(ctx, club.RatingFilter{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, s := range st {
		if s.PlayerID == p.ID {
			found = true
			if s.Games != 1 || s.Points != want {
				t.Errorf("his line in the rating: %+v; the game gives him %d", s, want)
			}
		}
	}
	if !found {
		t.Fatalf("seat 1 is not in the rating: %+v", st)
	}
	games, _ := h.store.Games(ctx, club.GameFilter{Status: club.GameSaved})
	if len(games) != 1 || !games[0].IsSummary() || games[0].Source != "summary:2026-07-15/1/1" {
		t.Fatalf("saved games: %+v", games)
	}

	// a bad MWT file names the game, the seat and the field, in the admin's language
	bad := strings.Replace(string(data), `"player_roles": ["`, `"player_roles": ["wizard", "`, 1)
	r = h.previewSummaries(admin, "bad.mwt.json", []byte(bad), nil)
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "result.player_roles") ||
		!strings.Contains(r.Body, "має містити по одному запису на кожного з 10 гравців, а не 11") {
		t.Errorf("a bad MWT file: %d\n%s", r.StatusCode, errorOf(r.Body))
	}
	ours := strings.Replace(string(data), `"result": `, `"mafiaclub": {"mafiaratings": {}}, "result": `, 1)
	r = h.previewSummaries(admin, "ours.mwt.json", []byte(ours), map[string]string{"Accept-Language": "en"})
	if r.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(r.Body, "import it as a game at /admin/import") {
		t.Errorf("our own MWT export: %d\n%s", r.StatusCode, errorOf(r.Body))
	}
	if n, _ := h.store.CountGames(ctx, club.GameFilter{}); n != 1 {
		t.Errorf("%d games after the refused files", n)
	}
}
