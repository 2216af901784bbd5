package web

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"mafiaclub/internal/club"
)

// Persons is what a club's site needs of the installation's persons (issue 29, item 2: one account for a person
// who plays in several clubs; club.Persons): in an installation of several clubs, every club served on the
// installation's host names (the own club and those at /c/SLUG/) lets a person sign up, log in (after the club's
// own accounts), stay logged in across the clubs with one session, join the club, and see his clubs.
type Persons interface {
	SignUp(ctx context.Context, slug string, f club.SignUpForm) error
	Login(ctx context.Context, c club.Credentials) (*club.Person, string, error)
	Session(ctx context.Context, token string) (*club.Person, error)
	Logout(ctx context.Context, token string) error
	// Member is the person's account in club slug (its role and status from that club's store); NotFound when
	// he is not its member.
	Member(ctx context.Context, p *club.Person, slug string) (*club.User, error)
	Join(ctx context.Context, p *club.Person, slug, nick, realName string) (*club.User, error)
	Clubs(ctx context.Context, p *club.Person) ([]club.PersonClub, error)
}

// personCookie holds a person's session: one cookie for every club on the installation's host name (Path "/",
// the same name whatever the club), read by a club's site when its own session cookie gives nobody. A club at a
// host name of its own is another origin and never gets it: its own accounts work there as on a single club.
const personCookie = "mafiaclub_person"

type personsBox struct{ p Persons }

// SetPersons gives the site the installation's persons (nil takes them away: an installation of one club, whose
// login and sign-up are its own accounts' only). It may be called while the site serves.
func (s *Server) SetPersons(p Persons) {
	if p == nil {
		s.personsSvc.Store(nil)
		return
	}
	s.personsSvc.Store(&personsBox{p})
}

func (s *Server) persons() Persons {
	if b := s.personsSvc.Load(); b != nil {
		return b.p
	}
	return nil
}

// slug is the club's slug as the installation names it (Slug): "" for the installation's own club.
func (s *Server) slug() string {
	if s.Slug != "" {
		return s.Slug
	}
	return strings.TrimPrefix(s.Base, "/c/")
}

const personKey ctxKey = 3

func currentPerson(r *http.Request) *club.Person {
	p, _ := r.Context().Value(personKey).(*club.Person)
	return p
}

// personSession is the session middleware's second look, when the club's own cookie gives nobody: a person's
// session, and his account in this club if he is a member of it (a person who is not is a person here and
// nobody else: he may join).
func (s *Server) personSession(r *http.Request, ps Persons) *http.Request {
	c, err := r.Cookie(personCookie)
	if err != nil || c.Value == "" {
		return r
	}
	p, err := ps.Session(r.Context(), c.Value)
	if err != nil {
		return r
	}
	ctx := context.WithValue(r.Context(), personKey, p)
	u, err := ps.Member(r.Context(), p, s.slug())
	switch {
	case err == nil:
		ctx = context.WithValue(ctx, userKey, u)
	case club.ErrorCode(err) != club.NotFound:
		s.Log.Error("a person's account in this club", "err", err)
	}
	return r.WithContext(ctx)
}

func (s *Server) setPersonSession(w http.ResponseWriter, r *http.Request, token string) {
	http.SetCookie(w, &http.Cookie{Name: personCookie, Value: token, Path: "/", HttpOnly: true, Secure: s.secureCookie(r),
		SameSite: http.SameSiteLaxMode, MaxAge: int(club.SessionTTL.Seconds())})
}

// endPersonSession ends the request's person's session, for every club at once, and drops its cookie.
func (s *Server) endPersonSession(w http.ResponseWriter, r *http.Request, ps Persons) {
	c, err := r.Cookie(personCookie)
	if err != nil {
		return
	}
	if err := ps.Logout(r.Context(), c.Value); err != nil {
		s.Log.Error("a person's logout", "err", err)
	}
	http.SetCookie(w, &http.Cookie{Name: personCookie, Value: "", Path: "/", HttpOnly: true, Secure: s.secureCookie(r),
		SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

type joinView struct {
	Page
	Nick, RealName, Error string
}

// joinForm offers a person who is not a member of this club to join it: his nickname here, and what joining
// means (the club's admins approve him).
func (s *Server) joinForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	switch {
	case p.Person == nil:
		s.redirect(w, r, "/login?next="+urlQueryEscape(s.path("/join")))
		return
	case p.User != nil:
		s.redirect(w, r, "/me")
		return
	}
	p.Title = p.T("persons.join_title")
	s.render(w, "join", joinView{Page: p})
}

// join makes the person a pending member of this club (club.Persons.Join).
func (s *Server) join(w http.ResponseWriter, r *http.Request) {
	ps := s.persons()
	person := currentPerson(r)
	if ps == nil || person == nil {
		s.fail(w, r, club.Errorf(club.Unauthorized, "log in first"))
		return
	}
	p := s.page(r)
	p.Title = p.T("persons.join_title")
	v := joinView{Page: p, Nick: strings.TrimSpace(r.PostFormValue("nick")), RealName: strings.TrimSpace(r.PostFormValue("real_name"))}
	_, err := ps.Join(r.Context(), person, s.slug(), v.Nick, v.RealName)
	switch code := club.ErrorCode(err); {
	case err == nil, errors.Is(err, club.ErrMemberAlready):
		s.redirect(w, r, "/me")
	case code == club.Invalid || code == club.Conflict:
		v.Error = s.errorText(p.Lang, err)
		w.WriteHeader(status(code))
		s.render(w, "join", v)
	default:
		s.fail(w, r, err)
	}
}

// myClubs is a person's clubs on his page: each with his status there and his results in its saved games, and
// the whole of them.
type myClubs struct {
	Lines                []myClubLine
	Games, Wins, Points  int
	Current              string // this club's slug
	HasOthers, AnyResult bool
}

type myClubLine struct {
	club.PersonClub
	Name, Address, Status, Role string
	Here                        bool
}

func (s *Server) personClubs(r *http.Request, p Page) (*myClubs, error) {
	ps := s.persons()
	if ps == nil || p.Person == nil {
		return nil, nil
	}
	cs, err := ps.Clubs(r.Context(), p.Person)
	if err != nil {
		return nil, err
	}
	v := &myClubs{Current: s.slug()}
	for _, c := range cs {
		l := myClubLine{PersonClub: c, Name: c.Club.Name, Address: Prefix(c.Club.Slug) + "/", Status: p.T("status." + string(c.User.Status)),
			Role: p.T("members.role_" + string(c.User.Role)), Here: c.Club.Slug == v.Current}
		switch {
		case c.Club.Host != "":
			l.Address = "https://" + c.Club.Host + "/"
		case c.Club.Slug == "":
			l.Address = "/"
		}
		if l.Name == "" {
			l.Name = p.T("site.name") // the own club, whose identity has no name yet
		}
		v.Games += c.Games
		v.Wins += c.Wins
		v.Points += c.Points
		v.HasOthers = v.HasOthers || !l.Here
		v.Lines = append(v.Lines, l)
	}
	return v, nil
}
