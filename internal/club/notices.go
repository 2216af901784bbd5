package club

import (
	"context"
	"encoding/json"
	"net/mail"
	"strconv"
	"strings"
	"time"
)

// NoticeKind is what a notice tells a member.
type NoticeKind string

// The notices. Each is written in the same transaction as the change it tells of, so none is lost.
const (
	NoticePromoted       NoticeKind = "promoted"        // moved from the reserve to the main line-up
	NoticeDemoted        NoticeKind = "demoted"         // moved to the reserve: the night has fewer places now (Detail ""), or the member is on low priority now (Detail "low_priority")
	NoticeNightChanged   NoticeKind = "night_changed"   // a night he is registered for changed (Detail: NightChangeDetail)
	NoticeNightCancelled NoticeKind = "night_cancelled" // a night he is registered for is cancelled
	NoticeReminder       NoticeKind = "reminder"        // the day before a night he is registered for
	NoticeStrike         NoticeKind = "strike"          // a strike was recorded (Detail: its StrikeKind)
	NoticeRemoved        NoticeKind = "removed"         // taken off a night's line-up: the member is excluded
	NoticeStatus         NoticeKind = "status"          // an admin changed the member's status (Detail: the new MemberStatus)
)

// Notice is one message to a member: on the site (his inbox) and, where the club sends e-mail and he gave an
// address, by e-mail. The night's details are filled in when listed.
type Notice struct {
	ID      int64
	UserID  int64
	Kind    NoticeKind
	NightID int64
	Detail  string
	At      time.Time
	Read    bool
	Night   ClubNight // the night it is about (its ID is 0 for none)
}

// NightChange is what a notice of a changed night keeps of it (its Detail, as JSON): the night as the change left
// it and its old start when that moved, so that the notice says what was true when it was written, whatever the
// night becomes later.
type NightChange struct {
	Was      int64  `json:"was,omitempty"` // the old start, Unix ms; 0 when it did not move
	At       int64  `json:"at"`            // the new start, Unix ms
	Place    string `json:"place"`
	Tables   int    `json:"tables"`
	PerTable int    `json:"per_table"`
	Note     string `json:"note,omitempty"`
}

// NightChangeDetail is the Detail of a night_changed notice: night n as it is now, and its old start was (zero
// when it did not move).
func NightChangeDetail(n ClubNight, was time.Time) string {
	c := NightChange{At: n.StartsAt.UnixMilli(), Place: n.Place, Tables: n.Tables, PerTable: n.PerTable, Note: n.Note}
	if !was.IsZero() {
		c.Was = was.UnixMilli()
	}
	b, _ := json.Marshal(c)
	return string(b)
}

// change reads a night_changed notice's Detail: the JSON of NightChangeDetail, or (notices written before it) the
// old start alone, in Unix ms.
func (n Notice) change() (NightChange, bool) {
	var c NightChange
	if n.Kind != NoticeNightChanged || n.Detail == "" {
		return c, false
	}
	if n.Detail[0] == '{' {
		return c, json.Unmarshal([]byte(n.Detail), &c) == nil
	}
	ms, err := strconv.ParseInt(n.Detail, 10, 64)
	if err != nil {
		return c, false
	}
	return NightChange{Was: ms}, false
}

// WasAt is the old start of a night whose time changed (zero when it did not).
func (n Notice) WasAt() time.Time {
	c, _ := n.change()
	if c.Was == 0 {
		return time.Time{}
	}
	return time.UnixMilli(c.Was).UTC()
}

// NightThen is the night as the notice tells of it: for a change, the night as that change left it (a later
// change has a notice of its own); otherwise, and for a notice written before changes were kept, the night now.
func (n Notice) NightThen() ClubNight {
	c, ok := n.change()
	if !ok {
		return n.Night
	}
	night := n.Night
	night.StartsAt, night.Place, night.Tables, night.PerTable, night.Note = time.UnixMilli(c.At).UTC(), c.Place, c.Tables, c.PerTable, c.Note
	return night
}

