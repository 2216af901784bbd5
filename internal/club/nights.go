package club

import (
	"time"
)

// MemberStatus is a member's standing in the club (000 L22-L24, matrix R97-R99, C-18).
type MemberStatus string

// The member statuses.
const (
	StatusPending     MemberStatus = "pending"      // signed up, waiting for an admin's approval
	StatusActive      MemberStatus = "active"       // registers for main line-ups
	StatusLowPriority MemberStatus = "low_priority" // only the reserve, never a main line-up (R99)
	StatusExcluded    MemberStatus = "excluded"     // cannot register
)

// ValidStatus reports whether s is a status an admin may set.
func ValidStatus(s MemberStatus) bool {
	switch s {
	case StatusActive, StatusLowPriority, StatusExcluded:
		return true
	}
	return false
}

// The registrations refused for a member's status.
var (
	ErrNotApproved = &Error{Code: Forbidden, Message: "an admin has not approved this member yet"}
	ErrExcluded    = &Error{Code: Forbidden, Message: "an excluded member cannot register"}
)

// ClubNight is a calendar evening of games: when and where, and how many tables of how many players, which gives
// the main line-up's size.
type ClubNight struct {
	ID        int64
	StartsAt  time.Time
	Place     string
	Tables    int
	PerTable  int
	CreatedBy int64
	CreatedAt time.Time
	Note      string    // the admin's note to the members (what to bring, a change of room)
	Cancelled time.Time // when an admin cancelled the night; zero while it takes place
	// Filled by the store when listing: how many are in the main line-up and in the reserve.
	Main, Reserve int
}

// IsCancelled reports whether an admin cancelled the night.
func (n ClubNight) IsCancelled() bool { return !n.Cancelled.IsZero() }

// MainSize is the number of places in the main line-up.
func (n ClubNight) MainSize() int { return n.Tables * n.PerTable }

// CancelDeadline is the moment from which cancelling a registration is late: the start of the night's calendar
// day in the club's time zone. Cancelling "the day before" is free until 23:59:59 of that day (000 L22, C-18),
// whatever daylight-saving change falls in between.
func CancelDeadline(n ClubNight, zone *time.Location) time.Time {
	local := n.StartsAt.In(zone)
	return time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, zone)
}

// IsLate reports whether cancelling at t is a late cancellation.
func IsLate(n ClubNight, zone *time.Location, t time.Time) bool {
	return !t.Before(CancelDeadline(n, zone))
}

// RegState is where a registration stands.
type RegState string

// The registration states.
const (
	RegMain      RegState = "main"
	RegReserve   RegState = "reserve"
	RegCancelled RegState = "cancelled" // cancelled in time, or a late cancellation (Late is then set)
)

// Registration is one member's registration for a club night.
type Registration struct {
	ID          int64
	NightID     int64
	UserID      int64
	Nick        string
	Status      MemberStatus // the member's status now
	State       RegState
	At          time.Time
	CancelledAt time.Time
	Late        bool
	NoShow      bool
}

// StrikeKind is a recorded breach of the registration discipline.
type StrikeKind string

// The strikes (C-18): they are recorded, never acted on by themselves.
const (
	StrikeLate   StrikeKind = "late_cancellation"
	StrikeNoShow StrikeKind = "no_show"
)

// Strike is one recorded breach.
type Strike struct {
	UserID  int64
	NightID int64
	Kind    StrikeKind
	At      time.Time
}

// MemberChange is a logged change to a member: who changed what, when and why.
type MemberChange struct {
	At     time.Time
	UserID int64
	By     int64
	ByName string
	Field  string // "status", "role", "approved", "linked"
	From   string
	To     string
	Reason string
}
