// Package storetest is the contract every club.Store must pass. A store's own tests call Run with a function
// that returns a fresh, empty store.
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// Run runs the whole contract against stores made by open.
func Run(t *testing.T, open func(t *testing.T) club.Store) {
	t.Run("users and sessions", func(t *testing.T) { usersAndSessions(t, open(t)) })
	t.Run("players", func(t *testing.T) { players(t, open(t)) })
	t.Run("game log", func(t *testing.T) { gameLog(t, open(t)) })
	t.Run("concurrent appends", func(t *testing.T) { concurrentAppends(t, open(t)) })
	t.Run("appends to many games at once", func(t *testing.T) { appendsToManyGames(t, open(t)) })
	t.Run("idempotency keys", func(t *testing.T) { idempotencyKeys(t, open(t)) })
	t.Run("action digests", func(t *testing.T) { actionDigests(t, open(t)) })
	t.Run("one key appended in parallel", func(t *testing.T) { parallelKey(t, open(t)) })
	t.Run("take over", func(t *testing.T) { takeOver(t, open(t)) })
	for _, x := range extra {
		t.Run(x.name, func(t *testing.T) { x.f(t, open(t)) })
	}
}

// extra are the parts of the contract that later files add.
var extra []struct {
	name string
	f    func(*testing.T, club.Store)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantCode(t *testing.T, err error, code club.Code) {
	t.Helper()
	if got := club.ErrorCode(err); got != code {
		t.Fatalf("got %v (%q), want %q", err, got, code)
	}
}

func usersAndSessions(t *testing.T, s club.Store) {
	ctx := context.Background()
	u := &club.User{Login: "Host1", Name: "Host One", Role: club.RoleHost, PasswordHash: "x"}
	must(t, s.CreateUser(ctx, u))
	if u.ID == 0 {
		t.Fatal("no id")
	}
	wantCode(t, s.CreateUser(ctx, &club.User{Login: "host1", Name: "Other", Role: club.RoleHost, PasswordHash: "y"}), club.Conflict)
	got, err := s.UserByLogin(ctx, "HOST1")
	must(t, err)
	if got.ID != u.ID || got.Role != club.RoleHost {
		t.Errorf("got %+v", got)
	}
	_, err = s.UserByLogin(ctx, "nobody")
	wantCode(t, err, club.NotFound)
	must(t, s.SetUserLang(ctx, u.ID, "uk"))
	if got, _ := s.User(ctx, u.ID); got.Lang != "uk" {
		t.Errorf("lang: got %q", got.Lang)
	}
	now := time.Now()
	tok := []byte("token-hash-1")
	must(t, s.CreateSession(ctx, tok, u.ID, now.Add(time.Hour)))
	su, err := s.SessionUser(ctx, tok, now)
	must(t, err)
	if su.ID != u.ID {
		t.Errorf("session user %d, want %d", su.ID, u.ID)
	}
	_, err = s.SessionUser(ctx, tok, now.Add(2*time.Hour))
	wantCode(t, err, club.Unauthorized)
	must(t, s.DeleteSession(ctx, tok))
	_, err = s.SessionUser(ctx, tok, now)
	wantCode(t, err, club.Unauthorized)
	// a new password ends every session but the one kept
	must(t, s.CreateSession(ctx, []byte("keep"), u.ID, now.Add(time.Hour)))
	must(t, s.CreateSession(ctx, []byte("drop"), u.ID, now.Add(time.Hour)))
	must(t, s.SetPassword(ctx, u.ID, "new-hash", []byte("keep")))
	if _, err := s.SessionUser(ctx, []byte("keep"), now); err != nil {
		t.Errorf("the kept session ended: %v", err)
	}
	_, err = s.SessionUser(ctx, []byte("drop"), now)
	wantCode(t, err, club.Unauthorized)
	if got, _ := s.User(ctx, u.ID); got.PasswordHash != "new-hash" {
		t.Errorf("hash %q", got.PasswordHash)
	}
}

func players(t *testing.T, s club.Store) {
	ctx := context.Background()
	for _, n := range []string{"Joker", "Ajax", "joy_ride", "Boris", "50%"} {
		must(t, s.CreatePlayer(ctx, &club.Player{Nick: n}))
	}
	got, err := s.SearchPlayers(ctx, "jo", 10)
	must(t, err)
	var names []string
	for _, p := range got {
		names = append(names, p.Nick)
	}
	if fmt.Sprint(names) != "[joy_ride Joker]" && fmt.Sprint(names) != "[Joker joy_ride]" {
		t.Errorf("search jo: got %v, want Joker and joy_ride (prefix matches first)", names)
	}
	got, _ = s.SearchPlayers(ctx, "%", 10)
	if len(got) != 1 || got[0].Nick != "50%" {
		t.Errorf("search %%: got %v, want only 50%%", got)
	}
}

// NewHost makes a host account in s.
func NewHost(t *testing.T, s club.Store, login string) *club.User {
	t.Helper()
	u := &club.User{Login: login, Name: login, Role: club.RoleHost, PasswordHash: "x"}
	must(t, s.CreateUser(context.Background(), u))
	return u
}

func tenSeats() []club.Seat {
	roles := []string{"citizen", "citizen", "mafia", "citizen", "sheriff", "citizen", "don", "citizen", "mafia", "citizen"}
	seats := make([]club.Seat, 10)
	for i := range seats {
		seats[i] = club.Seat{Seat: i + 1, Role: roles[i], Name: fmt.Sprintf("P%d", i+1)}
	}
	return seats
}

// NewSeats turns a game's seats into a new game's: the players as they are, the others guests.
func NewSeats(seats []club.Seat) []club.NewSeat {
	out := make([]club.NewSeat, len(seats))
	for i, st := range seats {
		out[i] = club.NewSeat{Name: st.Name, Role: st.Role, PlayerID: st.PlayerID, Guest: st.PlayerID == 0}
	}
	return out
}

func ev(seq int, js string, by int64) club.StoredEvent {
	return club.StoredEvent{Seq: seq, JSON: []byte(js), At: time.Now(), By: by}
}

func gameLog(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "h")
	g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID, Rated: true}
	must(t, s.CreateGame(ctx, g))
	got, err := s.Game(ctx, g.ID)
	must(t, err)
	if len(got.Seats) != 10 || got.Seats[6].Role != "don" || got.Version != 0 || got.Status != club.GameLive || got.HostName != "h" {
		t.Fatalf("got %+v", got)
	}
	must(t, s.Append(ctx, g.ID, 0, club.ActionKey{}, []club.StoredEvent{ev(1, `{"type": "day"}`, h.ID)}))
	wantCode(t, s.Append(ctx, g.ID, 0, club.ActionKey{}, []club.StoredEvent{ev(2, `{"type": "speech", "seat": 1}`, h.ID)}), club.Conflict)
	must(t, s.Append(ctx, g.ID, 1, club.ActionKey{}, []club.StoredEvent{ev(2, `{"type": "speech", "seat": 1}`, h.ID), ev(3, `{"type": "speech", "seat": 2}`, h.ID)}))
	log, err := s.Events(ctx, g.ID)
	must(t, err)
	if len(log) != 3 || string(log[2].JSON) != `{"type": "speech", "seat": 2}` {
		t.Fatalf("log: %+v", log)
	}
	undone, err := s.Undo(ctx, g.ID, 2, club.AuditEntry{At: time.Now(), By: h.ID, Action: "undo"})
	must(t, err)
	if undone.Seq != 3 {
		t.Errorf("undid %d, want 3", undone.Seq)
	}
	got, _ = s.Game(ctx, g.ID)
	if got.Version != 3 || got.Events != 2 {
		t.Errorf("after undo: version %d events %d, want 3 and 2", got.Version, got.Events)
	}
	// an undo followed by an append does not let a device that saw version 2 write again (no ABA)
	wantCode(t, s.Append(ctx, g.ID, 2, club.ActionKey{}, []club.StoredEvent{ev(3, `{"type": "speech", "seat": 3}`, h.ID)}), club.Conflict)
	must(t, s.SetStatus(ctx, g.ID, 3, club.GameSaved, false, "red", nil, club.AuditEntry{At: time.Now(), By: h.ID, Action: "save_normal"}))
	wantCode(t, s.Append(ctx, g.ID, 4, club.ActionKey{}, []club.StoredEvent{ev(3, `{"type": "speech", "seat": 3}`, h.ID)}), club.Closed)
	got, _ = s.Game(ctx, g.ID)
	if got.Status != club.GameSaved || got.Rated || got.Winner != "red" || got.SavedAt.IsZero() {
		t.Errorf("after save: %+v", got)
	}
	must(t, s.SetStatus(ctx, g.ID, 4, club.GameLive, false, "", nil, club.AuditEntry{At: time.Now(), By: h.ID, Action: "reopen"}))
	a, err := s.Audit(ctx, g.ID)
	must(t, err)
	if len(a) != 3 || a[0].Action != "undo" || a[2].Action != "reopen" || a[0].ByName != "h" {
		t.Errorf("audit: %+v", a)
	}
	list, err := s.Games(ctx, club.GameFilter{Status: club.GameLive})
	must(t, err)
	if len(list) != 1 || list[0].ID != g.ID {
		t.Errorf("games: %+v", list)
	}
	_, err = s.Game(ctx, g.ID+100)
	wantCode(t, err, club.NotFound)
}

