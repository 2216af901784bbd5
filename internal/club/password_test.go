package club

import (
	"strings"
	"testing"
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
