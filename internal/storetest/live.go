package storetest

import (
	"context"
	"testing"

	"mafiaclub/internal/club"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"broadcast settings", broadcastSettings})
}

// broadcastSettings: a game follows the club's default until it has its own delay, and again once that is cleared;
// a setting reads back as written.
func broadcastSettings(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "h")
	g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID}
	must(t, s.CreateGame(ctx, g))
	if _, set, err := s.GameBroadcast(ctx, g.ID); err != nil || set {
		t.Fatalf("a new game has its own delay: %v %v", set, err)
	}
	must(t, s.SetGameBroadcast(ctx, g.ID, 5, true))
	must(t, s.SetGameBroadcast(ctx, g.ID, 7, true))
	if m, set, err := s.GameBroadcast(ctx, g.ID); err != nil || !set || m != 7 {
		t.Errorf("got %d %v %v, want 7 minutes", m, set, err)
	}
	must(t, s.SetGameBroadcast(ctx, g.ID, 0, false))
	if _, set, _ := s.GameBroadcast(ctx, g.ID); set {
		t.Error("a cleared delay is still the game's own")
	}
	if _, ok, err := s.Setting(ctx, "broadcast_delay"); err != nil || ok {
		t.Fatalf("an unset setting: %v %v", ok, err)
	}
	must(t, s.SetSetting(ctx, "broadcast_delay", "3"))
	must(t, s.SetSetting(ctx, "broadcast_delay", "4"))
	if v, ok, err := s.Setting(ctx, "broadcast_delay"); err != nil || !ok || v != "4" {
		t.Errorf("setting: %q %v %v", v, ok, err)
	}
}