// concurrentAppends: many devices append at the same version; exactly one wins each round.
func concurrentAppends(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "h")
	g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID}
	must(t, s.CreateGame(ctx, g))
	for round := int64(0); round < 5; round++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, conflicts := 0, 0
		for d := 0; d < 8; d++ {
			wg.Add(1)
			go func(d int) {
				defer wg.Done()
				err := s.Append(ctx, g.ID, round, club.ActionKey{}, []club.StoredEvent{ev(int(round)+1, fmt.Sprintf(`{"type": "foul", "seat": %d}`, d+1), h.ID)})
				mu.Lock()
				defer mu.Unlock()
				switch club.ErrorCode(err) {
				case "":
					ok++
				case club.Conflict:
					conflicts++
				default:
					t.Errorf("device %d: %v", d, err)
				}
			}(d)
		}
		wg.Wait()
		if ok != 1 || conflicts != 7 {
			t.Fatalf("round %d: %d succeeded and %d conflicted, want 1 and 7", round, ok, conflicts)
		}
	}
	log, _ := s.Events(ctx, g.ID)
	if len(log) != 5 {
		t.Errorf("%d events, want 5", len(log))
	}
}

// idempotencyKeys: an action's key is recorded with it; the same key again (a retry whose answer was lost) is
// ErrRecorded and writes nothing, at the old version or the new; a key is a game's own.
func idempotencyKeys(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "h")
	g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID}
	must(t, s.CreateGame(ctx, g))
	other := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID}
	must(t, s.CreateGame(ctx, other))
	must(t, s.Append(ctx, g.ID, 0, club.ActionKey{Key: "key-aaaaaaaa"}, []club.StoredEvent{ev(1, `{"type": "foul", "seat": 1}`, h.ID)}))
	if err := s.Append(ctx, g.ID, 0, club.ActionKey{Key: "key-aaaaaaaa"}, []club.StoredEvent{ev(1, `{"type": "foul", "seat": 1}`, h.ID)}); !errors.Is(err, club.ErrRecorded) {
		t.Errorf("the same key at the same version: %v, want ErrRecorded", err)
	}
	if err := s.Append(ctx, g.ID, 1, club.ActionKey{Key: "key-aaaaaaaa"}, []club.StoredEvent{ev(2, `{"type": "foul", "seat": 1}`, h.ID)}); !errors.Is(err, club.ErrRecorded) {
		t.Errorf("the same key at the new version: %v, want ErrRecorded", err)
	}
	if _, ok, err := s.ActionRecorded(ctx, g.ID, "key-aaaaaaaa"); !ok || err != nil {
		t.Errorf("ActionRecorded: %v %v", ok, err)
	}
	if _, ok, _ := s.ActionRecorded(ctx, other.ID, "key-aaaaaaaa"); ok {
		t.Error("a key is recorded for another game")
	}
	must(t, s.Append(ctx, other.ID, 0, club.ActionKey{Key: "key-aaaaaaaa"}, []club.StoredEvent{ev(1, `{"type": "foul", "seat": 1}`, h.ID)}))
	wantCode(t, s.Append(ctx, g.ID, 0, club.ActionKey{Key: "key-bbbbbbbb"}, []club.StoredEvent{ev(2, `{"type": "foul", "seat": 2}`, h.ID)}), club.Conflict)
	if _, ok, _ := s.ActionRecorded(ctx, g.ID, "key-bbbbbbbb"); ok {
		t.Error("a refused append left its key")
	}
	log, _ := s.Events(ctx, g.ID)
	if len(log) != 1 {
		t.Errorf("%d events, want 1", len(log))
	}
}

