package club

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestPassword(t *testing.T) {
	h, err := HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=65536,t=3,p=2$") {
		t.Errorf("hash %q is not argon2id in PHC form", h)
	}
	check := func(hash, pw string) bool {
		ok, err := CheckPassword(hash, pw)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !check(h, "correct horse") {
		t.Error("the right password is refused")
	}
	if check(h, "correct horsE") || check(h, "") || check("garbage", "correct horse") {
		t.Error("a wrong password is accepted")
	}
	if check(h, "correct horse"+strings.Repeat("x", MaxPasswordLength)) {
		t.Error("a password longer than any stored one is accepted")
	}
	h2, _ := HashPassword("correct horse")
	if h2 == h {
		t.Error("two hashes of one password are equal: no salt")
	}
	if _, err := HashPassword("short"); ErrorCode(err) != Invalid {
		t.Errorf("a short password: got %v, want invalid", err)
	}
}

// TestHashingShares: while every hashing slot is taken, a club's logins wait at most their budget (MaxHashWait
// from the login's start, for all its hashes) and are then refused as busy, never longer; a club holds at most
// HashShare places, the rest are refused at once, and another club's login still gets a place, and the second slot
// that comes free, before club a's other waiting checks: a's club has one running then, b's none.
func TestHashingShares(t *testing.T) {
	for range HashSlots { // the slots are taken by hashes that do not end until the test lets them
		if !hashSlots.acquire(context.Background(), noShare, time.Second) {
			t.Fatal("no free slot")
		}
	}
	freed := false
	free := func() {
		if !freed {
			freed = true
			for range HashSlots {
				hashSlots.release(noShare)
			}
		}
	}
	defer free()

	// a login whose budget is nearly spent waits what is left of it
	var a, b Accounts
	ctx := withHashBudget(context.Background(), &a.hashes)
	budget := hashBudgetOf(ctx)
	budget.until = time.Now().Add(200 * time.Millisecond)
	short := context.WithValue(context.Background(), hashBudgetKey{}, budget)
	start := time.Now()
	if _, err := checkPasswordIn(short, dummyHash, "password"); err != ErrBusy {
		t.Fatalf("a check while the slots are taken: %v, want busy", err)
	}
	if waited := time.Since(start); waited < 150*time.Millisecond || waited > 2*time.Second {
		t.Errorf("it waited %v, want its budget's 200 ms", waited)
	}
	if hashBudgetOf(withHashBudget(short, &b.hashes)) != budget {
		t.Error("a person's check within a club's login has a budget of its own")
	}

	// club a's flood: HashShare of its checks wait, the rest are refused at once
	done := make(chan error, 3*HashShare)
	for range 3 * HashShare {
		go func() {
			_, err := checkPasswordIn(withHashBudget(context.Background(), &a.hashes), dummyHash, "password")
			done <- err
		}()
	}
	refused := 0
	for range 2 * HashShare {
		select {
		case err := <-done:
			if err != ErrBusy {
				t.Fatalf("a check over the club's share: %v, want busy", err)
			}
			refused++
		case <-time.After(MaxHashWait / 2):
			t.Fatalf("only %d of club a's checks over its share were refused at once", refused)
		}
	}
	if n := a.hashes.n.Load(); n != HashShare {
		t.Errorf("club a holds %d places, want %d", n, HashShare)
	}
	// club b's login gets a place, and the second slot to come free
	bdone := make(chan error, 1)
	go func() {
		_, err := checkPasswordIn(withHashBudget(context.Background(), &b.hashes), dummyHash, "password")
		bdone <- err
	}()
	time.Sleep(50 * time.Millisecond)
	free()
	aDone := 0
	for range HashShare + 1 {
		select {
		case err := <-bdone:
			if err != nil {
				t.Errorf("club b's check during a's flood: %v", err)
			}
			if aDone > 1 {
				t.Errorf("club b's check ended after %d of club a's, which waited no longer: want at most the one that had the first slot", aDone)
			}
		case err := <-done:
			if err != nil && err != ErrBusy { // busy: its budget ran out behind the others (a slow machine)
				t.Errorf("a check of club a in its share: %v", err)
			}
			aDone++
		}
	}
}
