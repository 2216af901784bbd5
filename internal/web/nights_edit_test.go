package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// member adds an approved member with a nickname and returns a logged-in client for him.
func (h *harness) member(login string) (*http.Client, *club.User) {
	h.t.Helper()
	hash, _ := club.HashPassword("password-" + login)
	u := &club.User{Login: login, Name: login, Role: club.RoleMember, PasswordHash: hash, Status: club.StatusActive, Lang: "en"}
	if err := h.store.CreateMember(context.Background(), u, &club.Player{Nick: "Nick-" + login}); err != nil {
		h.t.Fatal(err)
	}
	return h.login(login, "password-"+login), u
}

// An admin changes a night's tables and note, then cancels it (the page asks first); the members registered see
// the unread count in the menu and the notices in their inbox, in their language; a member sets his e-mail.
func TestNightEditAndInbox(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")
	r := h.post(admin, "/nights", url.Values{"date": {"2026-12-10"}, "time": {"19:00"}, "place": {"Café"}, "tables": {"1"}, "per_table": {"8"},
		"note": {"bring a pen"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("new night: %d %s", r.StatusCode, errorOf(r.Body))
	}
	path := r.Header.Get("Location")
	id, _ := strconv.ParseInt(strings.TrimPrefix(path, "/nights/"), 10, 64)
	var clients []*http.Client
	for i := 0; i < 9; i++ {
		c, _ := h.member(fmt.Sprintf("mem%d", i))
		if r := h.post(c, path+"/register", nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("register: %d", r.StatusCode)
		}
		clients = append(clients, c)
	}
	if page := h.get(clients[0], path).Body; !strings.Contains(page, "bring a pen") || strings.Contains(page, `id="edit-night"`) {
		t.Error("a member's night page: no note, or the admin's edit link")
	}
	page := h.get(admin, path).Body
	if !strings.Contains(page, `href="/nights/`+strconv.FormatInt(id, 10)+`/edit"`) || !strings.Contains(page, `data-confirm="Скасувати цей клубний вечір?`) {
		t.Error("the admin's night page lacks the edit link or the cancellation's confirmation")
	}
	if form := h.get(admin, path+"/edit").Body; !strings.Contains(form, `value="2026-12-10"`) || !strings.Contains(form, ">bring a pen</textarea>") {
		t.Error("the edit form is not filled with the night")
	}
	// 8 places → 7: mem7 (the last of the main line-up) goes to the reserve; a bad form says why
	if r := h.post(admin, path+"/edit", url.Values{"date": {"2026-12-10"}, "time": {"19:00"}, "place": {"Café"}, "tables": {"1"}, "per_table": {"6"}}); r.StatusCode != http.StatusBadRequest ||
		!strings.Contains(errorOf(r.Body), "від 7 до 10") {
		t.Errorf("6 per table: %d %q", r.StatusCode, errorOf(r.Body))
	}
	r = h.post(admin, path+"/edit", url.Values{"date": {"2026-12-10"}, "time": {"20:00"}, "place": {"Café"}, "tables": {"1"}, "per_table": {"7"}, "note": {"room 2"}})
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if page := h.get(clients[7], "/nights").Body; !strings.Contains(page, `<span class="badge" id="unread">1</span>`) {
		t.Error("mem7 sees no unread notice in the menu")
	}
	inbox := h.get(clients[7], "/me/notices").Body
	if !strings.Contains(inbox, "You are in the reserve now") || !strings.Contains(inbox, "2026-12-10 20:00") || !strings.Contains(inbox, "Note: room 2") {
		t.Errorf("mem7's inbox: %s", inbox)
	}
	if inbox := h.get(clients[0], "/me/notices").Body; !strings.Contains(inbox, "A club night you registered for has changed") || !strings.Contains(inbox, "It was to begin at 2026-12-10 19:00") {
		t.Error("mem0's inbox lacks the change")
	}
	h.post(clients[7], "/me/notices/read", nil)
	if page := h.get(clients[7], "/nights").Body; strings.Contains(page, `id="unread"`) {
		t.Error("the unread count stays after reading")
	}
	// e-mail settings
	if r := h.post(clients[0], "/me/email", url.Values{"email": {"not an address"}}); r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "name@example.org") {
		t.Errorf("a bad address: %d %q", r.StatusCode, errorOf(r.Body))
	}
	if r := h.post(clients[0], "/me/email", url.Values{"email": {"mem0@example.org"}, "email_off": {"yes"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the address: %d", r.StatusCode)
	}
	if inbox := h.get(clients[0], "/me/notices").Body; !strings.Contains(inbox, `value="mem0@example.org"`) || !strings.Contains(inbox, `value="yes" checked`) {
		t.Error("the e-mail settings are not kept")
	}
	// a member cannot edit or cancel; the admin cancels
	if r := h.post(clients[0], path+"/call-off", nil); r.StatusCode != http.StatusForbidden {
		t.Errorf("a member cancels the night: %d", r.StatusCode)
	}
	if r := h.post(admin, path+"/call-off", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if page := h.get(clients[1], path).Body; !strings.Contains(page, `id="night-cancelled"`) || strings.Contains(page, `/register"`) {
		t.Error("the cancelled night's page offers registration or does not say it is cancelled")
	}
	if inbox := h.get(clients[8], "/me/notices").Body; !strings.Contains(inbox, "A club night is cancelled") {
		t.Error("mem8 was not told of the cancellation")
	}
	if r := h.post(admin, path+"/call-off", nil); r.StatusCode == http.StatusSeeOther {
		t.Error("a night was cancelled twice")
	}
}

// The strikes report: a member with strikes at or above the club's rule gets the suggestion (a form the admin may
// send, with its confirmation); with a stricter rule he does not.
func TestStrikesReport(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	ctx := context.Background()
	svc := h.site.Services()
	adminUser, _ := h.store.UserByLogin(ctx, "admin")
	admin := h.login("admin", "demo-admin")
	_, late := h.member("latecomer")
	for i := 0; i < 3; i++ {
		n, err := svc.Nights.Create(ctx, adminUser, club.NightForm{StartsAt: clk.t.Add(48 * time.Hour), Place: "Café", Tables: 1, PerTable: 10})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Nights.Register(ctx, late, n.ID); err != nil {
			t.Fatal(err)
		}
		clk.t = clk.t.Add(47 * time.Hour) // the night's day: a late cancellation
		if _, err := svc.Nights.Cancel(ctx, late, n.ID); err != nil {
			t.Fatal(err)
		}
		clk.t = clk.t.Add(7 * 24 * time.Hour)
	}
	page := h.get(admin, "/admin/strikes").Body
	row := fmt.Sprintf(`<tr data-user="%d" class="suggest">`, late.ID)
	if !strings.Contains(page, row) || !strings.Contains(page, `<td>Nick-latecomer</td><td>активний</td><td>3</td><td>0</td><td>3</td>`) ||
		!strings.Contains(page, `name="to" value="low_priority"`) || !strings.Contains(page, `data-confirm="Встановити Nick-latecomer низький пріоритет?"`) {
		t.Errorf("the report: %s", page)
	}
	if r := h.post(admin, "/admin/strikes/rule", url.Values{"strikes": {"0"}, "weeks": {"4"}}); r.StatusCode != http.StatusBadRequest {
		t.Errorf("a rule of 0 strikes: %d", r.StatusCode)
	}
	if r := h.post(admin, "/admin/strikes/rule", url.Values{"strikes": {"4"}, "weeks": {"8"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the rule: %d", r.StatusCode)
	}
	if page := h.get(admin, "/admin/strikes").Body; strings.Contains(page, `class="suggest"`) || !strings.Contains(page, "4 порушення за 8 тижнів") {
		t.Error("a stricter rule still suggests, or is not shown")
	}
	// a period without the strikes
	if page := h.get(admin, "/admin/strikes?from=2026-01-01&to=2026-02-01").Body; strings.Contains(page, "Nick-latecomer") {
		t.Error("the report counts strikes outside its period")
	}
	if r := h.get(h.client(), "/admin/strikes"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("the public reaches the report: %d", r.StatusCode)
	}
}