// actionDigests: a key is recorded with its action's digest; the same key with the same digest is a retry
// (ErrRecorded), with another digest another action (ErrKeyReused); neither writes anything.
func actionDigests(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "h")
	g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID}
	must(t, s.CreateGame(ctx, g))
	must(t, s.Append(ctx, g.ID, 0, club.ActionKey{Key: "key-aaaaaaaa", Digest: "d1"}, []club.StoredEvent{ev(1, `{"type": "foul", "seat": 1}`, h.ID)}))
	if digest, ok, err := s.ActionRecorded(ctx, g.ID, "key-aaaaaaaa"); digest != "d1" || !ok || err != nil {
		t.Errorf("ActionRecorded: %q %v %v, want d1", digest, ok, err)
	}
	if err := s.Append(ctx, g.ID, 1, club.ActionKey{Key: "key-aaaaaaaa", Digest: "d1"}, []club.StoredEvent{ev(2, `{"type": "foul", "seat": 1}`, h.ID)}); !errors.Is(err, club.ErrRecorded) {
		t.Errorf("the same key and digest: %v, want ErrRecorded", err)
	}
	if err := s.Append(ctx, g.ID, 1, club.ActionKey{Key: "key-aaaaaaaa", Digest: "d2"}, []club.StoredEvent{ev(2, `{"type": "foul", "seat": 2}`, h.ID)}); !errors.Is(err, club.ErrKeyReused) {
		t.Errorf("the same key with another digest: %v, want ErrKeyReused", err)
	}
	if log, _ := s.Events(ctx, g.ID); len(log) != 1 {
		t.Errorf("%d events, want 1", len(log))
	}
	if got, _ := s.Game(ctx, g.ID); got.Version != 1 {
		t.Errorf("version %d, want 1", got.Version)
	}
}

