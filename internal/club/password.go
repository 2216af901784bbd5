package club

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"
	"sync/atomic"

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
// the server's memory with them. At most HashSlots hashes run at once and at most HashQueue more wait for a slot;
// a request beyond that is refused at once as ErrBusy, which costs nothing. The peak of the hashing is so
// HashSlots x 64 MiB, whatever the flood.
const (
	HashSlots = 2
	HashQueue = 30
)

var (
	hashSlots   = make(chan struct{}, HashSlots)
	hashWaiting atomic.Int32
)

// ErrBusy refuses a password check or hash when HashSlots run and HashQueue wait already.
var ErrBusy = &Error{Code: Busy, Message: "the server is busy checking passwords; try again in a moment"}

// withHashSlot runs f when a hashing slot is free, or refuses with ErrBusy when too many wait.
func withHashSlot(f func()) error {
	if hashWaiting.Add(1) > HashQueue+HashSlots {
		hashWaiting.Add(-1)
		return ErrBusy
	}
	defer hashWaiting.Add(-1)
	hashSlots <- struct{}{}
	defer func() { <-hashSlots }()
	f()
	return nil
}

// HashPassword returns the argon2id hash of password in the PHC string format.
func HashPassword(password string) (string, error) {
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
	if err := withHashSlot(func() { key = argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen) }); err != nil {
		return "", err
	}
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// CheckPassword reports whether password matches the PHC hash, in constant time. It waits for a hashing slot, and
// answers ErrBusy when too many checks wait already.
func CheckPassword(hash, password string) (bool, error) {
	var ok bool
	tooLong := len(password) > MaxPasswordLength // no stored password is longer; still hashed, to take as long
	if tooLong {
		password = password[:MaxPasswordLength]
	}
	err := withHashSlot(func() { ok = checkPassword(hash, password) })
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
