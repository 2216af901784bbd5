package club

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Accounts runs the accounts and the members: logging in and sessions, sign-ups, passwords, profiles and photos,
// and an admin's changes to statuses, roles and guests' seats. Logins, sign-ups and password changes are throttled
// here, and every password hash waits for one of a bounded number of slots (password.go), within the club's share
// of them, so no interface can flood the server with them, nor one club's flood refuse another club's logins.
type Accounts struct {
	store    Store
	clock    *Clock
	throttle *throttle
	devices  deviceKeys
	links    linkOutbox // the one-time links waiting to be sent (links.go)
	hashes   hashShare
}

func newAccounts(store Store, clock *Clock) *Accounts {
	return &Accounts{store: store, clock: clock, throttle: newThrottle()}
}

// dummyHash is checked when a login does not exist, so that both failures take as long.
const dummyHash = "$argon2id$v=19$m=65536,t=3,p=2$c29tZXNhbHRzb21lc2FsdA$0d7oJ0G3C6Xq9Xh3f3H1m4Vv3cPZ4d0pYx0m9m6cQ3E"

// SessionTTL is how long a login lasts.
const SessionTTL = 30 * 24 * time.Hour

// ErrThrottled refuses a login, sign-up or password change from a login, address or account that has used up its
// attempts for now.
var ErrThrottled = &Error{Code: TooMany, Message: "too many attempts; wait a few minutes"}

// ErrDelayed refuses a login whose passwords have been tried too often of late, from a client it does not trust:
// the next may be checked after a delay (Throttled says how long).
var ErrDelayed = &Error{Code: TooMany, Message: "many passwords were tried for this login; try again in a moment"}

// Throttled is a refusal of a throttle (Err: ErrThrottled or ErrDelayed) that says when to try again.
type Throttled struct {
	Err        *Error
	RetryAfter time.Duration
}

func (t *Throttled) Error() string { return t.Err.Error() }

// Unwrap makes errors.Is(err, ErrThrottled) and ErrorCode see the refusal.
func (t *Throttled) Unwrap() error { return t.Err }

// WaitFor is how long a throttled attempt waits before it may be made again: 0 when err does not say.
func WaitFor(err error) time.Duration {
	var t *Throttled
	if errors.As(err, &t) {
		return t.RetryAfter
	}
	return 0
}

// ErrWrongLogin refuses a login whose account does not exist or whose password is wrong: the two are one answer,
// after the same slow hash, so that nobody learns which logins exist.
var ErrWrongLogin = &Error{Code: Unauthorized, Message: "wrong login or password"}

// Credentials are what a person types to log in, the address the request came from and the device token his
// browser holds (DeviceToken; "" when none), for the throttle.
type Credentials struct {
	Login, Password, Addr, Device string
}

// Login checks a login and password and opens a session: it returns the account and the session's token (for a
// cookie; only its hash is stored). The attempt is counted before the password is hashed (throttle.admit): per
// login from its address (or from its device, when the browser holds a valid device token of this login), per
// address, and in the login's run, whose delay holds every client the login does not trust. A busy server or a
// database error gives the attempt back; a success forgets the client's failures at this login and trusts its
// address.
func (a *Accounts) Login(ctx context.Context, c Credentials) (*User, string, error) {
	return a.LoginOr(ctx, c, nil)
}

