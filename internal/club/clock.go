package club

import (
	"sync/atomic"
	"time"
)

// Clock is the one source of time of the club's services and its store: now, in the club's time zone. It is
// made once (in cmd/mafiaclub) and handed to everything that needs the time; tests set it.
type Clock struct {
	// Zone is the club's time zone: deadlines, dates and the chronology are read in it.
	Zone *time.Location
	now  atomic.Pointer[func() time.Time]
}

// NewClock returns a clock in zone (UTC when nil) that reads now (time.Now when nil).
func NewClock(zone *time.Location, now func() time.Time) *Clock {
	if zone == nil {
		zone = time.UTC
	}
	c := &Clock{Zone: zone}
	c.Set(now)
	return c
}

// Set makes the clock read now from then on (time.Now when nil). Tests use it to move through a night.
func (c *Clock) Set(now func() time.Time) {
	if now == nil {
		now = time.Now
	}
	c.now.Store(&now)
}

// Now is the current time in the club's zone.
func (c *Clock) Now() time.Time {
	if c == nil {
		return time.Now()
	}
	return (*c.now.Load())().In(c.Zone)
}