// parallelKey: copies of one action with one key, appended at once at the same version, are recorded once; every
// other copy is ErrRecorded (a retry answered as done), never "someone else changed this game", even one that
// waited for the first's commit.
func parallelKey(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "h")
	g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID}
	must(t, s.CreateGame(ctx, g))
	const copies = 40
	errs := make([]error, copies)
	start := make(chan struct{})
	var wg sync.WaitGroup
	// the pool's connections opened first: the copies then begin their transactions together, not one by one
	// as each gets a new connection
	for range copies {
		wg.Add(1)
		go func() { defer wg.Done(); s.ActionRecorded(ctx, g.ID, "key-warm") }()
	}
	wg.Wait()
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = s.Append(ctx, g.ID, 0, club.ActionKey{Key: "key-parallel", Digest: "d1"}, []club.StoredEvent{ev(1, `{"type": "foul", "seat": 1}`, h.ID)})
		}()
	}
	close(start)
	wg.Wait()
	done := 0
	for _, err := range errs {
		switch {
		case err == nil:
			done++
		case !errors.Is(err, club.ErrRecorded):
			t.Errorf("a copy of the action: %v, want ErrRecorded", err)
		}
	}
	if done != 1 {
		t.Errorf("%d copies recorded, want 1", done)
	}
	if log, _ := s.Events(ctx, g.ID); len(log) != 1 {
		t.Errorf("%d events, want 1", len(log))
	}
}

// takeOver: a game's host changes only from the host it has, logged once.
func takeOver(t *testing.T, s club.Store) {
	ctx := context.Background()
	a, b, c := NewHost(t, s, "a"), NewHost(t, s, "b"), NewHost(t, s, "c")
	g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: a.ID}
	must(t, s.CreateGame(ctx, g))
	at := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	ok, err := s.TakeOver(ctx, g.ID, a.ID, b.ID, club.AuditEntry{At: at, By: b.ID, Action: "take_over", Detail: "a"})
	if !ok || err != nil {
		t.Fatalf("take over: %v %v", ok, err)
	}
	// c still thinks a runs it: not taken, not logged
	if ok, err := s.TakeOver(ctx, g.ID, a.ID, c.ID, club.AuditEntry{At: at, By: c.ID, Action: "take_over", Detail: "a"}); ok || err != nil {
		t.Errorf("a stale take over: %v %v, want false", ok, err)
	}
	got, _ := s.Game(ctx, g.ID)
	if got.HostID != b.ID {
		t.Errorf("host %d, want %d", got.HostID, b.ID)
	}
	log, err := s.Audit(ctx, g.ID)
	must(t, err)
	if len(log) != 1 || log[0].Action != "take_over" || log[0].By != b.ID || log[0].ByName != "b" || log[0].Detail != "a" || !log[0].At.Equal(at) {
		t.Errorf("audit %+v, want b's take over from a", log)
	}
}