// Mail is a notice waiting in the outbox to be sent by e-mail: its address and language as they were when the
// notice was written, and how many sends have failed.
type Mail struct {
	ID       int64
	Notice   Notice
	Address  string
	Name     string // the member's name
	Lang     string
	Attempts int
}

// StrikeCount is a member's strikes over a report's period, and in the weeks the club's rule looks back on.
type StrikeCount struct {
	UserID  int64
	Nick    string
	Login   string
	Status  MemberStatus
	Late    int // late cancellations in the period
	NoShow  int // no-shows in the period
	Recent  int // strikes in the rule's weeks up to the period's end
	Suggest bool
}

// Total is the member's strikes in the period.
func (c StrikeCount) Total() int { return c.Late + c.NoShow }

// NoticeStore is the storage of notices, the outbox, the nights' edits and the club's settings, part of the
// Store contract.
type NoticeStore interface {
	// UpdateNight changes a night that has not begun (its time, place, tables, players per table and note): when
	// the main line-up has fewer places, its last registered members move to the reserve; when it has more, the
	// reserve fills it in order; every member registered is told, all in one transaction.
	UpdateNight(ctx context.Context, n *ClubNight, now time.Time) error
	// CancelNight cancels a night and tells every member registered for it; a cancelled night is a Conflict.
	CancelNight(ctx context.Context, nightID int64, now time.Time) error
	// Remind writes the reminder of every registration for the night that has not had one, and returns how many.
	Remind(ctx context.Context, nightID int64, now time.Time) (int, error)
	// Notices lists a member's notices, newest first.
	Notices(ctx context.Context, userID int64, limit int) ([]Notice, error)
	UnreadNotices(ctx context.Context, userID int64) (int, error)
	MarkNoticesRead(ctx context.Context, userID int64, now time.Time) error
	// EmailSettings and SetEmail read and set a member's address and whether he turned e-mail off. Setting another
	// address than the confirmed one forgets the confirmation (LinkStore.ConfirmEmail).
	EmailSettings(ctx context.Context, userID int64) (address string, off bool, err error)
	SetEmail(ctx context.Context, userID int64, address string, off bool) error
	// DueMail lists the outbox's unsent mails whose next attempt is due at now, oldest first.
	DueMail(ctx context.Context, now time.Time, limit int) ([]Mail, error)
	MailSent(ctx context.Context, id int64, now time.Time) error
	// MailFailed records a failed send and when to try again.
	MailFailed(ctx context.Context, id int64, reason string, next time.Time) error
	// StrikeReport counts each member's strikes in [from, to) and in [recentFrom, to), members with none left out.
	StrikeReport(ctx context.Context, from, to, recentFrom time.Time) ([]StrikeCount, error)
}

// Notices is a member's inbox and e-mail settings, and the server's side of the notices: the outbox the e-mail
// sender drains and the reminders the scheduler writes.
type Notices struct {
	store    Store
	clock    *Clock
	accounts *Accounts // sends the link that confirms a new address
}

// Inbox lists the member's notices, newest first.
func (s *Notices) Inbox(ctx context.Context, u *User) ([]Notice, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	return s.store.Notices(ctx, u.ID, 100)
}

// Unread counts the member's unread notices.
func (s *Notices) Unread(ctx context.Context, u *User) (int, error) {
	if err := need(u, RoleMember); err != nil {
		return 0, err
	}
	return s.store.UnreadNotices(ctx, u.ID)
}

// MarkRead marks all the member's notices read.
func (s *Notices) MarkRead(ctx context.Context, u *User) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	return s.store.MarkNoticesRead(ctx, u.ID, s.clock.Now())
}

// EmailForm is a member's e-mail settings: his address ("" for none) and whether he wants no e-mail; and (read)
// whether the address is confirmed (links.go).
type EmailForm struct {
	Address   string
	Off       bool
	Confirmed bool
}

