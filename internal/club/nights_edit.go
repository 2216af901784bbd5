package club

import (
	"context"
	"strconv"
	"time"
)

// checkForm checks and cleans a new or edited night's form.
func (n *Nights) checkForm(f *NightForm) error {
	if f.Tables < 1 || f.Tables > 50 {
		return Errorf(Invalid, "1 to 50 tables")
	}
	if f.PerTable < 7 || f.PerTable > 10 {
		return Errorf(Invalid, "7 to 10 players per table")
	}
	var err error
	if f.Place, err = cleanName(f.Place, MaxTitle, "place", false); err != nil {
		return err
	}
	if f.Note, err = cleanText(f.Note, MaxNote, "note", true); err != nil {
		return err
	}
	if !f.StartsAt.After(n.clock.Now()) {
		return Errorf(Invalid, "the club night must start in the future")
	}
	if f.StartsAt.After(n.clock.Now().AddDate(1, 0, 0)) { // a typo in the year: it would never be listed
		return Errorf(Invalid, "a club night is at most a year ahead")
	}
	return nil
}

// changeable returns a night an admin may still change: not begun, not cancelled.
func (n *Nights) changeable(ctx context.Context, admin *User, nightID int64) (*ClubNight, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	night, err := n.store.Night(ctx, nightID)
	if err != nil {
		return nil, err
	}
	if night.IsCancelled() {
		return nil, Errorf(Invalid, "the club night is cancelled")
	}
	if !n.clock.Now().Before(night.StartsAt) {
		return nil, Errorf(Invalid, "the club night has begun")
	}
	return night, nil
}

// Edit changes a night that has not begun: its time, place, tables, players per table and note. When the main
// line-up gets fewer places, its last registered members move to the reserve; when it gets more, the reserve
// fills it in order. Every registered member is told (and those who moved, where they are now). Only an admin.
func (n *Nights) Edit(ctx context.Context, admin *User, nightID int64, f NightForm) (*ClubNight, error) {
	night, err := n.changeable(ctx, admin, nightID)
	if err != nil {
		return nil, err
	}
	if err := n.checkForm(&f); err != nil {
		return nil, err
	}
	night.StartsAt, night.Place, night.Tables, night.PerTable, night.Note = f.StartsAt, f.Place, f.Tables, f.PerTable, f.Note
	if err := n.store.UpdateNight(ctx, night, n.clock.Now()); err != nil {
		return nil, err
	}
	return n.store.Night(ctx, nightID)
}

// CancelNight cancels a night that has not begun; every registered member is told. Registrations are kept as
// they were, and nobody gets a strike. Only an admin.
func (n *Nights) CancelNight(ctx context.Context, admin *User, nightID int64) error {
	if _, err := n.changeable(ctx, admin, nightID); err != nil {
		return err
	}
	return n.store.CancelNight(ctx, nightID, n.clock.Now())
}

// The club settings of the strikes rule: at Strikes strikes within Weeks weeks, the strikes report suggests
// making a member low-priority (C-18: strikes never change a status by themselves; the admin decides).
const (
	settingStrikes = "strikes_rule_count"
	settingWeeks   = "strikes_rule_weeks"
)

// StrikeRule is the club's rule of thumb for strikes: Strikes within Weeks weeks.
type StrikeRule struct{ Strikes, Weeks int }

// DefaultStrikeRule is the rule until an admin sets one: three strikes within eight weeks.
var DefaultStrikeRule = StrikeRule{Strikes: 3, Weeks: 8}

// StrikeRule returns the club's rule. Only an admin.
func (n *Nights) StrikeRule(ctx context.Context, admin *User) (StrikeRule, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return StrikeRule{}, err
	}
	rule := DefaultStrikeRule
	for name, dst := range map[string]*int{settingStrikes: &rule.Strikes, settingWeeks: &rule.Weeks} {
		v, _, err := n.store.Setting(ctx, name)
		if err != nil {
			return rule, err
		}
		if k, err := strconv.Atoi(v); err == nil && k > 0 {
			*dst = k
		}
	}
	return rule, nil
}

// SetStrikeRule sets the club's rule. Only an admin.
func (n *Nights) SetStrikeRule(ctx context.Context, admin *User, rule StrikeRule) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	if rule.Strikes < 1 || rule.Strikes > 100 || rule.Weeks < 1 || rule.Weeks > 104 {
		return Errorf(Invalid, "1 to 100 strikes within 1 to 104 weeks")
	}
	if err := n.store.SetSetting(ctx, settingStrikes, strconv.Itoa(rule.Strikes)); err != nil {
		return err
	}
	return n.store.SetSetting(ctx, settingWeeks, strconv.Itoa(rule.Weeks))
}

// StrikeReport is the admin's report of strikes per member over a period, with the club's rule and the members
// it suggests making low-priority.
type StrikeReport struct {
	From, To time.Time // the period: from the start of From's day to the end of To's day, in the club's zone
	Rule     StrikeRule
	Members  []StrikeCount // members with strikes in the period or the rule's weeks, most strikes first
}

// StrikeReport counts each member's strikes from the start of the day from to the end of the day to (club's time
// zone), and his strikes in the rule's weeks up to that end: an active member at or above the rule is suggested
// for low priority; the admin decides. Only an admin.
func (n *Nights) StrikeReport(ctx context.Context, admin *User, from, to time.Time) (*StrikeReport, error) {
	rule, err := n.StrikeRule(ctx, admin)
	if err != nil {
		return nil, err
	}
	z := n.clock.Zone
	from = time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, z)
	end := time.Date(to.Year(), to.Month(), to.Day()+1, 0, 0, 0, 0, z)
	if !end.After(from) {
		return nil, Errorf(Invalid, "the period ends before it begins")
	}
	list, err := n.store.StrikeReport(ctx, from, end, end.AddDate(0, 0, -7*rule.Weeks))
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].Suggest = list[i].Status == StatusActive && list[i].Recent >= rule.Strikes
	}
	return &StrikeReport{From: from, To: end.AddDate(0, 0, -1), Rule: rule, Members: list}, nil
}