// appendsToManyGames: hosts of 20 games append at once, each on his own game (the store may commit them together); every
// append is in its game's log once, in order, and a stale one among them is refused alone.
func appendsToManyGames(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "h")
	var wg sync.WaitGroup
	ids := make([]int64, 20)
	for i := range ids {
		g := &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID}
		must(t, s.CreateGame(ctx, g))
		ids[i] = g.ID
	}
	for i, id := range ids {
		wg.Add(1)
		go func(i int, id int64) {
			defer wg.Done()
			for v := int64(0); v < 10; v++ {
				if err := s.Append(ctx, id, v, club.ActionKey{}, []club.StoredEvent{ev(int(v)+1, fmt.Sprintf(`{"type": "foul", "seat": %d}`, v%10+1), h.ID)}); err != nil {
					t.Errorf("game %d, version %d: %v", id, v, err)
					return
				}
				if v == 5 { // a stale device among the others
					wantCode(t, s.Append(ctx, id, v, club.ActionKey{}, []club.StoredEvent{ev(int(v)+1, `{"type": "foul", "seat": 1}`, h.ID)}), club.Conflict)
				}
			}
		}(i, id)
	}
	wg.Wait()
	for _, id := range ids {
		log, err := s.Events(ctx, id)
		must(t, err)
		g, err := s.Game(ctx, id)
		must(t, err)
		if len(log) != 10 || g.Version != 10 {
			t.Errorf("game %d: %d events, version %d; want 10 and 10", id, len(log), g.Version)
		}
		for i, e := range log {
			if e.Seq != i+1 {
				t.Errorf("game %d: event %d has seq %d", id, i, e.Seq)
			}
		}
	}
}

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"members", members}, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"club nights", clubNights})
}

func members(t *testing.T, s club.Store) {
	ctx := context.Background()
	admin := &club.User{Login: "adm", Name: "Adm", Role: club.RoleAdmin, PasswordHash: "x"}
	must(t, s.CreateUser(ctx, admin))
	u := &club.User{Login: "newbie", Name: "New", Role: club.RoleMember, PasswordHash: "x"}
	p := &club.Player{Nick: "Newbie"}
	must(t, s.CreateMember(ctx, u, p))
	if u.Status != club.StatusPending || u.PlayerID != p.ID || p.ID == 0 {
		t.Fatalf("member %+v player %+v", u, p)
	}
	wantCode(t, s.CreateMember(ctx, &club.User{Login: "NEWBIE", Name: "x", Role: club.RoleMember, PasswordHash: "x"}, &club.Player{Nick: "Other"}), club.Conflict)
	if got, _ := s.SearchPlayers(ctx, "other", 5); len(got) != 0 {
		t.Error("a refused sign-up left its player profile behind")
	}
	if got, _ := s.SearchPlayers(ctx, "newbie", 5); len(got) != 0 {
		t.Error("a member not yet approved is offered for seating")
	}
	must(t, s.ChangeMember(ctx, club.MemberChange{At: time.Now(), UserID: u.ID, By: admin.ID, Field: "status", To: string(club.StatusActive), Reason: "approved"}))
	if got, _ := s.SearchPlayers(ctx, "newbie", 5); len(got) != 1 {
		t.Error("an approved member is not offered for seating")
	}
	must(t, s.ChangeMember(ctx, club.MemberChange{At: time.Now(), UserID: u.ID, By: admin.ID, Field: "role", To: string(club.RoleHost), Reason: "runs tables"}))
	wantCode(t, s.ChangeMember(ctx, club.MemberChange{At: time.Now(), UserID: u.ID, By: admin.ID, Field: "password", To: "x"}), club.Invalid)
	got, _ := s.User(ctx, u.ID)
	if got.Status != club.StatusActive || got.Role != club.RoleHost {
		t.Errorf("after the changes: %+v", got)
	}
	log, err := s.MemberLog(ctx, u.ID)
	must(t, err)
	if len(log) != 2 || log[0].From != "pending" || log[0].To != "active" || log[1].Field != "role" || log[1].Reason != "runs tables" || log[1].ByName != "Adm" {
		t.Errorf("log: %+v", log)
	}
	list, err := s.Members(ctx)
	must(t, err)
	if len(list) != 2 {
		t.Fatalf("members: %+v", list)
	}
	for _, m := range list {
		if m.ID == u.ID && m.Nick != "Newbie" {
			t.Errorf("member nick %q", m.Nick)
		}
	}
}

