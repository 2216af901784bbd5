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

// TestSeatedChiefDoesNotApproveExtraByHTTP: a chief judge who plays at a table of his own tournament posts his
// agreement to a winner's 0.6 in that game: refused, in his language, and nothing recorded; the organiser agrees in
// his place.
func TestSeatedChiefDoesNotApproveExtraByHTTP(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	admin := h.login("admin", "demo-admin") // the organiser
	judge := h.login("host", "demo-host")   // the table's judge
	hostUser, _ := h.store.UserByLogin(ctx, "host")
	hash, _ := club.HashPassword("password-chief")
	chiefUser := &club.User{Login: "chief", Name: "chief", Role: club.RoleHost, PasswordHash: hash, Status: club.StatusActive}
	if err := h.store.CreateMember(ctx, chiefUser, &club.Player{Nick: "Arbiter"}); err != nil {
		t.Fatal(err)
	}
	chief := h.login("chief", "password-chief")
	r := h.post(admin, "/tournaments", url.Values{"name": {"Spring Cup"}, "from": {"2027-03-13"}, "to": {"2027-03-14"}, "place": {"Hall"},
		"rules": {"fiim-xcraft"}, "chief": {strconv.FormatInt(chiefUser.ID, 10)}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d %s", r.StatusCode, errorOf(r.Body))
	}
	tour := r.Header.Get("Location")
	for _, n := range []string{"Arbiter", "Joker", "Bohdana", "Cyborg", "Dana", "Emil", "Fantom", "Halyna", "Iris", "Guest Ten"} {
		if r := h.post(admin, tour+"/participants", url.Values{"name": {n}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("add %s: %d %s", n, r.StatusCode, errorOf(r.Body))
		}
	}
	if r := h.post(admin, tour+"/stages", url.Values{"name": {"Qualifying"}, "rounds": {"1"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("stage: %d %s", r.StatusCode, errorOf(r.Body))
	}
	tid, _ := strconv.ParseInt(strings.TrimPrefix(tour, "/tournaments/"), 10, 64)
	stages, _ := h.store.Stages(ctx, tid)
	st := strconv.FormatInt(stages[0].ID, 10)
	if r := h.post(admin, tour+"/judge", url.Values{"stage": {st}, "table": {"1"}, "user": {strconv.FormatInt(hostUser.ID, 10)}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("judge: %d %s", r.StatusCode, errorOf(r.Body))
	}
	r = h.post(judge, tour+"/start", url.Values{"stage": {st}, "round": {"1"}, "table": {"1"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("start: %d %s", r.StatusCode, errorOf(r.Body))
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(r.Header.Get("Location"), "/games/"), 10, 64)
	approve := fmt.Sprintf("/games/%d/approve-extra", id)
	if r := h.post(chief, approve, url.Values{"seat": {"1"}}); r.StatusCode != http.StatusForbidden ||
		!strings.Contains(errorOf(r.Body), "ви граєте за цим столом: додаткові бали цієї гри замість вас погоджує організатор турніру") {
		t.Errorf("the seated chief judge agrees to his table's extra points: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(judge, approve, url.Values{"seat": {"1"}}); r.StatusCode != http.StatusForbidden {
		t.Errorf("the table's judge agrees to his own extra points: %d", r.StatusCode)
	}
	if ok, _ := h.store.ExtraApproved(ctx, id, 1); ok {
		t.Fatal("a refused agreement was recorded")
	}
	if r := h.post(admin, approve, url.Values{"seat": {"1"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the organiser agrees in the chief judge's place: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if ok, _ := h.store.ExtraApproved(ctx, id, 1); !ok {
		t.Error("the organiser's agreement was not recorded")
	}
}
