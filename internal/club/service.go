package club

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// Club runs the club's administration: sign-ups, members' statuses and roles, club nights and registrations. It
// checks permissions and applies the registration rules in the club's time zone.
type Club struct {
	Store Store
	Now   func() time.Time
	Zone  *time.Location
}

func (c *Club) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// SignUp creates a pending member: an admin must approve him before he registers for club nights.
func (c *Club) SignUp(ctx context.Context, login, password, nick, realName string) (*User, error) {
	login, nick, realName = strings.TrimSpace(login), strings.TrimSpace(nick), strings.TrimSpace(realName)
	if utf8.RuneCountInString(login) < 3 || utf8.RuneCountInString(login) > 40 || strings.ContainsAny(login, " \t/\\") {
		return nil, Errorf(Invalid, "a login has 3 to 40 characters and no spaces")
	}
	if nick == "" || utf8.RuneCountInString(nick) > 30 {
		return nil, Errorf(Invalid, "a nickname has 1 to 30 characters")
	}
	if utf8.RuneCountInString(realName) > 80 {
		return nil, Errorf(Invalid, "the name is too long")
	}
	if err := c.nickFree(ctx, nick, 0); err != nil {
		return nil, err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return nil, err
	}
	u := &User{Login: login, Name: nick, Role: RoleMember, PasswordHash: hash, Status: StatusPending}
	if err := c.Store.CreateMember(ctx, u, &Player{Nick: nick, RealName: realName}); err != nil {
		if ErrorCode(err) == Conflict {
			return nil, Errorf(Conflict, "the login %q is taken", login)
		}
		return nil, err
	}
	return u, nil
}

// ChangeMember sets a member's status ("active", "low_priority", "excluded"; approving a pending member is
// setting him active) or role, with a reason. Only an admin may; strikes never do it by themselves (C-18).
func (c *Club) ChangeMember(ctx context.Context, admin *User, userID int64, field, to, reason string) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return Errorf(Invalid, "give the reason")
	}
	switch field {
	case "status":
		if !ValidStatus(MemberStatus(to)) {
			return Errorf(Invalid, "unknown status %q", to)
		}
	case "role":
		if Role(to).Rank() == 0 {
			return Errorf(Invalid, "unknown role %q", to)
		}
		if userID == admin.ID && to != string(RoleAdmin) {
			return Errorf(Invalid, "an admin does not take his own admin role away")
		}
	default:
		return Errorf(Invalid, "unknown field %q", field)
	}
	return c.Store.ChangeMember(ctx, MemberChange{At: c.now(), UserID: userID, By: admin.ID, Field: field, To: to, Reason: reason})
}

// LinkGuest gives a member's player profile to the seats played under a guest's name. Only an admin may.
func (c *Club) LinkGuest(ctx context.Context, admin *User, guestName string, userID int64, reason string) (int, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return 0, err
	}
	u, err := c.Store.User(ctx, userID)
	if err != nil {
		return 0, err
	}
	if u.PlayerID == 0 {
		return 0, Errorf(Invalid, "this account has no player profile")
	}
	return c.Store.LinkGuest(ctx, strings.TrimSpace(guestName), 0, u.PlayerID, MemberChange{At: c.now(), UserID: userID, By: admin.ID, Reason: strings.TrimSpace(reason)})
}

// CreateNight adds a club night. Only an admin may.
func (c *Club) CreateNight(ctx context.Context, admin *User, n *ClubNight) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	if n.Tables < 1 || n.Tables > 50 {
		return Errorf(Invalid, "1 to 50 tables")
	}
	if n.PerTable < 7 || n.PerTable > 10 {
		return Errorf(Invalid, "7 to 10 players per table")
	}
	if strings.TrimSpace(n.Place) == "" {
		return Errorf(Invalid, "give the place")
	}
	if !n.StartsAt.After(c.now()) {
		return Errorf(Invalid, "the club night must start in the future")
	}
	n.CreatedBy, n.CreatedAt = admin.ID, c.now()
	return c.Store.CreateNight(ctx, n)
}

// Register registers a member for a club night.
func (c *Club) Register(ctx context.Context, u *User, nightID int64) (*Registration, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	return c.Store.Register(ctx, nightID, u.ID, c.now())
}

// Cancel cancels a member's registration: free until the end of the day before the night in the club's time zone,
// late (a strike) from then on (000 L22, C-18).
func (c *Club) Cancel(ctx context.Context, u *User, nightID int64) (*Registration, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	n, err := c.Store.Night(ctx, nightID)
	if err != nil {
		return nil, err
	}
	now := c.now()
	if !now.Before(n.StartsAt) {
		return nil, Errorf(Invalid, "the club night has begun")
	}
	return c.Store.Cancel(ctx, nightID, u.ID, now, IsLate(*n, c.Zone, now))
}

