package storetest

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

func init() {
	extra = append(extra, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"notices and the outbox", notices}, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"night edits and cancellations", nightEdits}, struct {
		name string
		f    func(*testing.T, club.Store)
	}{"strike report and settings", strikeReport})
}

// kinds lists the kinds of a member's notices, oldest first.
func kinds(t *testing.T, s club.Store, userID int64) []club.NoticeKind {
	t.Helper()
	list, err := s.Notices(context.Background(), userID, 100)
	must(t, err)
	var out []club.NoticeKind
	for i := len(list) - 1; i >= 0; i-- {
		out = append(out, list[i].Kind)
	}
	return out
}

// notices: a promotion and a strike each write a notice, and a mail for a member with an address who wants e-mail;
// the outbox gives due mails, puts a failed one off, and forgets a sent one.
func notices(t *testing.T, s club.Store) {
	ctx := context.Background()
	admin := NewHost(t, s, "nadmin")
	start := time.Date(2027, 3, 14, 19, 0, 0, 0, time.UTC)
	n := &club.ClubNight{StartsAt: start, Place: "Café", Tables: 1, PerTable: 7, CreatedBy: admin.ID, Note: "bring cards"}
	must(t, s.CreateNight(ctx, n))
	if got, _ := s.Night(ctx, n.ID); got.Note != "bring cards" || got.IsCancelled() {
		t.Errorf("night %+v", got)
	}
	now := start.Add(-72 * time.Hour)
	var ids []int64
	for i := 0; i < 9; i++ {
		ids = append(ids, member(t, s, fmt.Sprintf("n%d", i), club.StatusActive))
		_, err := s.Register(ctx, n.ID, ids[i], now.Add(time.Duration(i)*time.Minute))
		must(t, err)
	}
	must(t, s.SetEmail(ctx, ids[7], "n7@example.org", false))
	must(t, s.SetEmail(ctx, ids[8], "n8@example.org", true))
	if addr, off, err := s.EmailSettings(ctx, ids[8]); err != nil || addr != "n8@example.org" || !off {
		t.Errorf("settings %q %v %v", addr, off, err)
	}
	// n0 cancels late: his strike; n7 (first of the reserve) moves up and has mail; n8 turned e-mail off
	_, err := s.Cancel(ctx, n.ID, ids[0], start.Add(-time.Hour), true)
	must(t, err)
	if k := kinds(t, s, ids[0]); fmt.Sprint(k) != "[strike]" {
		t.Errorf("n0's notices %v", k)
	}
	if k := kinds(t, s, ids[7]); fmt.Sprint(k) != "[promoted]" {
		t.Errorf("n7's notices %v", k)
	}
	list, _ := s.Notices(ctx, ids[0], 10)
	if list[0].Detail != string(club.StrikeLate) || list[0].Night.Place != "Café" || !list[0].Night.StartsAt.Equal(start) || list[0].Read {
		t.Errorf("the strike's notice %+v", list[0])
	}
	// a no-show marked twice tells once
	must(t, s.SetNoShow(ctx, n.ID, ids[1], true, start.Add(time.Hour)))
	must(t, s.SetNoShow(ctx, n.ID, ids[1], true, start.Add(time.Hour)))
	if k := kinds(t, s, ids[1]); fmt.Sprint(k) != "[strike]" {
		t.Errorf("n1's notices %v", k)
	}
	if c, _ := s.UnreadNotices(ctx, ids[1]); c != 1 {
		t.Errorf("%d unread", c)
	}
	must(t, s.MarkNoticesRead(ctx, ids[1], start))
	if c, _ := s.UnreadNotices(ctx, ids[1]); c != 0 {
		t.Errorf("%d unread after reading", c)
	}
	// the outbox: only n7's mail; a failure puts it off; once sent it is gone
	due, err := s.DueMail(ctx, start, 10)
	must(t, err)
	if len(due) != 1 || due[0].Address != "n7@example.org" || due[0].Notice.Kind != club.NoticePromoted || due[0].Name != "n7" || due[0].Attempts != 0 {
		t.Fatalf("due mail %+v", due)
	}
	must(t, s.MailFailed(ctx, due[0].ID, "421 try later", start.Add(time.Minute)))
	if d, _ := s.DueMail(ctx, start, 10); len(d) != 0 {
		t.Errorf("a mail put off is due at once: %+v", d)
	}
	again, _ := s.DueMail(ctx, start.Add(time.Minute), 10)
	if len(again) != 1 || again[0].Attempts != 1 {
		t.Fatalf("after the wait: %+v", again)
	}
	must(t, s.MailSent(ctx, again[0].ID, start.Add(time.Minute)))
	if d, _ := s.DueMail(ctx, start.Add(time.Hour), 10); len(d) != 0 {
		t.Errorf("a sent mail is due again: %+v", d)
	}
	// the reminder: once per registration
	k, err := s.Remind(ctx, n.ID, start.Add(-30*time.Hour))
	must(t, err)
	if k != 8 {
		t.Errorf("%d reminders, want 8 (n0 cancelled)", k)
	}
	if k, _ := s.Remind(ctx, n.ID, start.Add(-29*time.Hour)); k != 0 {
		t.Errorf("%d reminders the second time", k)
	}
}