func member(t *testing.T, s club.Store, login string, status club.MemberStatus) int64 {
	t.Helper()
	u := &club.User{Login: login, Name: login, Role: club.RoleMember, PasswordHash: "x", Status: status}
	must(t, s.CreateMember(context.Background(), u, &club.Player{Nick: login}))
	return u.ID
}

func clubNights(t *testing.T, s club.Store) {
	ctx := context.Background()
	admin := NewHost(t, s, "organiser")
	start := time.Date(2027, 3, 14, 19, 0, 0, 0, time.UTC)
	n := &club.ClubNight{StartsAt: start, Place: "Café", Tables: 1, PerTable: 7, CreatedBy: admin.ID}
	must(t, s.CreateNight(ctx, n))
	now := start.Add(-72 * time.Hour)
	var ids []int64
	for i := 0; i < 8; i++ {
		ids = append(ids, member(t, s, fmt.Sprintf("m%d", i), club.StatusActive))
	}
	low := member(t, s, "low", club.StatusLowPriority)
	excluded := member(t, s, "out", club.StatusExcluded)
	pending := member(t, s, "wait", club.StatusPending)
	// the low-priority member registers first, while places remain: he still goes to the reserve (R99)
	r, err := s.Register(ctx, n.ID, low, now)
	must(t, err)
	if r.State != club.RegReserve {
		t.Errorf("low priority: %s, want reserve", r.State)
	}
	for i, id := range ids {
		r, err := s.Register(ctx, n.ID, id, now.Add(time.Duration(i+1)*time.Minute))
		must(t, err)
		want := club.RegMain
		if i == 7 {
			want = club.RegReserve
		}
		if r.State != want {
			t.Errorf("member %d: %s, want %s", i, r.State, want)
		}
	}
	_, err = s.Register(ctx, n.ID, excluded, now)
	wantCode(t, err, club.Forbidden)
	_, err = s.Register(ctx, n.ID, pending, now)
	wantCode(t, err, club.Forbidden)
	_, err = s.Register(ctx, n.ID, ids[0], now)
	wantCode(t, err, club.Conflict)
	_, err = s.Register(ctx, n.ID, member(t, s, "late", club.StatusActive), start)
	wantCode(t, err, club.Invalid)
	got, _ := s.Night(ctx, n.ID)
	if got.Main != 7 || got.Reserve != 2 {
		t.Errorf("line-up %d + %d, want 7 + 2", got.Main, got.Reserve)
	}
	// a main place freed in time goes to the first reserve member who may take it: m7, not the low-priority one
	_, err = s.Cancel(ctx, n.ID, ids[0], now, false)
	must(t, err)
	regs, _ := s.Registrations(ctx, n.ID)
	state := map[int64]club.RegState{}
	for _, r := range regs {
		if r.State != club.RegCancelled {
			state[r.UserID] = r.State
		}
	}
	if state[ids[7]] != club.RegMain || state[low] != club.RegReserve {
		t.Errorf("after the cancellation: m7 %s, low %s; want main and reserve", state[ids[7]], state[low])
	}
	if st, _ := s.Strikes(ctx, ids[0]); len(st) != 0 {
		t.Errorf("a cancellation in time recorded a strike: %+v", st)
	}
	_, err = s.Cancel(ctx, n.ID, ids[0], now, false)
	wantCode(t, err, club.NotFound)
	// a late cancellation records a strike; the member may register again and the history stays
	_, err = s.Cancel(ctx, n.ID, ids[1], start.Add(-time.Hour), true)
	must(t, err)
	if st, _ := s.Strikes(ctx, ids[1]); len(st) != 1 || st[0].Kind != club.StrikeLate {
		t.Errorf("late cancellation: strikes %+v", st)
	}
	// no-shows: only the main line-up; marking twice records one strike; unmarking removes it
	must(t, s.SetNoShow(ctx, n.ID, ids[2], true, start.Add(3*time.Hour)))
	must(t, s.SetNoShow(ctx, n.ID, ids[2], true, start.Add(3*time.Hour)))
	wantCode(t, s.SetNoShow(ctx, n.ID, low, true, start.Add(3*time.Hour)), club.NotFound)
	if st, _ := s.Strikes(ctx, ids[2]); len(st) != 1 || st[0].Kind != club.StrikeNoShow {
		t.Errorf("no-show: strikes %+v", st)
	}
	must(t, s.SetNoShow(ctx, n.ID, ids[3], true, start.Add(3*time.Hour)))
	must(t, s.SetNoShow(ctx, n.ID, ids[3], false, start.Add(3*time.Hour)))
	if st, _ := s.Strikes(ctx, ids[3]); len(st) != 0 {
		t.Errorf("unmarked no-show: strikes %+v", st)
	}
	mine, _ := s.UserRegistrations(ctx, ids[0])
	if len(mine) != 1 || mine[0].State != club.RegCancelled {
		t.Errorf("my registrations: %+v", mine)
	}
	list, _ := s.Nights(ctx, start.Add(-time.Hour), start.Add(time.Hour))
	if len(list) != 1 || list[0].ID != n.ID {
		t.Errorf("nights: %+v", list)
	}
	// strikes never change a status by themselves (C-18)
	if u, _ := s.User(ctx, ids[2]); u.Status != club.StatusActive {
		t.Errorf("a strike changed the status to %s", u.Status)
	}
}

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"nicknames", nicknames})
}

