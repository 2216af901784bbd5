package demo

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mafiaclub/internal/club"
	"mafiaclub/mafia"
	"mafiaclub/mafia/record"
)

// TestDemoLive runs the demo host's live player at a fast pace: it plays a game through club.Games, telling the
// live pages of every change, saves it and starts the next; it goes on with the game being played after a
// restart, and from the game as it is when another host steps in; it stops at once when its context ends.
func TestDemoLive(t *testing.T) {
	ctx := context.Background()
	s := sqliteStore(t)
	if _, err := club.SeedDemo(ctx, s); err != nil {
		t.Fatal(err)
	}
	svc := club.NewServices(s, club.NewClock(testZone, nil))
	saved := func() int {
		n, err := s.CountGames(ctx, club.GameFilter{Status: club.GameSaved})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	current := func() int64 {
		v, _, _ := s.Setting(ctx, liveSetting)
		var id int64
		for _, c := range v {
			id = id*10 + int64(c-'0')
		}
		return id
	}
	var published atomic.Int64
	start := func(pace time.Duration, seed uint64) (stop func() time.Duration) {
		l, err := NewLive(ctx, s, svc, pace)
		if err != nil {
			t.Fatal(err)
		}
		l.Seed, l.Log = seed, slog.New(slog.DiscardHandler)
		l.Publish = func(id, version int64) { published.Add(1) }
		lctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		wg.Go(func() { l.Run(lctx) })
		return func() time.Duration {
			t0 := time.Now()
			cancel()
			wg.Wait()
			return time.Since(t0)
		}
	}
	eventually := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 30 s", what)
			}
		}
	}

	// a game is played, saved, and the next begins
	stop := start(time.Millisecond, 1)
	eventually("a saved game and the next live one", func() bool { return saved() >= 1 && current() > 1 })
	if took := stop(); took > time.Second {
		t.Errorf("the live player took %v to stop", took)
	}
	first, err := svc.Games.Load(ctx, &club.User{ID: 1, Role: club.RoleAdmin}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if first.Game.Status != club.GameSaved || !first.Play.Finished() || len(first.Log) < 30 || published.Load() < 30 {
		t.Fatalf("the first game: %s with %d events, %d changes published", first.Game.Status, len(first.Log), published.Load())
	}
	// its events came at the pace: a speech a few milliseconds, the whole game well under a second here
	if d := first.Log[len(first.Log)-1].At.Sub(first.Log[0].At); d > 5*time.Second {
		t.Errorf("the first game took %v at a pace of 1 ms", d)
	}

	// a restart goes on with the game being played, and another host steps in while it is played
	id := current()
	admin, err := s.UserByLogin(ctx, club.DemoAdminLogin)
	if err != nil {
		t.Fatal(err)
	}
	events := func() int {
		g, err := s.Game(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return g.Events
	}
	before, n := saved(), events()
	stop = start(50*time.Millisecond, 2)
	eventually("the game going on", func() bool { return events() >= n+3 })
	for {
		st, err := svc.Games.Load(ctx, admin, id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Play.Finished() {
			break // too late to step in: the game is over
		}
		_, err = svc.Games.Act(ctx, admin, id, st.Game.Version, []record.Event{{Event: mafia.Warning(st.Play.Alive().List()[0])}})
		if err == nil {
			break
		}
		if club.ErrorCode(err) != club.Conflict {
			t.Fatal(err)
		}
	}
	eventually("the game saved", func() bool {
		g, err := s.Game(ctx, id)
		return err == nil && g.Status == club.GameSaved && saved() > before
	})
	stop()
	log, err := s.Events(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	stepped := false
	for _, e := range log {
		stepped = stepped || e.By == admin.ID
	}
	if !stepped || log[len(log)-1].By == admin.ID {
		t.Errorf("the admin's warning is in the log: %v; the demo host went on after it: %v", stepped, log[len(log)-1].By != admin.ID)
	}

	// a slow pace: stopping does not wait for the next action
	stop = start(time.Hour, 3)
	time.Sleep(20 * time.Millisecond)
	if took := stop(); took > time.Second {
		t.Errorf("the live player took %v to stop", took)
	}
}