// nightEdits: fewer places move the last registered of the main line-up to the reserve, more places fill it from
// the reserve; each member is told once (where he is now, or that the night changed); a cancelled night tells all
// and takes no registration.
func nightEdits(t *testing.T, s club.Store) {
	ctx := context.Background()
	admin := NewHost(t, s, "eadmin")
	start := time.Date(2027, 3, 14, 19, 0, 0, 0, time.UTC)
	n := &club.ClubNight{StartsAt: start, Place: "Café", Tables: 2, PerTable: 8, CreatedBy: admin.ID}
	must(t, s.CreateNight(ctx, n))
	now := start.Add(-72 * time.Hour)
	var ids []int64
	for i := 0; i < 18; i++ {
		ids = append(ids, member(t, s, "e"+strconv.Itoa(i), club.StatusActive))
		_, err := s.Register(ctx, n.ID, ids[i], now.Add(time.Duration(i)*time.Minute))
		must(t, err)
	}
	// 16 places → 8: e8..e15 go to the reserve, ahead of e16 and e17
	n.Tables, n.StartsAt = 1, start.Add(time.Hour)
	must(t, s.UpdateNight(ctx, n, now))
	got, _ := s.Night(ctx, n.ID)
	if got.Main != 8 || got.Reserve != 10 || got.Tables != 1 || !got.StartsAt.Equal(start.Add(time.Hour)) {
		t.Errorf("after shrinking: %+v", got)
	}
	if k := kinds(t, s, ids[8]); fmt.Sprint(k) != "[demoted]" {
		t.Errorf("e8 %v", k)
	}
	if k := kinds(t, s, ids[0]); fmt.Sprint(k) != "[night_changed]" {
		t.Errorf("e0 %v", k)
	}
	list, _ := s.Notices(ctx, ids[16], 1)
	if len(list) != 1 || !list[0].WasAt().Equal(start) {
		t.Errorf("e16's notice %+v: want the old start", list)
	}
	// 8 → 10 places: the reserve fills in registration order (e8, e9)
	n.PerTable, n.Note = 10, "room 2"
	must(t, s.UpdateNight(ctx, n, now))
	regs, _ := s.Registrations(ctx, n.ID)
	main := map[int64]bool{}
	for _, r := range regs {
		main[r.UserID] = r.State == club.RegMain
	}
	if !main[ids[8]] || !main[ids[9]] || main[ids[10]] {
		t.Errorf("after growing: e8 %v e9 %v e10 %v", main[ids[8]], main[ids[9]], main[ids[10]])
	}
	if k := kinds(t, s, ids[9]); fmt.Sprint(k) != "[demoted promoted]" {
		t.Errorf("e9 %v", k)
	}
	list, _ = s.Notices(ctx, ids[10], 1)
	if list[0].Kind != club.NoticeNightChanged || !list[0].WasAt().IsZero() || list[0].Night.Note != "room 2" {
		t.Errorf("e10's notice %+v", list[0])
	}
	// the same again changes nothing and tells nobody
	must(t, s.UpdateNight(ctx, n, now))
	if k := kinds(t, s, ids[0]); len(k) != 2 {
		t.Errorf("an edit that changed nothing told e0: %v", k)
	}
	must(t, s.CancelNight(ctx, n.ID, now))
	wantCode(t, s.CancelNight(ctx, n.ID, now), club.Conflict)
	wantCode(t, s.CancelNight(ctx, n.ID+1000, now), club.NotFound)
	if got, _ := s.Night(ctx, n.ID); !got.IsCancelled() {
		t.Error("the night is not cancelled")
	}
	if k := kinds(t, s, ids[17]); fmt.Sprint(k) != "[night_changed night_changed night_cancelled]" {
		t.Errorf("e17 %v", k)
	}
	_, err := s.Register(ctx, n.ID, member(t, s, "elate", club.StatusActive), now)
	wantCode(t, err, club.Invalid)
	wantCode(t, s.UpdateNight(ctx, n, now), club.Conflict)
}

// strikeReport: strikes per member in a period and in the rule's weeks; settings are written and overwritten.
func strikeReport(t *testing.T, s club.Store) {
	ctx := context.Background()
	admin := NewHost(t, s, "sadmin")
	day := time.Date(2027, 3, 1, 19, 0, 0, 0, time.UTC)
	a := member(t, s, "sa", club.StatusActive)
	b := member(t, s, "sb", club.StatusLowPriority)
	member(t, s, "sc", club.StatusActive)
	for i := 0; i < 3; i++ {
		n := &club.ClubNight{StartsAt: day.AddDate(0, 0, 7*i), Place: "Café", Tables: 1, PerTable: 7, CreatedBy: admin.ID}
		must(t, s.CreateNight(ctx, n))
		for _, u := range []int64{a, b} {
			_, err := s.Register(ctx, n.ID, u, day.AddDate(0, 0, -10))
			must(t, err)
		}
		must(t, s.SetNoShow(ctx, n.ID, a, true, n.StartsAt.Add(time.Hour)))
		if i == 2 {
			_, err := s.Cancel(ctx, n.ID, b, n.StartsAt.Add(-time.Hour), true)
			must(t, err)
		}
	}
	// the period is the last two weeks; the rule looks back five
	rep, err := s.StrikeReport(ctx, day.AddDate(0, 0, 6), day.AddDate(0, 0, 20), day.AddDate(0, 0, -15))
	must(t, err)
	if len(rep) != 2 || rep[0].UserID != a || rep[0].NoShow != 2 || rep[0].Late != 0 || rep[0].Recent != 3 || rep[0].Nick != "sa" ||
		rep[1].UserID != b || rep[1].Late != 1 || rep[1].Status != club.StatusLowPriority {
		t.Errorf("report %+v", rep)
	}
	if v, ok, err := s.Setting(ctx, "x"); err != nil || ok || v != "" {
		t.Errorf("an unset setting: %q %v %v", v, ok, err)
	}
	must(t, s.SetSetting(ctx, "x", "1"))
	must(t, s.SetSetting(ctx, "x", "2"))
	if v, ok, _ := s.Setting(ctx, "x"); v != "2" || !ok {
		t.Errorf("setting %q", v)
	}
}