// CancelIsLate reports whether cancelling now would be late.
func (c *Club) CancelIsLate(n ClubNight) bool { return IsLate(n, c.Zone, c.now()) }

// SetNoShow marks a member of the main line-up who did not come. Only an admin may, once the night has begun.
func (c *Club) SetNoShow(ctx context.Context, admin *User, nightID, userID int64, noShow bool) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	n, err := c.Store.Night(ctx, nightID)
	if err != nil {
		return err
	}
	if c.now().Before(n.StartsAt) {
		return Errorf(Invalid, "no-shows are marked once the club night has begun")
	}
	return c.Store.SetNoShow(ctx, nightID, userID, noShow, c.now())
}

// ErrNickTaken refuses a nickname another player has: seating finds club players by their nicknames.
var ErrNickTaken = &Error{Code: Conflict, Message: "another player has this nickname"}

// nickFree checks that no player but except has nick, ignoring case.
func (c *Club) nickFree(ctx context.Context, nick string, except int64) error {
	p, err := c.Store.PlayerByNick(ctx, nick)
	switch {
	case ErrorCode(err) == NotFound:
		return nil
	case err != nil:
		return err
	case p.ID != except:
		return ErrNickTaken
	}
	return nil
}

// UpdateProfile changes a member's own nickname and real name.
func (c *Club) UpdateProfile(ctx context.Context, u *User, nick, realName string) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	if u.PlayerID == 0 {
		return Errorf(Invalid, "this account has no player profile")
	}
	nick, realName = strings.TrimSpace(nick), strings.TrimSpace(realName)
	if nick == "" || utf8.RuneCountInString(nick) > 30 {
		return Errorf(Invalid, "a nickname has 1 to 30 characters")
	}
	if utf8.RuneCountInString(realName) > 80 {
		return Errorf(Invalid, "the name is too long")
	}
	if err := c.nickFree(ctx, nick, u.PlayerID); err != nil {
		return err
	}
	return c.Store.UpdatePlayer(ctx, &Player{ID: u.PlayerID, Nick: nick, RealName: realName})
}

// MaxPhoto is the largest profile photo accepted.
const MaxPhoto = 1 << 20

// SetPhoto stores a member's own profile photo: a JPEG, PNG or WebP image of at most MaxPhoto bytes, judged by
// its content, not its name. A nil photo removes it.
func (c *Club) SetPhoto(ctx context.Context, u *User, photo []byte) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	if u.PlayerID == 0 {
		return Errorf(Invalid, "this account has no player profile")
	}
	if photo == nil {
		return c.Store.SetPlayerPhoto(ctx, u.PlayerID, nil, "")
	}
	if len(photo) > MaxPhoto {
		return Errorf(Invalid, "the photo is larger than 1 MB")
	}
	ct := imageType(photo)
	if ct == "" {
		return Errorf(Invalid, "the photo must be a JPEG, PNG or WebP image")
	}
	return c.Store.SetPlayerPhoto(ctx, u.PlayerID, photo, ct)
}

// imageType tells a JPEG, PNG or WebP image by its first bytes; "" for anything else.
func imageType(b []byte) string {
	switch {
	case len(b) > 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return "image/jpeg"
	case len(b) > 8 && string(b[:8]) == "\x89PNG\r\n\x1a\n":
		return "image/png"
	case len(b) > 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return "image/webp"
	}
	return ""
}

// SaveProfile changes a member's own nickname, real name and photo (photo nil: keep it; removePhoto: remove
// it). Everything is checked before anything is stored, so a refused photo does not leave a changed nickname.
func (c *Club) SaveProfile(ctx context.Context, u *User, nick, realName string, photo []byte, removePhoto bool) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	if photo != nil {
		if len(photo) > MaxPhoto {
			return Errorf(Invalid, "the photo is larger than 1 MB")
		}
		if imageType(photo) == "" {
			return Errorf(Invalid, "the photo must be a JPEG, PNG or WebP image")
		}
	}
	if err := c.UpdateProfile(ctx, u, nick, realName); err != nil {
		return err
	}
	switch {
	case removePhoto:
		return c.SetPhoto(ctx, u, nil)
	case photo != nil:
		return c.SetPhoto(ctx, u, photo)
	}
	return nil
}

// ErrWrongPassword refuses a password change whose current password is wrong.
var ErrWrongPassword = &Error{Code: Invalid, Message: "the current password is wrong"}

// ChangePassword sets a new password after checking the current one; the account's other sessions end.
func (c *Club) ChangePassword(ctx context.Context, u *User, current, next string, keepSession []byte) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	fresh, err := c.Store.User(ctx, u.ID)
	if err != nil {
		return err
	}
	if !CheckPassword(fresh.PasswordHash, current) {
		return ErrWrongPassword
	}
	hash, err := HashPassword(next)
	if err != nil {
		return err
	}
	return c.Store.SetPassword(ctx, u.ID, hash, keepSession)
}
