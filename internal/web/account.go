package web

import (
	"io"
	"mafiaclub/internal/club"
	"net/http"
	"strings"
)

type signupView struct {
	Page
	Login, Nick, RealName, Error string
	Done                         bool
}

func (s *Server) signupForm(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("signup.title")
	s.render(w, "signup", signupView{Page: p, Done: r.URL.Query().Get("done") == "1"})
}

// signup creates a pending member (club.Accounts.SignUp: a taken login gets the same answer as a free one); he
// logs in with his login and password, and an admin approves him.
func (s *Server) signup(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("signup.title")
	v := signupView{Page: p, Login: strings.TrimSpace(r.PostFormValue("login")), Nick: strings.TrimSpace(r.PostFormValue("nick")),
		RealName: strings.TrimSpace(r.PostFormValue("real_name"))}
	if r.PostFormValue("password") != r.PostFormValue("password2") {
		v.Error = p.T("signup.mismatch")
		w.WriteHeader(http.StatusBadRequest)
		s.render(w, "signup", v)
		return
	}
	f := club.SignUpForm{Login: v.Login, Password: r.PostFormValue("password"), Nick: v.Nick, RealName: v.RealName, Addr: s.clientAddr(r)}
	var err error
	if ps := s.persons(); ps != nil {
		err = ps.SignUp(r.Context(), s.slug(), f) // on an installation of several clubs: a person, a member of this club
	} else {
		err = s.svc.Accounts.SignUp(r.Context(), f)
	}
	switch code := club.ErrorCode(err); code {
	case "":
		s.redirect(w, r, "/signup?done=1")
	case club.Invalid, club.Conflict, club.TooMany, club.Busy:
		v.Error = s.errorText(p.Lang, err)
		w.WriteHeader(status(code))
		s.render(w, "signup", v)
	default:
		s.fail(w, r, err)
	}
}

type meView struct {
	Page
	Status  string
	Regs    []regRow
	Strikes []string
	// Clubs are a person's clubs on the installation (nil for a club's own account)
	Clubs *myClubs
}

type regRow struct {
	club.Registration
	When, State string
}

func (s *Server) mePage(w http.ResponseWriter, r *http.Request) {
	p := s.page(r)
	p.Title = p.T("me.title")
	u := p.User
	regs, nights, strikes, err := s.svc.Nights.Mine(r.Context(), u)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	v := meView{Page: p, Status: p.T("status." + string(u.Status))}
	if v.Clubs, err = s.personClubs(r, p); err != nil {
		s.fail(w, r, err)
		return
	}
	for i := len(regs) - 1; i >= 0; i-- {
		reg, n := regs[i], nights[i]
		state := p.T("reg." + string(reg.State))
		if reg.Late {
			state = p.T("reg.late")
		}
		if reg.NoShow {
			state += " · " + p.T("strike.no_show")
		}
		if n.IsCancelled() {
			state = p.T("reg.night_called_off")
		}
		v.Regs = append(v.Regs, regRow{Registration: reg, When: p.Time(n.StartsAt) + " · " + n.Place, State: state})
	}
	for _, st := range strikes {
		v.Strikes = append(v.Strikes, p.Time(st.At)+" · "+p.T("strike."+string(st.Kind)))
	}
	s.render(w, "me", v)
}

type profileView struct {
	Page
	Player *club.Player
	Error  string
	Saved  bool
}

func (s *Server) profileForm(w http.ResponseWriter, r *http.Request) {
	s.renderProfile(w, r, http.StatusOK, "", r.URL.Query().Get("saved") == "1")
}

func (s *Server) renderProfile(w http.ResponseWriter, r *http.Request, code int, errText string, saved bool) {
	p := s.page(r)
	p.Title = p.T("profile.title")
	pl, err := s.svc.Accounts.Profile(r.Context(), p.User)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.WriteHeader(code)
	s.render(w, "profile", profileView{Page: p, Player: pl, Error: errText, Saved: saved})
}

// saveProfile changes the member's own nickname, real name and photo.
func (s *Server) saveProfile(w http.ResponseWriter, r *http.Request) {
	u := currentUser(r)
	r.Body = http.MaxBytesReader(w, r.Body, club.MaxPhoto+64<<10)
	if err := r.ParseMultipartForm(club.MaxPhoto + 64<<10); err != nil && err != http.ErrNotMultipart {
		s.renderProfile(w, r, http.StatusBadRequest, s.page(r).T("profile.too_big"), false)
		return
	}
	var photo []byte
	var err error
	if r.MultipartForm != nil && len(r.MultipartForm.File["photo"]) > 0 {
		f, ferr := r.MultipartForm.File["photo"][0].Open()
		if ferr == nil {
			photo, ferr = io.ReadAll(io.LimitReader(f, club.MaxPhoto+1))
			f.Close()
		}
		if ferr != nil {
			err = club.Errorf(club.Invalid, "the photo could not be read")
		} else if len(photo) == 0 {
			photo = nil // the file field left empty
		}
	}
	if err == nil {
		err = s.svc.Accounts.SaveProfile(r.Context(), u, club.ProfileForm{Nick: r.FormValue("nick"), RealName: r.FormValue("real_name"),
			Photo: photo, RemovePhoto: r.FormValue("remove_photo") == "on"})
	}
	switch {
	case err == nil:
		s.redirect(w, r, "/me/profile?saved=1")
	case club.ErrorCode(err) == club.Invalid || club.ErrorCode(err) == club.Conflict:
		s.renderProfile(w, r, status(club.ErrorCode(err)), s.errorText(s.page(r).Lang, err), false)
	default:
		s.fail(w, r, err)
	}
}
