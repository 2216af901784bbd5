package club

import (
	"context"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Person is one account for a person who plays in several clubs of an installation (issue 29): his login and
// password, kept in the installation's own store. In each club he joined he is a member of that club's own store
// (a User with its status, role, strikes and player profile, as any member's), linked to him by a Membership.
type Person struct {
	ID           int64
	Login        string
	PasswordHash string
	CreatedAt    time.Time
}

// Membership links a person to his account in one club: Club is the club's slug, "" for the installation's own.
type Membership struct {
	PersonID  int64
	Club      string
	UserID    int64
	CreatedAt time.Time
}

// PersonStore keeps the installation's persons, their sessions and their memberships (the installation's own
// store). A login is unique ignoring case; a person has at most one membership per club, and a club's account
// belongs to at most one person (both a Conflict).
type PersonStore interface {
	CreatePerson(ctx context.Context, p *Person) error
	PersonByLogin(ctx context.Context, login string) (*Person, error)
	DeletePerson(ctx context.Context, id int64) error
	CreatePersonSession(ctx context.Context, tokenHash []byte, personID int64, expires time.Time) error
	// SessionPerson is the person of an unexpired session; Unauthorized when none.
	SessionPerson(ctx context.Context, tokenHash []byte, now time.Time) (*Person, error)
	DeletePersonSession(ctx context.Context, tokenHash []byte) error
	AddMembership(ctx context.Context, m *Membership) error
	// DropClubMemberships removes every membership in club slug (the club is removed from the installation).
	DropClubMemberships(ctx context.Context, slug string) error
	// Memberships lists a person's memberships by club ("" first).
	Memberships(ctx context.Context, personID int64) ([]Membership, error)
}

// ClubDirectory is the installation's clubs as its persons reach them: the services of a club by slug ("" the
// installation's own), NotFound for a club it does not serve, and the club's name and host name as the platform
// lists it (for the own club, its name is its identity's and its Slug "").
type ClubDirectory interface {
	Club(ctx context.Context, slug string) (*Services, Tenant, error)
}

// Persons runs the persons of an installation of several clubs: sign-up, login (throttled as a club's logins are,
// with the same code), sessions valid in every club served on the installation's host names, logout (the session
// ends for every club at once), joining a club (a pending member there, whom that club's admins approve), and a
// person's clubs with his status and his results in each.
type Persons struct {
	store    PersonStore
	clock    *Clock
	clubs    ClubDirectory
	throttle *throttle
	hashes   hashShare // the persons' share of the hashing, for a login not made at a club's form (none yet)
}

// NewPersons builds the persons' service over the installation's own store and its clubs.
func NewPersons(store PersonStore, clock *Clock, clubs ClubDirectory) *Persons {
	return &Persons{store: store, clock: clock, clubs: clubs, throttle: newThrottle()}
}

// personLogin is the login of a person's account in a club's store: it holds a "/", which no login a person types
// at sign-up may hold (checkLogin), and its password hash is empty, which no password matches: the account is
// reached through its person's session only, never logged into at the club's form.
func personLogin(personID int64) string { return "person/" + strconv.FormatInt(personID, 10) }

// checkLogin is what a login typed at sign-up must be.
func checkLogin(login string) error {
	if n := utf8.RuneCountInString(login); n < 3 || n > MaxLoginChars || strings.ContainsAny(login, " \t/\\") {
		return Errorf(Invalid, "a login has 3 to 40 characters and no spaces")
	}
	_, err := cleanName(login, MaxLoginChars, "login", false)
	return err
}

// SignUp creates a person and his membership in the club he signed up at (slug): a pending member there, whom the
// club's admins approve. Like a club's sign-up it does not log him in, and it answers a taken login exactly as a
// free one (after the same slow hash); a nickname taken in that club is said. A login of a club's own account, in
// the club he signs up at or the installation's own, is taken too: a person with the login of the club's admin
// would be tried at the club's form whenever the admin's password is wrong (the throttles keep the two apart all
// the same, since a club made later, or an account added later, may still share a person's login).
func (ps *Persons) SignUp(ctx context.Context, slug string, f SignUpForm) error {
	login := strings.TrimSpace(f.Login)
	if err := checkLogin(login); err != nil {
		return err
	}
	nick, realName, err := cleanProfile(f.Nick, f.RealName)
	if err != nil {
		return err
	}
	if !ps.throttle.reserve([]string{"signup:" + f.Addr}, ps.clock.Now()) {
		return ErrThrottled
	}
	svc, _, err := ps.clubs.Club(ctx, slug)
	if err != nil {
		return err
	}
	if err := svc.Accounts.nickFree(ctx, nick, 0); err != nil {
		return err
	}
	hash, err := hashPassword(withHashBudget(ctx, &svc.Accounts.hashes), f.Password)
	if err != nil {
		return err
	}
	clubs := []*Services{svc}
	if slug != "" {
		own, _, err := ps.clubs.Club(ctx, "")
		if err != nil {
			return err
		}
		clubs = append(clubs, own)
	}
	for _, c := range clubs {
		switch _, err := c.Accounts.store.UserByLogin(ctx, login); {
		case err == nil:
			return nil // a club's account has the login: the same answer as a new person
		case ErrorCode(err) != NotFound:
			return err
		}
	}
	p := &Person{Login: login, PasswordHash: hash, CreatedAt: ps.clock.Now()}
	switch err := ps.store.CreatePerson(ctx, p); {
	case ErrorCode(err) == Conflict:
		return nil // the login is taken: the same answer as a new person
	case err != nil:
		return err
	}
	if _, err := ps.join(ctx, svc, p, slug, nick, realName); err != nil {
		// a person is made with his first club or not at all
		if derr := ps.store.DeletePerson(context.WithoutCancel(ctx), p.ID); derr != nil {
			return derr
		}
		return err
	}
	return nil
}

// Login checks a person's login and password and opens his session: the same throttle as a club's logins (per
// login from its address, per address, and the login's run of delays), the same answer for a wrong login and a
// wrong password.
func (ps *Persons) Login(ctx context.Context, c Credentials) (*Person, string, error) {
	ctx = withHashBudget(ctx, &ps.hashes) // at a club's form, the club's budget (Accounts.LoginOr)
	login := strings.TrimSpace(c.Login)
	now := ps.clock.Now()
	g := &guess{login: loginKey(login), addr: c.Addr}
	var p *Person
	ok, err := ps.throttle.verify(ctx, g, now, c.Password, func() (string, error) {
		var err error
		if p, err = ps.store.PersonByLogin(ctx, login); err != nil {
			return "", err
		}
		g.account = personAccount(p.ID)
		return p.PasswordHash, nil
	})
	if err != nil {
		return nil, "", err
	}
	if !ok {
		return nil, "", ErrWrongLogin
	}
	ps.throttle.succeeded(g, now)
	tok, err := newToken()
	if err != nil {
		return nil, "", err
	}
	if err := ps.store.CreatePersonSession(ctx, hashToken(tok), p.ID, now.Add(SessionTTL)); err != nil {
		return nil, "", err
	}
	return p, tok, nil
}

// Session returns the person of a session's token; NotFound or Unauthorized when it is unknown or has ended.
func (ps *Persons) Session(ctx context.Context, token string) (*Person, error) {
	if token == "" || len(token) > 100 {
		return nil, Errorf(NotFound, "no such session")
	}
	return ps.store.SessionPerson(ctx, hashToken(token), ps.clock.Now())
}

// Logout ends a person's session: in every club at once, since it is one session.
func (ps *Persons) Logout(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	return ps.store.DeletePersonSession(ctx, hashToken(token))
}

// Member is a person's account in club slug, read from that club's store (its role and status there); NotFound
// when he is not a member of it.
func (ps *Persons) Member(ctx context.Context, p *Person, slug string) (*User, error) {
	ms, err := ps.store.Memberships(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if m.Club == slug {
			svc, _, err := ps.clubs.Club(ctx, slug)
			if err != nil {
				return nil, err
			}
			return memberOf(ctx, svc, p.ID, m.UserID)
		}
	}
	return nil, Errorf(NotFound, "not a member of this club")
}

// memberOf is the account userID of a club's store as a person's membership names it, if it is that person's
// (its login personLogin): a membership left over from a club that was removed and made again under its slug names
// an account of another store, perhaps its admin's, and must give nobody.
func memberOf(ctx context.Context, svc *Services, personID, userID int64) (*User, error) {
	u, err := svc.Accounts.store.User(ctx, userID)
	if err != nil {
		return nil, err
	}
	if u.Login != personLogin(personID) {
		return nil, Errorf(NotFound, "not a member of this club")
	}
	return u, nil
}

// ErrMemberAlready refuses a person's joining a club he is a member of.
var ErrMemberAlready = &Error{Code: Conflict, Message: "you are a member of this club already"}

// Join makes a person a member of club slug: a pending member of that club's store (its admins approve him as any
// member), with his nickname there (refused when another player of that club has it), and his membership.
func (ps *Persons) Join(ctx context.Context, p *Person, slug, nick, realName string) (*User, error) {
	if p == nil {
		return nil, Errorf(Unauthorized, "log in first")
	}
	nick, realName, err := cleanProfile(nick, realName)
	if err != nil {
		return nil, err
	}
	svc, _, err := ps.clubs.Club(ctx, slug)
	if err != nil {
		return nil, err
	}
	return ps.join(ctx, svc, p, slug, nick, realName)
}

func (ps *Persons) join(ctx context.Context, svc *Services, p *Person, slug, nick, realName string) (*User, error) {
	ms, err := ps.store.Memberships(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	for _, m := range ms {
		if m.Club == slug {
			return nil, ErrMemberAlready
		}
	}
	st := svc.Accounts.store
	// an account of his left by a join that failed half-way (the club's store written, the membership not) is his
	u, err := st.UserByLogin(ctx, personLogin(p.ID))
	switch {
	case ErrorCode(err) == NotFound:
		if err := svc.Accounts.nickFree(ctx, nick, 0); err != nil {
			return nil, err
		}
		now := ps.clock.Now()
		u = &User{Login: personLogin(p.ID), Name: nick, Role: RoleMember, Status: StatusPending, CreatedAt: now}
		if err := st.CreateMember(ctx, u, &Player{Nick: nick, RealName: realName, CreatedAt: now}); err != nil {
			if ErrorCode(err) == Conflict && svc.Accounts.nickFree(ctx, nick, 0) != nil {
				return nil, ErrNickTaken
			}
			return nil, err
		}
	case err != nil:
		return nil, err
	}
	if err := ps.store.AddMembership(ctx, &Membership{PersonID: p.ID, Club: slug, UserID: u.ID, CreatedAt: ps.clock.Now()}); err != nil {
		if ErrorCode(err) == Conflict {
			return nil, ErrMemberAlready
		}
		return nil, err
	}
	return u, nil
}

// PersonClub is one club of a person's: the club, his account there (its status and role) and his public results
// in its saved games.
type PersonClub struct {
	Club  Tenant // Slug "" for the installation's own club
	User  *User
	Games int
	Wins  int
	// Points are his points in those games, in hundredths
	Points int
}

// Clubs lists a person's clubs, the installation's own first, then by slug, each with his account there and his
// results in its saved games (public, as his player page there shows them). A club the installation no longer
// serves is left out.
func (ps *Persons) Clubs(ctx context.Context, p *Person) ([]PersonClub, error) {
	if p == nil {
		return nil, Errorf(Unauthorized, "log in first")
	}
	ms, err := ps.store.Memberships(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	var out []PersonClub
	for _, m := range ms {
		svc, t, err := ps.clubs.Club(ctx, m.Club)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		u, err := memberOf(ctx, svc, p.ID, m.UserID)
		if ErrorCode(err) == NotFound {
			continue
		}
		if err != nil {
			return nil, err
		}
		pc := PersonClub{Club: t, User: u}
		if u.PlayerID != 0 {
			_, res, err := svc.Records.Player(ctx, u.PlayerID)
			if err != nil {
				return nil, err
			}
			for _, r := range res {
				pc.Games++
				pc.Points += r.Points
				if r.Won {
					pc.Wins++
				}
			}
		}
		out = append(out, pc)
	}
	return out, nil
}
