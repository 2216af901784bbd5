package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"mafiaclub/internal/club"
)

// The members' change log says each change in the reader's language: the field and its values in words, never
// their codes ("status: pending → active"), and a guest's seats linked to the member with their count.
func TestMemberLogInWords(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	admin := h.login("admin", "demo-admin")
	hash, _ := club.HashPassword("password-olena")
	u := &club.User{Login: "olena", Name: "Olena", Role: club.RoleMember, PasswordHash: hash, Status: club.StatusPending}
	if err := h.store.CreateMember(ctx, u, &club.Player{Nick: "Olena"}); err != nil {
		t.Fatal(err)
	}
	host := h.login("host", "demo-host")
	h.playToRedWin(host, []string{"Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Jarvis", "Visitor"})
	member := fmt.Sprintf("/admin/members/%d", u.ID)
	for _, f := range []url.Values{
		{"field": {"status"}, "to": {"active"}, "reason": {"known"}},
		{"field": {"role"}, "to": {"host"}, "reason": {"runs tables"}},
	} {
		if r := h.post(admin, member, f); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("%v: %d %s", f, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(admin, "/admin/link-guest", url.Values{"guest": {"Visitor"}, "user": {strconv.FormatInt(u.ID, 10)}, "reason": {"same man"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("link: %d %s", r.StatusCode, errorOf(r.Body))
	}
	for lang, want := range map[string][]string{
		"uk": {"статус: очікує підтвердження → активний · known", "роль: учасник → ведучий · runs tables", "1 місце гостя «Visitor» зараховано учасникові · same man"},
		"en": {"status: waiting for approval → active · known", "role: member → host · runs tables", "1 seat of the guest «Visitor» linked to the member · same man"},
		"ru": {"статус: ждёт подтверждения → активный · known", "роль: участник → ведущий · runs tables", "1 место гостя «Visitor» засчитано участнику · same man"},
	} {
		page := h.langGet(admin, lang, fmt.Sprintf("/admin/members?log=%d", u.ID)).Body
		log := page[strings.Index(page, `id="member-log"`):]
		for _, w := range want {
			if !strings.Contains(log, w) {
				t.Errorf("%s: the log does not say %q:\n%s", lang, w, log)
			}
		}
		for _, code := range []string{"pending", "→ active", "member →", "linked:", "seats"} {
			if lang != "en" && strings.Contains(log, code) {
				t.Errorf("%s: the log says %q", lang, code)
			}
		}
	}
}