// LoginOr is Login with a second account to try, on an installation of several clubs: when the login is not this
// club's account or its password is wrong, other checks them as the installation's person's (Persons.Login, which
// keeps its session and its own throttle). other's success is no success of this club's: no club account was
// logged into, so this club's throttle trusts nothing of it and forgets none of the client's failures (else a
// person who took the login of the club's admin would make his addresses trusted for the admin and clear his own
// failures at guessing the admin's password); the attempt is only given back, since it was the person's right
// password and no guess. LoginOr then returns no account, no token and no error; other's Unauthorized is
// ErrWrongLogin, as for a club's account alone; a server busy or failing gives the attempt back. A nil other is
// Login.
func (a *Accounts) LoginOr(ctx context.Context, c Credentials, other func(ctx context.Context) error) (*User, string, error) {
	ctx = withHashBudget(ctx, &a.hashes)
	login := strings.TrimSpace(c.Login)
	now := a.clock.Now()
	device, deviceUser := a.deviceOf(ctx, c.Device, login, now)
	g := &guess{login: loginKey(login), addr: c.Addr}
	var u *User
	ok, err := a.throttle.verify(ctx, g, now, c.Password, func() (string, error) {
		var err error
		if u, err = a.store.UserByLogin(ctx, login); err != nil {
			return "", err
		}
		g.account = userAccount(u.ID)
		if deviceUser == u.ID {
			g.device = device // a device of this very account, not of one that had the login before
		}
		return u.PasswordHash, nil
	})
	if err != nil {
		return nil, "", err
	}
	if !ok {
		if other == nil {
			return nil, "", ErrWrongLogin
		}
		switch err := other(ctx); ErrorCode(err) {
		case "":
			a.throttle.giveBack(g, now)
			return nil, "", nil
		case Unauthorized:
			return nil, "", ErrWrongLogin
		case TooMany:
			return nil, "", err
		default:
			a.throttle.giveBack(g, now)
			return nil, "", err
		}
	}
	a.throttle.succeeded(g, now)
	tok, err := a.newSession(ctx, u)
	if err != nil {
		return nil, "", err
	}
	return u, tok, nil
}

func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

func (a *Accounts) newSession(ctx context.Context, u *User) (string, error) {
	tok, err := newToken()
	if err != nil {
		return "", err
	}
	if err := a.store.CreateSession(ctx, hashToken(tok), u.ID, a.clock.Now().Add(SessionTTL)); err != nil {
		return "", err
	}
	return tok, nil
}

// newToken is a new session's token: 32 random bytes, for a cookie (only its hash is stored).
func newToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// verify looks the login's account up (lookup gives its hash and sets g.account, and g.device when the client's
// device is that account's), counts the attempt g (throttle.admit: the account's trust is known only once it is
// looked up) and checks password against the hash: the dummy hash when lookup finds no account (NotFound), so that
// a wrong login and a wrong password take as long and are one answer. A busy hasher or a failing store is not the
// person's failure: the attempt is not counted, or given back. True only when an account was found and the
// password is its.
func (t *throttle) verify(ctx context.Context, g *guess, now time.Time, password string, lookup func() (hash string, err error)) (bool, error) {
	hash, err := lookup()
	found := err == nil
	switch {
	case found:
	case ErrorCode(err) != NotFound:
		return false, err
	default:
		hash = dummyHash
	}
	if err := t.admit(g, now); err != nil {
		return false, err
	}
	ok, err := checkPasswordIn(ctx, hash, password)
	if err != nil { // busy: not the person's failure
		t.giveBack(g, now)
		return false, err
	}
	return ok && found, nil
}

// Session returns the account of a session's token, or NotFound when it is unknown or has expired.
func (a *Accounts) Session(ctx context.Context, token string) (*User, error) {
	if token == "" || len(token) > 100 {
		return nil, Errorf(NotFound, "no such session")
	}
	return a.store.SessionUser(ctx, hashToken(token), a.clock.Now())
}

// Logout ends a session.
func (a *Accounts) Logout(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	return a.store.DeleteSession(ctx, hashToken(token))
}

// SignUpForm is what a person gives to sign up, and the address the request came from (for the throttle).
type SignUpForm struct {
	Login, Password, Nick, RealName, Addr string
}

// SignUp creates a pending member: an admin must approve him before he registers for club nights. It does not
// log him in, and it answers a taken login exactly as a free one (after the same slow hash), so that sign-up does
// not tell anyone which logins exist; a person whose login was taken finds his password refused and signs up
// again with another. A taken nickname is said, since nicknames are public anyway.
func (a *Accounts) SignUp(ctx context.Context, f SignUpForm) error {
	login := strings.TrimSpace(f.Login)
	if err := checkLogin(login); err != nil {
		return err
	}
	nick, realName, err := cleanProfile(f.Nick, f.RealName)
	if err != nil {
		return err
	}
	if !a.throttle.reserve([]string{"signup:" + f.Addr}, a.clock.Now()) {
		return ErrThrottled
	}
	if err := a.nickFree(ctx, nick, 0); err != nil {
		return err
	}
	hash, err := hashPassword(withHashBudget(ctx, &a.hashes), f.Password)
	if err != nil {
		return err
	}
	u := &User{Login: login, Name: nick, Role: RoleMember, PasswordHash: hash, Status: StatusPending, CreatedAt: a.clock.Now()}
	err = a.store.CreateMember(ctx, u, &Player{Nick: nick, RealName: realName, CreatedAt: a.clock.Now()})
	switch {
	case ErrorCode(err) == Conflict && a.nickFree(ctx, nick, 0) != nil:
		return ErrNickTaken // taken by someone else in the meantime
	case ErrorCode(err) == Conflict:
		return nil // the login is taken: the same answer as a new account
	}
	return err
}

