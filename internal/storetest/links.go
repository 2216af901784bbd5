package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"one-time account links", accountLinks})
}

// accountLinks: a link is used once, only before it expires, only with the browser's hash it was made with and
// for its purpose; a use with another browser's hash does not use it up; of many uses at once, exactly one wins;
// a new link drops the expired ones. A member's address is confirmed only while it is his.
func accountLinks(t *testing.T, s club.Store) {
	ctx := context.Background()
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	a := member(t, s, "link-a", club.StatusActive)
	b := member(t, s, "link-b", club.StatusActive)
	h := func(s string) []byte { return []byte("hash-" + s + "-padded-to-32-bytes!!")[:32] }
	mk := func(tok, dev string, user int64, at time.Time) {
		t.Helper()
		must(t, s.CreateAccountLink(ctx, club.AccountLink{TokenHash: h(tok), DeviceHash: h(dev), Purpose: club.LinkSignIn, UserID: user,
			CreatedAt: at, Expires: at.Add(15 * time.Minute)}))
	}
	use := func(tok, dev string, p club.LinkPurpose, at time.Time) (int64, error) {
		return s.UseAccountLink(ctx, h(tok), p, h(dev), at)
	}
	mk("t1", "d1", a, now)
	mk("t2", "d2", b, now)
	if _, err := use("t1", "d2", club.LinkSignIn, now); club.ErrorCode(err) != club.NotFound {
		t.Errorf("another browser's use: %v", err)
	}
	if _, err := use("t1", "d1", "reset_password", now); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a use for another purpose: %v", err)
	}
	if _, err := use("t9", "d1", club.LinkSignIn, now); club.ErrorCode(err) != club.NotFound {
		t.Errorf("an unknown token: %v", err)
	}
	if id, err := use("t1", "d1", club.LinkSignIn, now.Add(14*time.Minute)); err != nil || id != a {
		t.Errorf("the asking browser's use: %d %v, want %d (refused uses leave the link)", id, err, a)
	}
	if _, err := use("t1", "d1", club.LinkSignIn, now.Add(14*time.Minute)); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a second use: %v", err)
	}
	if _, err := use("t2", "d2", club.LinkSignIn, now.Add(15*time.Minute)); club.ErrorCode(err) != club.NotFound {
		t.Errorf("a use when it expires: %v", err)
	}

	// of eight uses at once, one wins
	mk("t3", "d3", b, now)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, other := 0, 0
	for range 8 {
		wg.Go(func() {
			_, err := use("t3", "d3", club.LinkSignIn, now)
			mu.Lock()
			defer mu.Unlock()
			switch club.ErrorCode(err) {
			case "":
				wins++
			case club.NotFound:
			default:
				other++
				t.Errorf("a use at once: %v", err)
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Errorf("%d of eight uses at once won, want 1", wins)
	}

	// a link made after others expired (the store drops them then) is kept
	mk("t4", "d4", a, now.Add(20*time.Minute))
	mk("t5", "d5", a, now.Add(20*time.Minute))
	if id, err := use("t4", "d4", club.LinkSignIn, now.Add(21*time.Minute)); err != nil || id != a {
		t.Errorf("a later link: %d %v", id, err)
	}

	// an address is confirmed only while it is the member's: a changed one is not, nor can an old one be
	confirmed := func(want string) {
		t.Helper()
		if got, err := s.ConfirmedEmail(ctx, a); err != nil || got != want {
			t.Errorf("confirmed address %q %v, want %q", got, err, want)
		}
	}
	confirmed("")
	must(t, s.SetEmail(ctx, a, "a@example.org", false))
	confirmed("")
	if err := s.ConfirmEmail(ctx, a, "old@example.org"); club.ErrorCode(err) != club.NotFound {
		t.Errorf("confirming an address that is not the member's: %v", err)
	}
	must(t, s.ConfirmEmail(ctx, a, "a@example.org"))
	confirmed("a@example.org")
	must(t, s.SetEmail(ctx, a, "a@example.org", true)) // e-mail off: still his, still confirmed
	confirmed("a@example.org")
	must(t, s.SetEmail(ctx, a, "a2@example.org", false))
	confirmed("")
	if err := s.ConfirmEmail(ctx, a, "a@example.org"); club.ErrorCode(err) != club.NotFound {
		t.Errorf("confirming the old address: %v", err)
	}
	must(t, s.SetEmail(ctx, a, "a@example.org", false)) // back to the old address: to be confirmed again
	confirmed("")
}