// MaxEmail is the longest e-mail address (RFC 5321's limit on a path).
const MaxEmail = 254

// Email returns the member's e-mail settings.
func (s *Notices) Email(ctx context.Context, u *User) (EmailForm, error) {
	if err := need(u, RoleMember); err != nil {
		return EmailForm{}, err
	}
	addr, off, err := s.store.EmailSettings(ctx, u.ID)
	if err != nil {
		return EmailForm{}, err
	}
	confirmed, err := s.store.ConfirmedEmail(ctx, u.ID)
	return EmailForm{Address: addr, Off: off, Confirmed: addr != "" && confirmed == addr}, err
}

// SetEmail sets the member's e-mail address and whether he wants e-mail. An address not yet confirmed is sent a
// link that confirms it (each time it is saved, within the bound of his links).
func (s *Notices) SetEmail(ctx context.Context, u *User, f EmailForm) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	addr, err := cleanName(f.Address, MaxEmail, "e-mail address", true)
	if err != nil {
		return err
	}
	if addr != "" {
		a, err := mail.ParseAddress(addr)
		if err != nil || a.Address != addr || a.Name != "" || strings.ContainsAny(addr, " <>\"") {
			return Errorf(Invalid, "an e-mail address like name@example.org")
		}
	}
	if err := s.store.SetEmail(ctx, u.ID, addr, f.Off); err != nil {
		return err
	}
	if addr == "" || s.accounts == nil {
		return nil
	}
	if confirmed, err := s.store.ConfirmedEmail(ctx, u.ID); err != nil || confirmed == addr {
		return err
	}
	return s.accounts.sendEmailConfirmation(ctx, u, addr)
}

// DueMail lists the mails the sender should try now. The server's own action: no account.
func (s *Notices) DueMail(ctx context.Context, limit int) ([]Mail, error) {
	return s.store.DueMail(ctx, s.clock.Now(), limit)
}

// MailSent records a mail as sent.
func (s *Notices) MailSent(ctx context.Context, id int64) error {
	return s.store.MailSent(ctx, id, s.clock.Now())
}

// RetryAfter is the wait before the next attempt after attempts failed sends: 30 seconds doubling, at most an
// hour. A mail is never given up: the inbox has the notice meanwhile.
func RetryAfter(attempts int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempts && d < time.Hour; i++ {
		d *= 2
	}
	return min(d, time.Hour)
}

// MailFailed records a failed send of a mail tried attempts times before, and puts off its next attempt.
func (s *Notices) MailFailed(ctx context.Context, m Mail, reason string) error {
	if len(reason) > MaxNote {
		reason = reason[:MaxNote]
	}
	return s.store.MailFailed(ctx, m.ID, reason, s.clock.Now().Add(RetryAfter(m.Attempts+1)))
}

// RemindAt is when the members registered for a night get its reminder: at 10:00 of the day before, in the club's
// time zone. The reminder gives the cancellation deadline, the end of that day.
func RemindAt(n ClubNight, zone *time.Location) time.Time {
	d := CancelDeadline(n, zone)
	return time.Date(d.Year(), d.Month(), d.Day()-1, 10, 0, 0, 0, zone)
}

// Remind writes the reminders that are due: for every night that is not cancelled, from its RemindAt until its
// cancellation deadline, each registered member once. The scheduler's action: no account.
func (s *Notices) Remind(ctx context.Context) (int, error) {
	now := s.clock.Now()
	nights, err := s.store.Nights(ctx, now, now.Add(72*time.Hour))
	if err != nil {
		return 0, err
	}
	total := 0
	for _, n := range nights {
		if n.IsCancelled() || now.Before(RemindAt(n, s.clock.Zone)) || !now.Before(CancelDeadline(n, s.clock.Zone)) {
			continue
		}
		k, err := s.store.Remind(ctx, n.ID, now)
		if err != nil {
			return total, err
		}
		total += k
	}
	return total, nil
}
