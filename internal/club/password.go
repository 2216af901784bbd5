package club

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters (RFC 9106's second recommended option, with 64 MiB of memory).
const (
	argonTime    = 3
	argonMemory  = 64 * 1024
	argonThreads = 2
	argonKeyLen  = 32
)

// MinPasswordLength is the shortest password an account may have.
const MinPasswordLength = 8

// MaxPasswordLength bounds a password (in bytes): nobody needs more, and hashing a megabyte is work for nothing.
const MaxPasswordLength = 256

// Every argon2id hash takes argonMemory (64 MiB) while it runs, so an unbounded number of logins at once would take
// the server's memory with them. At most HashSlots hashes run at once, in the whole process (every club of an
// installation), and at most HashQueue more wait for a slot; a request beyond that is refused at once as ErrBusy,
// which costs nothing. The peak of the hashing is so HashSlots x 64 MiB, whatever the flood.
//
// The places are shared by the clubs of an installation, so each club (its accounts' logins, sign-ups and password
// changes, and the persons' logins and sign-ups at its forms) holds at most HashShare of them at once, running or
// waiting: a flood at one club's form is refused there once it holds its share, and leaves the other places to the
// other clubs; and a slot that comes free goes to the waiting hash whose club has the fewest running (the earliest
// of those), so that another club's login waits for one hash to end, not for the flood's queue. And a login (or sign-up, or password change) waits at most MaxHashWait for its slots in all, then is
// refused as ErrBusy: with the hashes themselves (two at most, a club's account's and a person's, some 0.1-0.9 s
// each), every one is answered well inside the server's write timeout (60 s), which a client would otherwise see as
// a dropped connection.
const (
	HashSlots   = 2
	HashQueue   = 30
	HashShare   = 4
	MaxHashWait = 10 * time.Second
)

var (
	hashSlots   = hashGate{free: HashSlots}
	hashWaiting atomic.Int32
)

// A hashGate hands the hashing's slots out: at once while one is free and nobody waits, else to the waiting hash
// whose share has the fewest running, the earliest of those.
type hashGate struct {
	mu    sync.Mutex
	free  int
	queue []*hashWaiter
}

type hashWaiter struct {
	share   *hashShare
	ready   chan struct{} // closed when the slot is given
	granted bool
}

// noShare is the share of the hashes that have none (an operator's command, a test).
var noShare = &hashShare{}

// acquire takes a slot for a hash of share, or reports false when ctx ends or wait passes first.
func (g *hashGate) acquire(ctx context.Context, share *hashShare, wait time.Duration) bool {
	g.mu.Lock()
	if g.free > 0 && len(g.queue) == 0 {
		g.free--
		share.running++
		g.mu.Unlock()
		return true
	}
	w := &hashWaiter{share: share, ready: make(chan struct{})}
	g.queue = append(g.queue, w)
	g.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
	case <-timer.C:
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if w.granted { // given as it gave up: it is taken all the same
		return true
	}
	for i, q := range g.queue {
		if q == w {
			g.queue = append(g.queue[:i], g.queue[i+1:]...)
			break
		}
	}
	return false
}

// release gives a slot of share back, to the waiter of the share with the fewest running.
func (g *hashGate) release(share *hashShare) {
	g.mu.Lock()
	defer g.mu.Unlock()
	share.running--
	if len(g.queue) == 0 {
		g.free++
		return
	}
	best := 0
	for i, w := range g.queue {
		if w.share.running < g.queue[best].share.running {
			best = i
		}
	}
	w := g.queue[best]
	g.queue = append(g.queue[:best], g.queue[best+1:]...)
	w.granted = true
	w.share.running++
	close(w.ready)
}

// ErrBusy refuses a password check or hash when HashSlots run and HashQueue wait already, when the club's
// HashShare is taken, or when it waited MaxHashWait for a slot.
var ErrBusy = &Error{Code: Busy, Message: "the server is busy checking passwords; try again in a moment"}

// A hashShare is one club's places among the hashing's (HashShare): how many of its hashes run or wait, and how
// many run (hashGate's, under its lock).
type hashShare struct {
	n       atomic.Int32
	running int
}

// A hashBudget is what one login (or sign-up, or password change) may take of the hashing: places in its club's
// share, and slots until a time (MaxHashWait after it began), for all its hashes, a club's account's and a
// person's. It rides in the context, so that a person's login at a club's form counts in that club's share and
// in the login's one wait; only the hashing reads it, never the stores, so a login that waited long for its slots
// is still saved.
type hashBudget struct {
	share *hashShare
	until time.Time
}

type hashBudgetKey struct{}

// withHashBudget is ctx carrying a budget in share that ends MaxHashWait from now; a ctx that carries one
// already keeps it (the login's person's check is part of its club's login).
func withHashBudget(ctx context.Context, share *hashShare) context.Context {
	if _, ok := ctx.Value(hashBudgetKey{}).(hashBudget); ok {
		return ctx
	}
	return context.WithValue(ctx, hashBudgetKey{}, hashBudget{share: share, until: time.Now().Add(MaxHashWait)})
}

// hashBudgetOf is the budget ctx carries: none, no share and MaxHashWait for each hash, when it carries none.
func hashBudgetOf(ctx context.Context) hashBudget {
	b, _ := ctx.Value(hashBudgetKey{}).(hashBudget)
	return b
}

// withHashSlot runs f when a hashing slot is free, or refuses with ErrBusy: at once when the budget's share holds
// HashShare places or too many wait in all, or when ctx ends (the client is gone) or the budget's time (at most
// MaxHashWait) passes before a slot is free.
func withHashSlot(ctx context.Context, f func()) error {
	b := hashBudgetOf(ctx)
	share := noShare
	if b.share != nil {
		share = b.share
		if share.n.Add(1) > HashShare {
			share.n.Add(-1)
			return ErrBusy
		}
		defer share.n.Add(-1)
	}
	if hashWaiting.Add(1) > HashQueue+HashSlots {
		hashWaiting.Add(-1)
		return ErrBusy
	}
	defer hashWaiting.Add(-1)
	wait := MaxHashWait
	if !b.until.IsZero() {
		wait = min(wait, time.Until(b.until))
	}
	if wait <= 0 || ctx.Err() != nil {
		return ErrBusy
	}
	if !hashSlots.acquire(ctx, share, wait) {
		return ErrBusy
	}
	defer hashSlots.release(share)
	f()
	return nil
}

// HashPassword returns the argon2id hash of password in the PHC string format.
func HashPassword(password string) (string, error) {
	return hashPassword(context.Background(), password)
}

// hashPassword is HashPassword within ctx's hashBudget.
func hashPassword(ctx context.Context, password string) (string, error) {
	if len(password) < MinPasswordLength {
		return "", Errorf(Invalid, "a password needs at least %d characters", MinPasswordLength)
	}
	if len(password) > MaxPasswordLength {
		return "", Errorf(Invalid, "a password has at most %d characters", MaxPasswordLength)
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	var key []byte
	if err := withHashSlot(ctx, func() { key = argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen) }); err != nil {
		return "", err
	}
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether password matches the PHC hash, in constant time. It waits for a hashing slot, and
// answers ErrBusy when too many checks wait already.
func CheckPassword(hash, password string) (bool, error) {
	return checkPasswordIn(context.Background(), hash, password)
}

// checkPasswordIn is CheckPassword within ctx's hashBudget.
func checkPasswordIn(ctx context.Context, hash, password string) (bool, error) {
	var ok bool
	tooLong := len(password) > MaxPasswordLength // no stored password is longer; still hashed, to take as long
	if tooLong {
		password = password[:MaxPasswordLength]
	}
	err := withHashSlot(ctx, func() { ok = checkPassword(hash, password) })
	return ok && !tooLong, err
}

func checkPassword(hash, password string) bool {
	parts := strings.Split(hash, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var mem, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &t, &p); err != nil {
		return false
	}
	if mem > argonMemory || t > 2*argonTime || p == 0 || p > 4*argonThreads { // a stored hash never asks for more
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, t, mem, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}
