package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// newNight makes a club night through the admin's form and returns its path.
func (h *harness) newNight(admin *http.Client, date, at string, tables, perTable int) string {
	h.t.Helper()
	r := h.post(admin, "/nights", url.Values{"date": {date}, "time": {at}, "place": {"Café"}, "tables": {strconv.Itoa(tables)}, "per_table": {strconv.Itoa(perTable)}})
	if r.StatusCode != http.StatusSeeOther {
		h.t.Fatalf("new night: %d %s", r.StatusCode, errorOf(r.Body))
	}
	return r.Header.Get("Location")
}

// dueMail lists the subjects of the mails waiting in the outbox for address.
func (h *harness) dueMail(address string) []string {
	h.t.Helper()
	mails, err := h.site.Services().Notices.DueMail(context.Background(), 100)
	if err != nil {
		h.t.Fatal(err)
	}
	var out []string
	for _, m := range mails {
		if m.Address == address {
			subject, _ := h.site.MailText(m)
			out = append(out, subject)
		}
	}
	return out
}

// Issue 25, item 5: every change of a member's place tells him. Low priority moves him from a main line-up to the
// reserve, an exclusion takes him off it: each says so in his inbox and by e-mail, as fewer places on a night do,
// and the new status itself is told.
func TestStatusChangeTellsTheMember(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")
	path := h.newNight(admin, "2026-12-10", "19:00", 1, 10)
	low, lowUser := h.member("lowly")
	gone, goneUser := h.member("goner")
	for _, c := range []*http.Client{low, gone} {
		if r := h.post(c, path+"/register", nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("register: %d %s", r.StatusCode, errorOf(r.Body))
		}
		h.post(c, "/me/email", url.Values{"email": {"x@example.org"}})
	}
	h.post(gone, "/me/email", url.Values{"email": {"goner@example.org"}})
	h.post(low, "/me/email", url.Values{"email": {"lowly@example.org"}})
	for who, to := range map[*club.User]string{lowUser: "low_priority", goneUser: "excluded"} {
		if r := h.post(admin, fmt.Sprintf("/admin/members/%d", who.ID), url.Values{"field": {"status"}, "to": {to}, "reason": {"test"}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("status %s: %d %s", to, r.StatusCode, errorOf(r.Body))
		}
	}
	inbox := h.get(low, "/me/notices").Body
	for _, want := range []string{"You are in the reserve now", "You are on low priority now, so for the club night of 2026-12-10 19:00 (Café) you are in the reserve",
		"Your status in the club has changed", "You are on low priority now: you register for club nights in the reserve only."} {
		if !strings.Contains(inbox, want) {
			t.Errorf("the low-priority member's inbox lacks %q", want)
		}
	}
	if mail := h.dueMail("lowly@example.org"); len(mail) != 2 {
		t.Errorf("the low-priority member's mail: %q, want his move and his status", mail)
	}
	if page := h.get(low, "/me").Body; !strings.Contains(page, "You are in the reserve") {
		t.Errorf("his page does not say he is in the reserve")
	}
	// the excluded member's notices (his inbox) and his mail
	notices, err := h.store.Notices(context.Background(), goneUser.ID, 10)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, n := range notices {
		kinds[string(n.Kind)] = true
	}
	if !kinds["removed"] || !kinds["status"] {
		t.Errorf("the excluded member's notices: %v, want removed and status", kinds)
	}
	if mail := h.dueMail("goner@example.org"); len(mail) != 2 || !strings.Contains(strings.Join(mail, "|"), "Your registration for a club night is taken off") {
		t.Errorf("the excluded member's mail: %q", mail)
	}
	// back to active: told too
	h.post(admin, fmt.Sprintf("/admin/members/%d", lowUser.ID), url.Values{"field": {"status"}, "to": {"active"}, "reason": {"ok"}})
	if inbox := h.get(low, "/me/notices").Body; !strings.Contains(inbox, "You are an active member of the club") {
		t.Error("the member is not told he is active again")
	}
}

// A called-off night says so wherever it is listed: the calendar feed (STATUS:CANCELLED, under the same UID), the
// JSON of the nights, and the member's own page (not "you are in the reserve").
func TestCalledOffNightSaysSo(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")
	off := h.newNight(admin, "2026-12-10", "19:00", 1, 7)
	kept := h.newNight(admin, "2026-12-17", "19:00", 1, 7)
	var c *http.Client
	for i := 0; i < 8; i++ { // the eighth is in the reserve
		c, _ = h.member(fmt.Sprintf("m%d", i))
		h.post(c, off+"/register", nil)
	}
	if r := h.post(admin, off+"/call-off", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("call off: %d", r.StatusCode)
	}
	offID, keptID := strings.TrimPrefix(off, "/nights/"), strings.TrimPrefix(kept, "/nights/")
	ics := h.get(h.client(), "/nights.ics").Body
	events := strings.Split(ics, "BEGIN:VEVENT")
	found := 0
	for _, ev := range events[1:] {
		switch {
		case strings.Contains(ev, "UID:night-"+offID+"@"):
			found++
			if !strings.Contains(ev, "STATUS:CANCELLED\r\n") || !strings.Contains(ev, "SEQUENCE:1\r\n") {
				t.Errorf("the called-off night's event: %q", ev)
			}
		case strings.Contains(ev, "UID:night-"+keptID+"@"):
			found++
			if !strings.Contains(ev, "STATUS:CONFIRMED\r\n") {
				t.Errorf("the night that takes place: %q", ev)
			}
		}
	}
	if found != 2 {
		t.Errorf("%d of the two nights in the feed:\n%s", found, ics)
	}
	var list []map[string]any
	if err := json.Unmarshal([]byte(h.get(h.client(), "/api/nights").Body), &list); err != nil {
		t.Fatal(err)
	}
	for _, n := range list {
		id := fmt.Sprint(n["id"])
		if want := id == offID; n["cancelled"] != want {
			t.Errorf("night %s: cancelled %v, want %v", id, n["cancelled"], want)
		}
		if id == offID && n["cancelled_at"] == nil {
			t.Errorf("night %s has no cancelled_at", id)
		}
	}
	page := h.get(c, "/me").Body
	if strings.Contains(page, "You are in the reserve") || !strings.Contains(page, "the night is called off") {
		t.Errorf("the member's page for a called-off night: %s", page)
	}
}

// A notice of a changed night says the night as that change left it: after a second change, the first notice still
// says its own time (it said the night's current time before).
func TestNightChangeNoticeKeepsItsNight(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")
	path := h.newNight(admin, "2026-12-10", "19:00", 1, 10)
	c, _ := h.member("watcher")
	h.post(c, path+"/register", nil)
	for _, at := range []string{"19:30", "20:00"} {
		clk.t = clk.t.Add(time.Hour)
		if r := h.post(admin, path+"/edit", url.Values{"date": {"2026-12-10"}, "time": {at}, "place": {"Café"}, "tables": {"1"}, "per_table": {"10"}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("edit: %d %s", r.StatusCode, errorOf(r.Body))
		}
	}
	inbox := h.get(c, "/me/notices").Body
	for _, want := range []string{"2026-12-10 19:30, Café", "It was to begin at 2026-12-10 19:00", "2026-12-10 20:00, Café", "It was to begin at 2026-12-10 19:30"} {
		if !strings.Contains(inbox, want) {
			t.Errorf("the inbox lacks %q", want)
		}
	}
}

// Registering twice says so (it said "someone else changed this game"); a night a hundred years ahead is refused
// (it was accepted and never listed); a reminder e-mail not yet sent is not sent once the member has cancelled.
func TestNightRefusalsAndReminders(t *testing.T) {
	h := newHarness(t)
	clk := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h.site.Services().Clock.Set(clk.now)
	admin := h.login("admin", "demo-admin")
	path := h.newNight(admin, "2026-12-02", "19:00", 1, 10)
	c, _ := h.member("twice")
	h.post(c, path+"/register", nil)
	r := h.post(c, path+"/register", nil)
	if msg := errorOf(r.Body); r.StatusCode != http.StatusConflict || !strings.Contains(msg, "you are registered for this night already") || strings.Contains(msg, "game") {
		t.Errorf("registering twice: %d %q", r.StatusCode, msg)
	}
	for _, date := range []string{"2126-12-10", "2028-01-10"} {
		r := h.post(admin, "/nights", url.Values{"date": {date}, "time": {"19:00"}, "place": {"Café"}, "tables": {"1"}, "per_table": {"10"}})
		if r.StatusCode != http.StatusBadRequest || !strings.Contains(errorOf(r.Body), "щонайбільше на рік наперед") {
			t.Errorf("a night on %s: %d %q", date, r.StatusCode, errorOf(r.Body))
		}
	}
	h.newNight(admin, "2027-11-30", "19:00", 1, 10) // within a year: accepted, and listed
	if page := h.get(h.client(), "/api/nights").Body; !strings.Contains(page, "2027-11-30T19:00") {
		t.Error("a night eleven months ahead is not listed")
	}
	h.post(c, "/me/email", url.Values{"email": {"twice@example.org"}})
	clk.t = time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC) // 10:00 in Edmonton, the day before
	if n, err := h.site.Services().Notices.Remind(context.Background()); err != nil || n == 0 {
		t.Fatalf("reminders: %d %v", n, err)
	}
	if mail := h.dueMail("twice@example.org"); len(mail) != 1 {
		t.Fatalf("the reminder's mail: %q", mail)
	}
	if r := h.post(c, path+"/cancel", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("cancel: %d %s", r.StatusCode, errorOf(r.Body))
	}
	if mail := h.dueMail("twice@example.org"); len(mail) != 0 {
		t.Errorf("after the cancellation the outbox still has %q", mail)
	}
}
