package club_test

import (
	"context"
	"testing"
	"time"

	"mafiaclub/internal/club"
)

// A night is changed or cancelled only before it begins and while it is not cancelled; its reminder is due from
// 10:00 of the day before (club's time zone) until the cancellation deadline.
func TestNightEditRules(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	admin := f.users["admin"]
	start := f.now.Add(72 * time.Hour)
	n, err := f.svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: start, Place: "Café", Tables: 1, PerTable: 10})
	f.must(err)
	form := club.NightForm{StartsAt: start, Place: "Café", Tables: 2, PerTable: 10, Note: "line one\nline two"}
	got, err := f.svc.Nights.Edit(ctx, admin, n.ID, form)
	f.must(err)
	if got.Tables != 2 || got.Note != "line one\nline two" {
		t.Errorf("edited night %+v", got)
	}
	form.StartsAt = f.now.Add(-time.Hour)
	_, err = f.svc.Nights.Edit(ctx, admin, n.ID, form)
	wantMessage(t, err, "must start in the future")
	form.StartsAt, form.Note = start, "bad\x00note"
	_, err = f.svc.Nights.Edit(ctx, admin, n.ID, form)
	wantMessage(t, err, "control character")

	remind := club.RemindAt(*got, time.UTC)
	if want := time.Date(start.Year(), start.Month(), start.Day()-1, 10, 0, 0, 0, time.UTC); !remind.Equal(want) {
		t.Errorf("remind at %v, want %v", remind, want)
	}
	_, err = f.svc.Nights.Register(ctx, f.users["member"], n.ID)
	f.must(err)
	f.now = remind.Add(-time.Minute)
	if k, _ := f.svc.Notices.Remind(ctx); k != 0 {
		t.Errorf("%d reminders before 10:00 of the day before", k)
	}
	f.now = remind
	if k, _ := f.svc.Notices.Remind(ctx); k != 1 {
		t.Errorf("%d reminders at 10:00 of the day before, want 1", k)
	}

	f.now = start
	_, err = f.svc.Nights.Edit(ctx, admin, n.ID, form)
	wantMessage(t, err, "has begun")
	wantMessage(t, f.svc.Nights.CancelNight(ctx, admin, n.ID), "has begun")

	f.now = start.Add(-48 * time.Hour)
	other, err := f.svc.Nights.Create(ctx, admin, club.NightForm{StartsAt: start, Place: "Hall", Tables: 1, PerTable: 10})
	f.must(err)
	_, err = f.svc.Nights.Register(ctx, f.users["member"], other.ID)
	f.must(err)
	f.must(f.svc.Nights.CancelNight(ctx, admin, other.ID))
	wantMessage(t, f.svc.Nights.CancelNight(ctx, admin, other.ID), "is cancelled")
	_, err = f.svc.Nights.Cancel(ctx, f.users["member"], other.ID)
	wantMessage(t, err, "is cancelled")
	_, err = f.svc.Nights.Register(ctx, f.users["judge"], other.ID)
	wantMessage(t, err, "is cancelled")
	f.now = club.RemindAt(*other, time.UTC)
	if k, _ := f.svc.Notices.Remind(ctx); k != 0 {
		t.Errorf("%d reminders of a cancelled night", k)
	}
}