// nicknames: one nickname per player, ignoring case in any alphabet; exact lookups find a player however many
// the club has.
func nicknames(t *testing.T, s club.Store) {
	ctx := context.Background()
	must(t, s.CreatePlayer(ctx, &club.Player{Nick: "Анна"}))
	wantCode(t, s.CreatePlayer(ctx, &club.Player{Nick: "анна"}), club.Conflict)
	wantCode(t, s.CreateMember(ctx, &club.User{Login: "anna2", Name: "x", Role: club.RoleMember, PasswordHash: "x"}, &club.Player{Nick: "АННА "}), club.Conflict)
	for i := 0; i < 260; i++ {
		must(t, s.CreatePlayer(ctx, &club.Player{Nick: fmt.Sprintf("Гравець %03d", i)}))
	}
	p, err := s.PlayerByNick(ctx, "гравець 259")
	must(t, err)
	if p.Nick != "Гравець 259" {
		t.Errorf("found %q", p.Nick)
	}
	_, err = s.PlayerByNick(ctx, "Гравець 999")
	wantCode(t, err, club.NotFound)
	if got, _ := s.SearchPlayers(ctx, "ан", 10); len(got) != 1 || got[0].Nick != "Анна" {
		t.Errorf("search ан: %+v", got)
	}
	a, _ := s.PlayerByNick(ctx, "анна")
	a.Nick = "Гравець 001"
	wantCode(t, s.UpdatePlayer(ctx, a), club.Conflict)
}

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"import is one transaction", importAtomic})
}

// importAtomic: an imported game is filed whole or not at all.
func importAtomic(t *testing.T, s club.Store) {
	ctx := context.Background()
	h := NewHost(t, s, "importer")
	mk := func(source string) *club.Game {
		return &club.Game{Rules: "fiim-2025-club", Seats: tenSeats(), HostID: h.ID, Rated: true, Source: source, CreatedAt: time.Now()}
	}
	events := []club.StoredEvent{ev(1, `{"type": "team_loss", "seat": 3}`, h.ID)}
	results := []club.GameResult{{Seat: 1, Role: "citizen", Won: true, Points: 130, Rated: true, PlayedAt: time.Now()}}
	audit := club.AuditEntry{At: time.Now(), By: h.ID, Action: "save_rated"}
	g := mk("platform:1")
	g.Extra = json.RawMessage(`{"note":"reconstructed","source":"platform"}`) // the record's own fields, kept
	must(t, s.ImportGame(ctx, g, events, "red", results, audit))
	got, err := s.Game(ctx, g.ID)
	must(t, err)
	if got.Status != club.GameSaved || got.Events != 1 || got.Winner != "red" || got.Source != "platform:1" || string(got.Extra) != string(g.Extra) {
		t.Errorf("imported game: %+v", got)
	}
	// the same source again, and a log that cannot be stored (two events at one seq): nothing stays behind
	wantCode(t, s.ImportGame(ctx, mk("platform:1"), events, "red", results, audit), club.Conflict)
	bad := []club.StoredEvent{ev(1, `{"type": "day"}`, h.ID), ev(1, `{"type": "night"}`, h.ID)}
	if err := s.ImportGame(ctx, mk("platform:2"), bad, "red", results, audit); err == nil {
		t.Error("a log with two events at one place was imported")
	}
	if all, _ := s.Games(ctx, club.GameFilter{}); len(all) != 1 {
		t.Errorf("%d games after two failed imports, want 1", len(all))
	}
}

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"tournaments", tournaments})
}

