package club

import (
	"context"
	"time"
)

// Nights runs the club nights: the calendar, registrations with the main line-up and the reserve, cancellations
// (free until the end of the day before, in the club's time zone), no-shows, and the seating pool of a night's
// games.
type Nights struct {
	store Store
	clock *Clock
}

// Upcoming lists the club nights from twelve hours ago to six months ahead, soonest first: public.
func (n *Nights) Upcoming(ctx context.Context) ([]ClubNight, error) {
	now := n.clock.Now()
	return n.store.Nights(ctx, now.Add(-12*time.Hour), now.AddDate(1, 0, 1)) // every night an admin may set (a year ahead)
}

// Night returns a club night with its line-up counts: public.
func (n *Nights) Night(ctx context.Context, id int64) (*ClubNight, error) {
	return n.store.Night(ctx, id)
}

// SeesLineUps reports whether u may see who registered: an approved member or a host. The public sees counts.
func SeesLineUps(u *User) bool {
	return u != nil && (u.Role.Can(RoleHost) || u.Status == StatusActive || u.Status == StatusLowPriority)
}

// LineUp lists a night's registrations in order, for an approved member or a host.
func (n *Nights) LineUp(ctx context.Context, u *User, nightID int64) ([]Registration, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	if !SeesLineUps(u) {
		return nil, ErrNotApproved
	}
	return n.store.Registrations(ctx, nightID)
}

// Registrations lists a member's own registrations.
func (n *Nights) Registrations(ctx context.Context, u *User) ([]Registration, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	return n.store.UserRegistrations(ctx, u.ID)
}

// Mine lists a member's own registrations with their nights, and his strikes.
func (n *Nights) Mine(ctx context.Context, u *User) ([]Registration, []ClubNight, []Strike, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, nil, nil, err
	}
	regs, err := n.store.UserRegistrations(ctx, u.ID)
	if err != nil {
		return nil, nil, nil, err
	}
	nights := make([]ClubNight, len(regs))
	for i, reg := range regs {
		night, err := n.store.Night(ctx, reg.NightID)
		if err != nil {
			return nil, nil, nil, err
		}
		nights[i] = *night
	}
	strikes, err := n.store.Strikes(ctx, u.ID)
	return regs, nights, strikes, err
}

// Pool is the seating pool of a night's game: its main line-up, then its reserve, without no-shows and without
// members excluded since they registered. A host's tool.
func (n *Nights) Pool(ctx context.Context, u *User, nightID int64) ([]string, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	regs, err := n.store.Registrations(ctx, nightID)
	if err != nil {
		return nil, err
	}
	var pool []string
	for _, state := range []RegState{RegMain, RegReserve} {
		for _, reg := range regs {
			if reg.State == state && !reg.NoShow && reg.Status != StatusExcluded {
				pool = append(pool, reg.Nick)
			}
		}
	}
	return pool, nil
}

// NightForm is an admin's new or edited club night.
type NightForm struct {
	StartsAt         time.Time
	Place            string
	Tables, PerTable int
	Note             string
}

// Create adds a club night. Only an admin may.
func (n *Nights) Create(ctx context.Context, admin *User, f NightForm) (*ClubNight, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	if err := n.checkForm(&f); err != nil {
		return nil, err
	}
	now := n.clock.Now()
	night := &ClubNight{StartsAt: f.StartsAt, Place: f.Place, Tables: f.Tables, PerTable: f.PerTable, Note: f.Note, CreatedBy: admin.ID, CreatedAt: now}
	return night, n.store.CreateNight(ctx, night)
}

// Register registers a member for a club night.
func (n *Nights) Register(ctx context.Context, u *User, nightID int64) (*Registration, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	return n.store.Register(ctx, nightID, u.ID, n.clock.Now())
}

// Cancel cancels a member's registration: free until the end of the day before the night in the club's time zone,
// late (a strike) from then on (000 L22, C-18).
func (n *Nights) Cancel(ctx context.Context, u *User, nightID int64) (*Registration, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	night, err := n.store.Night(ctx, nightID)
	if err != nil {
		return nil, err
	}
	now := n.clock.Now()
	if !now.Before(night.StartsAt) {
		return nil, Errorf(Invalid, "the club night has begun")
	}
	if night.IsCancelled() {
		return nil, Errorf(Invalid, "the club night is cancelled")
	}
	return n.store.Cancel(ctx, nightID, u.ID, now, IsLate(*night, n.clock.Zone, now))
}

// CancelIsLate reports whether cancelling now would be late.
func (n *Nights) CancelIsLate(night ClubNight) bool {
	return IsLate(night, n.clock.Zone, n.clock.Now())
}

// Started reports whether the night has begun.
func (n *Nights) Started(night ClubNight) bool { return !n.clock.Now().Before(night.StartsAt) }

// SetNoShow marks a member of the main line-up who did not come. Only an admin may, once the night has begun.
func (n *Nights) SetNoShow(ctx context.Context, admin *User, nightID, userID int64, noShow bool) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	night, err := n.store.Night(ctx, nightID)
	if err != nil {
		return err
	}
	if n.clock.Now().Before(night.StartsAt) {
		return Errorf(Invalid, "no-shows are marked once the club night has begun")
	}
	return n.store.SetNoShow(ctx, nightID, userID, noShow, n.clock.Now())
}
