package storetest

import (
	"context"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"an unfinished import stays live", importLive})
}

// importLive: a game imported unfinished (another platform's game that stops where it did) is filed live, in one
// transaction, with its whole log and no result, for a host to continue: its log grows as any live game's does,
// it is in no one's results until it is saved, and its source is refused a second time.
func importLive(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "live-importer")
	mk := func(source string) *club.Game {
		return &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID, Rated: true, Status: club.GameLive,
			Source: source, CreatedAt: time.Now(), Extra: []byte(`{"note":"unfinished","source":"platform"}`)}
	}
	events := []club.StoredEvent{ev(1, `{"type": "day"}`, h.ID), ev(2, `{"type": "speech", "seat": 1}`, h.ID)}
	audit := club.AuditEntry{At: time.Now(), By: h.ID, Action: "import_unfinished"}
	g := mk("platform:live")
	must(t, s.ImportGame(ctx, g, events, "", nil, audit))
	got, err := s.Game(ctx, g.ID)
	must(t, err)
	if got.Status != club.GameLive || got.Events != 2 || got.Version != 1 || got.Winner != "" || got.Source != "platform:live" ||
		!got.Rated || got.HostID != h.ID || string(got.Extra) != string(g.Extra) {
		t.Fatalf("the unfinished import: %+v", got)
	}
	if g.Status != club.GameLive || g.Version != 1 || g.Events != 2 {
		t.Errorf("the game as ImportGame leaves it: %+v", g)
	}
	if log, err := s.Events(ctx, g.ID); err != nil || len(log) != 2 || string(log[1].JSON) != `{"type": "speech", "seat": 1}` {
		t.Errorf("its log: %v %+v", err, log)
	}
	if a, err := s.Audit(ctx, g.ID); err != nil || len(a) != 1 || a[0].Action != "import_unfinished" {
		t.Errorf("its audit: %v %+v", err, a)
	}
	if live, _ := s.Games(ctx, club.GameFilter{Status: club.GameLive}); len(live) != 1 || live[0].ID != g.ID {
		t.Errorf("live games: %+v", live)
	}
	if saved, _ := s.Games(ctx, club.GameFilter{Status: club.GameSaved}); len(saved) != 0 {
		t.Errorf("saved games: %+v", saved)
	}
	// a host continues it at its version, as any live game
	must(t, s.Append(ctx, g.ID, 1, club.ActionKey{}, []club.StoredEvent{ev(3, `{"type": "speech", "seat": 2}`, h.ID)}))
	wantCode(t, s.Append(ctx, g.ID, 1, club.ActionKey{}, []club.StoredEvent{ev(4, `{"type": "speech", "seat": 3}`, h.ID)}), club.Conflict)
	if got, _ := s.Game(ctx, g.ID); got.Version != 2 || got.Events != 3 {
		t.Errorf("after a host's action: %+v", got)
	}
	// the same source again, live or saved, is refused, and nothing stays behind
	wantCode(t, s.ImportGame(ctx, mk("platform:live"), events, "", nil, audit), club.Conflict)
	again := mk("platform:live")
	again.Status = club.GameSaved
	wantCode(t, s.ImportGame(ctx, again, events, "red", nil, club.AuditEntry{At: time.Now(), By: h.ID, Action: "save_normal"}), club.Conflict)
	if all, _ := s.Games(ctx, club.GameFilter{}); len(all) != 1 {
		t.Errorf("%d games after two refused imports, want 1", len(all))
	}
}
