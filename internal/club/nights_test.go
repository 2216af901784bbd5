package club

import (
	"testing"
	"time"
)

func TestCancelDeadline(t *testing.T) {
	edm, _ := time.LoadLocation("America/Edmonton")
	at := func(s string) time.Time {
		v, err := time.ParseInLocation("2006-01-02 15:04:05", s, edm)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		name          string
		night, cancel string
		late          bool
	}{
		{"the day before at 23:59:59 is free", "2026-12-05 19:00:00", "2026-12-04 23:59:59", false},
		{"00:00 on the day is late", "2026-12-05 19:00:00", "2026-12-05 00:00:00", true},
		{"a week before is free", "2026-12-05 19:00:00", "2026-11-28 12:00:00", false},
		{"after the start is late", "2026-12-05 19:00:00", "2026-12-05 20:00:00", true},
		// Canada springs forward at 02:00 on 2027-03-14 and falls back at 02:00 on 2026-11-01
		{"spring forward: the evening before is free", "2027-03-14 19:00:00", "2027-03-13 23:59:59", false},
		{"spring forward: midnight is late", "2027-03-14 19:00:00", "2027-03-14 00:00:00", true},
		{"spring forward: 03:00 is late", "2027-03-14 19:00:00", "2027-03-14 03:00:00", true},
		{"fall back: the evening before is free", "2026-11-01 19:00:00", "2026-10-31 23:59:59", false},
		{"fall back: midnight is late", "2026-11-01 19:00:00", "2026-11-01 00:00:00", true},
		{"a night just after midnight: the day before is free until its end", "2026-12-06 00:30:00", "2026-12-05 23:59:59", false},
	}
	for _, c := range cases {
		n := ClubNight{StartsAt: at(c.night)}
		if got := IsLate(n, edm, at(c.cancel).UTC()); got != c.late {
			t.Errorf("%s: late = %v, want %v (deadline %v)", c.name, got, c.late, CancelDeadline(n, edm))
		}
	}
}
