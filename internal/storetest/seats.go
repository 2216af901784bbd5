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
	}{"seat corrections", seatCorrections})
}

// seatCorrections: a live game's seats are replaced at its version, which is raised, and logged, in one
// transaction; a stale version, a seat the game does not have and a saved game change nothing.
func seatCorrections(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "h")
	p := &club.Player{Nick: "Alfa"}
	must(t, s.CreatePlayer(ctx, p))
	g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID}
	must(t, s.CreateGame(ctx, g))
	must(t, s.Append(ctx, g.ID, 0, club.ActionKey{}, []club.StoredEvent{ev(1, `{"type": "day"}`, h.ID)}))
	at := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	seats := tenSeats()
	seats[2].Role, seats[3].Role = "citizen", "mafia" // #3 and #4 swap their cards
	seats[4].Name, seats[4].PlayerID = "Alfa", p.ID   // #5 is a club player
	audit := club.AuditEntry{At: at, By: h.ID, Action: "correct_seats", Detail: `{"reason": "typo"}`}
	wantCode(t, s.SetSeats(ctx, g.ID, 0, seats, nil, audit), club.Conflict)
	if got, _ := s.Game(ctx, g.ID); got.Version != 1 || got.Seats[2].Role != "mafia" {
		t.Fatalf("a stale correction changed the game: %+v", got)
	}
	must(t, s.SetSeats(ctx, g.ID, 1, seats, nil, audit))
	got, err := s.Game(ctx, g.ID)
	must(t, err)
	if got.Version != 2 || got.Events != 1 {
		t.Errorf("version %d, events %d, want 2 and 1", got.Version, got.Events)
	}
	for i, st := range got.Seats {
		if st != seats[i] {
			t.Errorf("seat %d: %+v, want %+v", i+1, st, seats[i])
		}
	}
	if log, _ := s.Events(ctx, g.ID); len(log) != 1 {
		t.Errorf("the log has %d events, want 1 (a correction is no event)", len(log))
	}
	a, err := s.Audit(ctx, g.ID)
	must(t, err)
	if len(a) != 1 || a[0].Action != "correct_seats" || a[0].Detail != audit.Detail || a[0].ByName != "h" || !a[0].At.Equal(at) {
		t.Errorf("audit %+v", a)
	}
	// the device that saw version 1 cannot append over the correction
	wantCode(t, s.Append(ctx, g.ID, 1, club.ActionKey{}, []club.StoredEvent{ev(2, `{"type": "speech", "seat": 1}`, h.ID)}), club.Conflict)
	// unlinking: a seat back to a guest
	seats[4].Name, seats[4].PlayerID = "P5", 0
	bad := append(append([]club.Seat(nil), seats...), club.Seat{Seat: 11, Role: "citizen", Name: "P11"})
	wantCode(t, s.SetSeats(ctx, g.ID, 2, bad, nil, audit), club.NotFound)
	if got, _ := s.Game(ctx, g.ID); got.Version != 2 || got.Seats[4].PlayerID != p.ID {
		t.Errorf("a correction of a seat the game lacks changed it: version %d, seat 5 %+v", got.Version, got.Seats[4])
	}
	if a, _ := s.Audit(ctx, g.ID); len(a) != 1 {
		t.Errorf("a refused correction was logged: %+v", a)
	}
	must(t, s.SetSeats(ctx, g.ID, 2, seats, nil, audit))
	if got, _ := s.Game(ctx, g.ID); got.Seats[4].PlayerID != 0 || got.Seats[4].Name != "P5" || got.Version != 3 {
		t.Errorf("after unlinking: version %d, seat 5 %+v", got.Version, got.Seats[4])
	}
	// a corrected deal that moves a unanimous shot replaces the log with the seats, its length too
	log := []club.StoredEvent{ev(1, `{"type": "day"}`, h.ID), ev(2, `{"type": "speech", "seat": 1}`, h.ID)}
	must(t, s.SetSeats(ctx, g.ID, 3, seats, log, audit))
	if got, _ := s.Game(ctx, g.ID); got.Version != 4 || got.Events != 2 {
		t.Errorf("after replacing the log: version %d, events %d, want 4 and 2", got.Version, got.Events)
	}
	if got, _ := s.Events(ctx, g.ID); len(got) != 2 || string(got[1].JSON) != string(log[1].JSON) || got[1].Seq != 2 {
		t.Errorf("the replaced log: %+v", got)
	}
	must(t, s.SetStatus(ctx, g.ID, 4, club.GameSaved, false, "red", nil, club.AuditEntry{At: at, By: h.ID, Action: "save_normal"}))
	wantCode(t, s.SetSeats(ctx, g.ID, 5, tenSeats(), log[:1], audit), club.Closed)
	if got, _ := s.Events(ctx, g.ID); len(got) != 2 {
		t.Errorf("a saved game's log changed: %+v", got)
	}
	if got, _ := s.Game(ctx, g.ID); got.Seats[2].Role != "citizen" {
		t.Errorf("a saved game's seats changed: %+v", got.Seats[2])
	}
}