// cleanProfile checks a nickname (public, required) and a real name (never public, optional).
func cleanProfile(nick, realName string) (string, string, error) {
	nick, err := cleanName(nick, MaxNick, "nickname", false)
	if err != nil {
		return "", "", err
	}
	realName, err = cleanName(realName, MaxRealName, "real name", true)
	return nick, realName, err
}

// ErrNickTaken refuses a nickname another player has: seating finds club players by their nicknames.
var ErrNickTaken = &Error{Code: Conflict, Message: "another player has this nickname"}

// nickFree checks that no player but except has nick, ignoring case.
func (a *Accounts) nickFree(ctx context.Context, nick string, except int64) error {
	p, err := a.store.PlayerByNick(ctx, nick)
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

// ErrWrongPassword refuses a password change whose current password is wrong.
var ErrWrongPassword = &Error{Code: Invalid, Message: "the current password is wrong"}

// ChangePassword sets a new password after checking the current one; the account's other sessions end (all but
// the one of keepToken). Failed attempts are throttled per account.
func (a *Accounts) ChangePassword(ctx context.Context, u *User, current, next, keepToken string) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	keys := []string{"account:" + strconv.FormatInt(u.ID, 10)}
	now := a.clock.Now()
	hctx := withHashBudget(ctx, &a.hashes)
	if !a.throttle.reserve(keys, now) {
		return ErrThrottled
	}
	fresh, err := a.store.User(ctx, u.ID)
	if err != nil {
		a.throttle.release(keys, now)
		return err
	}
	ok, err := checkPasswordIn(hctx, fresh.PasswordHash, current)
	if err != nil {
		a.throttle.release(keys, now)
		return err
	}
	if !ok {
		return ErrWrongPassword
	}
	a.throttle.release(keys, now)
	hash, err := hashPassword(hctx, next)
	if err != nil {
		return err
	}
	var keep []byte
	if keepToken != "" {
		keep = hashToken(keepToken)
	}
	return a.store.SetPassword(ctx, u.ID, hash, keep)
}

// SetLang remembers the interface language of an account.
func (a *Accounts) SetLang(ctx context.Context, u *User, lang string) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	return a.store.SetUserLang(ctx, u.ID, lang)
}

// Profile returns a member's own player profile, real name included.
func (a *Accounts) Profile(ctx context.Context, u *User) (*Player, error) {
	if err := need(u, RoleMember); err != nil {
		return nil, err
	}
	if u.PlayerID == 0 {
		return nil, Errorf(Invalid, "this account has no player profile")
	}
	return a.store.Player(ctx, u.PlayerID)
}

// MaxPhoto is the largest profile photo accepted.
const MaxPhoto = 1 << 20

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

// ProfileForm is a member's change to his own profile: photo nil keeps the photo, RemovePhoto removes it.
type ProfileForm struct {
	Nick, RealName string
	Photo          []byte
	RemovePhoto    bool
}