// tournaments: participants, a stage's schedule, judges, games in their slots (one game per slot), protests
// decided once, approvals.
func tournaments(t *testing.T, s club.Store) {
	ctx := context.Background()
	chief := NewHost(t, s, "chief")
	tour := &club.Tournament{Name: "Cup", StartsOn: "2027-03-13", EndsOn: "2027-03-14", Place: "Hall", Rules: "fiim-xcraft",
		ChiefJudge: chief.ID, CreatedBy: chief.ID, LotSeed: 42}
	must(t, s.CreateTournament(ctx, tour))
	got, err := s.Tournament(ctx, tour.ID)
	must(t, err)
	if got.Name != "Cup" || got.ChiefName != "chief" || got.LotSeed != 42 {
		t.Errorf("tournament: %+v", got)
	}
	var ids []int64
	for i := 0; i < 10; i++ {
		p := &club.Participant{TournamentID: tour.ID, Name: fmt.Sprintf("P%d", i), Approved: i != 9}
		must(t, s.AddParticipant(ctx, p))
		ids = append(ids, p.ID)
	}
	wantCode(t, s.AddParticipant(ctx, &club.Participant{TournamentID: tour.ID, Name: "P1"}), club.Conflict)
	must(t, s.ApproveParticipant(ctx, ids[9]))
	parts, _ := s.Participants(ctx, tour.ID)
	if len(parts) != 10 || !parts[9].Approved {
		t.Errorf("participants: %+v", parts)
	}
	stage := &club.Stage{TournamentID: tour.ID, Name: "Q", Rounds: 1, PerTable: 10, Seed: 7, Schedule: [][][]int64{{ids}}}
	must(t, s.CreateStage(ctx, stage))
	swapped := [][][]int64{{append([]int64{ids[1], ids[0]}, ids[2:]...)}}
	must(t, s.SetSchedule(ctx, stage.ID, 7, swapped, [][]int64{{}}))
	back, _ := s.Stage(ctx, stage.ID)
	if back.Tables() != 1 || back.Schedule[0][0][0] != ids[1] {
		t.Errorf("schedule: %+v", back.Schedule)
	}
	must(t, s.SetTableJudge(ctx, stage.ID, 1, chief.ID))
	must(t, s.SetTableJudge(ctx, stage.ID, 1, chief.ID))
	if js, _ := s.TableJudges(ctx, stage.ID); len(js) != 1 || js[0].Name != "chief" {
		t.Errorf("judges: %+v", js)
	}
	g := &club.Game{Rules: "fiim-xcraft", Seats: tenSeats(), HostID: chief.ID, StageID: stage.ID, Round: 1, TableNo: 1}
	must(t, s.CreateGame(ctx, g))
	wantCode(t, s.CreateGame(ctx, &club.Game{Rules: "fiim-xcraft", Seats: tenSeats(), HostID: chief.ID, StageID: stage.ID, Round: 1, TableNo: 1}), club.Conflict)
	if list, _ := s.Games(ctx, club.GameFilter{StageID: stage.ID}); len(list) != 1 || list[0].Round != 1 || list[0].TableNo != 1 {
		t.Errorf("stage games: %+v", list)
	}
	p := &club.StoredProtest{GameID: g.ID, ParticipantID: ids[0], Matter: "result", Text: "x", At: time.Now()}
	must(t, s.FileProtest(ctx, p))
	p.DecidedBy, p.DecidedAt, p.Reason = chief.ID, time.Now(), "no"
	must(t, s.DecideProtest(ctx, p))
	wantCode(t, s.DecideProtest(ctx, p), club.Conflict)
	if list, _ := s.Protests(ctx, g.ID); len(list) != 1 || !list[0].Decided || list[0].DecidedByName != "chief" || list[0].Name != "P0" {
		t.Errorf("protests: %+v", list)
	}
	if ok, _ := s.ExtraApproved(ctx, g.ID, 3); ok {
		t.Error("approved before the approval")
	}
	must(t, s.ApproveExtra(ctx, g.ID, 3, chief.ID, time.Now()))
	must(t, s.ApproveExtra(ctx, g.ID, 3, chief.ID, time.Now()))
	if ok, _ := s.ExtraApproved(ctx, g.ID, 3); !ok {
		t.Error("the approval is lost")
	}
}