// SaveProfile changes a member's own nickname, real name and photo (a JPEG, PNG or WebP image of at most MaxPhoto
// bytes, judged by its content). Everything is checked before anything is stored, so a refused photo does not
// leave a changed nickname.
func (a *Accounts) SaveProfile(ctx context.Context, u *User, f ProfileForm) error {
	if err := need(u, RoleMember); err != nil {
		return err
	}
	if u.PlayerID == 0 {
		return Errorf(Invalid, "this account has no player profile")
	}
	nick, realName, err := cleanProfile(f.Nick, f.RealName)
	if err != nil {
		return err
	}
	ct := ""
	if f.Photo != nil {
		if len(f.Photo) > MaxPhoto {
			return Errorf(Invalid, "the photo is larger than 1 MB")
		}
		if ct = imageType(f.Photo); ct == "" {
			return Errorf(Invalid, "the photo must be a JPEG, PNG or WebP image")
		}
	}
	if err := a.nickFree(ctx, nick, u.PlayerID); err != nil {
		return err
	}
	if err := a.store.UpdatePlayer(ctx, &Player{ID: u.PlayerID, Nick: nick, RealName: realName}); err != nil {
		return err
	}
	switch {
	case f.RemovePhoto:
		return a.store.SetPlayerPhoto(ctx, u.PlayerID, nil, "")
	case f.Photo != nil:
		return a.store.SetPlayerPhoto(ctx, u.PlayerID, f.Photo, ct)
	}
	return nil
}

// Photo returns a player's profile photo and its content type: public, like the nickname.
func (a *Accounts) Photo(ctx context.Context, playerID int64) ([]byte, string, error) {
	return a.store.PlayerPhoto(ctx, playerID)
}

// Members lists every account with its nickname and strikes. Only an admin may.
func (a *Accounts) Members(ctx context.Context, admin *User) ([]User, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	return a.store.Members(ctx)
}

// MemberLog lists the changes to a member, oldest first. Only an admin may.
func (a *Accounts) MemberLog(ctx context.Context, admin *User, userID int64) ([]MemberChange, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	return a.store.MemberLog(ctx, userID)
}

// ChangeMember sets a member's status ("active", "low_priority", "excluded"; approving a pending member is
// setting him active) or role, with a reason. Only an admin may; strikes never do it by themselves (C-18). A
// status reaches the registrations of the nights to come in the same transaction: an excluded member leaves
// their line-ups, a low-priority member moves from a main line-up to the reserve (R99), and the reserve moves up.
func (a *Accounts) ChangeMember(ctx context.Context, admin *User, userID int64, field, to, reason string) error {
	if err := need(admin, RoleAdmin); err != nil {
		return err
	}
	reason, err := cleanText(reason, MaxNote, "reason", false)
	if err != nil {
		return err
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
	return a.store.ChangeMember(ctx, MemberChange{At: a.clock.Now(), UserID: userID, By: admin.ID, Field: field, To: to, Reason: reason})
}

// LinkGuest gives a member's player profile to the seats played under a guest's name. Only an admin may. A game
// in which the member sat himself keeps the guest's seat a guest's: one game never counts twice for one player.
func (a *Accounts) LinkGuest(ctx context.Context, admin *User, guestName string, userID int64, reason string) (int, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return 0, err
	}
	guestName, err := cleanName(guestName, MaxNick, "guest's name", false)
	if err != nil {
		return 0, err
	}
	reason, err = cleanText(reason, MaxNote, "reason", true)
	if err != nil {
		return 0, err
	}
	u, err := a.store.User(ctx, userID)
	if err != nil {
		return 0, err
	}
	if u.PlayerID == 0 {
		return 0, Errorf(Invalid, "this account has no player profile")
	}
	return a.store.LinkGuest(ctx, guestName, 0, u.PlayerID, MemberChange{At: a.clock.Now(), UserID: userID, By: admin.ID, Reason: reason})
}

// SearchPlayers finds club players whose nickname contains query, for seating a game: a host's tool. Members not
// yet approved and excluded members are not offered.
func (a *Accounts) SearchPlayers(ctx context.Context, u *User, query string, limit int) ([]Player, error) {
	if err := need(u, RoleHost); err != nil {
		return nil, err
	}
	return a.store.SearchPlayers(ctx, query, limit)
}

// Hosts lists the accounts that may judge a table or be a tournament's chief judge: hosts and admins. Only an
// admin (the organiser) needs the list.
func (a *Accounts) Hosts(ctx context.Context, admin *User) ([]User, error) {
	if err := need(admin, RoleAdmin); err != nil {
		return nil, err
	}
	users, err := a.store.Users(ctx)
	var out []User
	for _, u := range users {
		if u.Role.Can(RoleHost) {
			out = append(out, u)
		}
	}
	return out, err
}
